// bngcert's --isa: which of the kernels' ISA paths a run uses. One path is
// chosen for the whole process through BNG_ISA (bng/optimized/isa.hpp), set
// before the first kernel call; "all" runs this tool once per path the
// processor supports, each in a process of its own, as a user's program
// would run.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace bng::cert {

// Sets BNG_ISA=path for this process. Throws std::invalid_argument naming
// the supported paths when `path` is not one this processor can run.
void choose_isa(const std::string& path);

// The paths "all" stands for here, best first.
std::vector<std::string> every_isa_path();

// The hidden certify flag that marks a run as one path's part of `--isa all`.
inline constexpr const char* kPartOfIsaAll = "--part-of-isa-all";

// Runs `self` (this executable) with `args` plus `--isa <path> --out
// <out>/<path> --part-of-isa-all` for each path; returns, per path, the exit status (-1 when
// it did not exit normally).
std::vector<int> run_per_isa_path(const std::filesystem::path& self,
                                  const std::vector<std::string>& args,
                                  const std::filesystem::path& out);

// argv without the options a per-path run sets itself (--isa, --out/-o,
// with their values).
std::vector<std::string> without_isa_and_out(const std::vector<std::string>& argv);

}  // namespace bng::cert
