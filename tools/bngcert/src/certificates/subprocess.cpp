#include "subprocess.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

extern char** environ;

namespace bng::cert {

namespace {

struct CloseFile {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, CloseFile>;

// An anonymous temporary file (removed when closed). Files rather than pipes
// carry the input and output: nothing to interleave, so no deadlock however
// much either side writes.
File temporary_file(const std::string& program) {
  File f(std::tmpfile());
  if (!f) {
    throw std::runtime_error(
        fmt::format("cannot run {}: no temporary file: {}", program, std::strerror(errno)));
  }
  return f;
}

std::string read_back(std::FILE* f) {
  std::string text;
  std::rewind(f);
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
  return text;
}

// posix_spawn_file_actions_t, destroyed on every path out.
struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
};

}  // namespace

ProgramResult run_program(const std::vector<std::string>& argv, std::string_view input) {
  const std::string& program = argv.at(0);
  const File in = temporary_file(program), out = temporary_file(program),
             err = temporary_file(program);
  if (std::fwrite(input.data(), 1, input.size(), in.get()) != input.size() ||
      std::fflush(in.get()) != 0) {
    throw std::runtime_error(
        fmt::format("cannot run {}: writing its input failed: {}", program, std::strerror(errno)));
  }
  std::rewind(in.get());

  FileActions fa;
  posix_spawn_file_actions_adddup2(&fa.actions, fileno(in.get()), STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&fa.actions, fileno(out.get()), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa.actions, fileno(err.get()), STDERR_FILENO);
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, program.c_str(), &fa.actions, nullptr, cargv.data(), environ);
  if (rc == ENOENT) throw ProgramNotFound(fmt::format("{}: not found on PATH", program));
  if (rc != 0) {
    throw std::runtime_error(fmt::format("cannot start {}: {}", program, std::strerror(rc)));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw std::runtime_error(
          fmt::format("waiting for {} failed: {}", program, std::strerror(errno)));
    }
  }
  ProgramResult r;
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_back(out.get());
  r.err = read_back(err.get());
  return r;
}

}  // namespace bng::cert
