// Running another program (ssh-keygen, for signatures) the safe way: an
// argument vector handed to posix_spawnp, never a shell command line, so no
// file name can be read as shell syntax; its input given as bytes, its output
// collected whole.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace bng::cert {

struct ProgramResult {
  int exit_status = -1;  // -1: ended by a signal
  std::string out, err;
};

// argv[0] is not on PATH: the caller says which package provides it.
struct ProgramNotFound : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs argv[0] (looked up on PATH) with `argv`, `input` on its standard
// input, and waits for it. Throws ProgramNotFound, or std::runtime_error
// naming the program when it cannot be started or waited for.
ProgramResult run_program(const std::vector<std::string>& argv, std::string_view input);

}  // namespace bng::cert
