// Judging one call held as its eight arrays — the .npy files of `check --dir`,
// or numpy arrays handed to the Python judge — at the kernel's declared α (or
// an investigator's --alpha, which is then not a release verdict), and the
// report's run record of it. Both faces share this, so they agree by
// construction.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "dump_judge.hpp"
#include "progress.hpp"
#include "tally.hpp"

namespace bng::cert {

struct ArrayCheckOptions {
  std::optional<double> alpha;  // nullopt: the kernel's declared α
  std::int64_t block_elements = 1 << 22;
  int jobs = 0;               // 0: every core
  bool keep_failing = false;  // OutputTally::failing (the Python judge)
  Progress* progress = nullptr;
  ref::Path reference = ref::Path::tiered;
};

struct ArrayCheck {
  KernelTally tally;
  double declared_alpha = 0;
  std::int64_t blocks = 0;
  ref::Path reference = ref::Path::tiered;
  int jobs = 1;
  std::string started_utc;
  std::chrono::steady_clock::time_point start;
};

// Judges the arrays `a` (checked for dtype and shape) as the call `s` of
// target `t`'s kernel. Throws InputError for an α that is not a finite
// non-negative number or a combo the target has no kernel for, std::bad_alloc
// when a block does not fit (the caller says what to make smaller).
ArrayCheck judge_arrays(const DumpArrays& a, prop::Target t, const DumpShape& s,
                        const ArrayCheckOptions& o);

// The report's "run" of such a check; `input_dir` says where the arrays came from.
nlohmann::json array_check_run(const ArrayCheck& check, const DumpArrays& a, const DumpShape& s,
                               const std::string& input_dir, bool alpha_given);

// The jobs a check runs on: `jobs`, or every core for 0.
int check_jobs(int jobs);

}  // namespace bng::cert
