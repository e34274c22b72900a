#include "isa_choice.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "bng/optimized/isa.hpp"
#include "output_file.hpp"

extern char** environ;

namespace bng::cert {

std::vector<std::string> every_isa_path() {
  return opt::isa_supported_paths();
}

void choose_isa(const std::string& path) {
  const auto paths = every_isa_path();
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) {
    std::string list;
    for (const auto& p : paths) list += (list.empty() ? "" : ", ") + p;
    throw std::invalid_argument(fmt::format(
        "--isa {}: this processor (or this build) cannot run that path; it runs {}", path, list));
  }
  ::setenv("BNG_ISA", path.c_str(), 1);
}

std::vector<std::string> without_isa_and_out(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--isa" || a == "--out" || a == "-o") {
      ++i;  // and its value
      continue;
    }
    if (a.starts_with("--isa=") || a.starts_with("--out=") ||
        (a.starts_with("-o") && !a.starts_with("--")))
      continue;
    out.push_back(a);
  }
  return out;
}

namespace {

// The program that runs a child: this program itself, or, where
// BNG_EXEC_WRAPPER names one, that wrapper with this program's file as its
// first argument. For runs under an emulator (tests/aarch64: qemu-aarch64,
// as CMAKE_CROSSCOMPILING_EMULATOR), where the host cannot start this
// program's own machine code by itself.
std::vector<std::string> child_command(const std::filesystem::path& self) {
  const char* wrapper = std::getenv("BNG_EXEC_WRAPPER");
  if (wrapper == nullptr || *wrapper == '\0') return {self.string()};
  std::error_code ec;
  const std::filesystem::path file = std::filesystem::read_symlink(self, ec);
  return {wrapper, ec ? self.string() : file.string()};
}

}  // namespace

std::vector<int> run_per_isa_path(const std::filesystem::path& self,
                                  const std::vector<std::string>& args,
                                  const std::filesystem::path& out) {
  std::vector<int> statuses;
  for (const std::string& path : every_isa_path()) {
    std::vector<std::string> words = child_command(self);
    words.insert(words.end(), args.begin(), args.end());
    for (const std::string& w : {std::string("--isa"), path, std::string("--out"),
                                 (out / path).string(), std::string(kPartOfIsaAll)})
      words.push_back(w);
    std::vector<char*> cargv;
    for (auto& w : words) cargv.push_back(w.data());
    cargv.push_back(nullptr);
    make_subdirectory(out, path);  // never a link planted there
    fmt::print(stderr, "bngcert: certifying the {} path\n", path);
    pid_t pid = 0;
    if (::posix_spawnp(&pid, cargv[0], nullptr, nullptr, cargv.data(), environ) != 0) {
      throw std::runtime_error(fmt::format("cannot start {}", words[0]));
    }
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0) {
      if (errno != EINTR) throw std::runtime_error("waitpid failed");
    }
    statuses.push_back(WIFEXITED(st) ? WEXITSTATUS(st) : -1);
  }
  return statuses;
}

}  // namespace bng::cert
