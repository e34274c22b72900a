// Helpers for the end-to-end tests: run the built bngcert, make scratch
// directories, and write a call's files as a device dump would.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace bngcert_test {

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line, stdout and stderr together.
inline Run shell(const std::string& cmd) {
  Run r;
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p)) r.output += buf.data();
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// The command line of `bngcert <args>` (args already shell-quoted where needed).
inline std::string bngcert_command(const std::string& args) {
  return std::string(BNGCERT_EXE) + " " + args + " --progress lines";
}

inline Run bngcert(const std::string& args) {
  return shell(bngcert_command(args));
}

// The same, killed after `seconds` (exit 124): for a case where a regression
// would make bngcert wait forever (a FIFO opened), so that the test fails
// instead of hanging.
inline Run bngcert_with_deadline(const std::string& args, int seconds) {
  return shell("timeout " + std::to_string(seconds) + " " + bngcert_command(args));
}

// The run ended with `status` and said `words` (stdout or stderr).
inline void expect_exit(const Run& r, int status, const std::string& words) {
  EXPECT_EQ(r.status, status) << r.output;
  EXPECT_NE(r.output.find(words), std::string::npos) << "expected '" << words << "' in\n"
                                                     << r.output;
}

inline nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream f(p);
  return nlohmann::json::parse(f);
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A fresh directory under the system temp dir, removed by the destructor.
class Scratch {
 public:
  explicit Scratch(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("bngcert_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Scratch() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace bngcert_test
