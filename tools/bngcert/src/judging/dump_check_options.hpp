// The options of `bngcert check --dir` (a board's dump judged against the
// reference): read by judging/ (dump_params) and certificates/check.cpp.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "bng/reference/reference.hpp"
#include "progress.hpp"

namespace bng::cert {

inline constexpr std::int64_t kDefaultBlockElements = std::int64_t{1} << 18;

struct CheckOptions {
  std::filesystem::path dir;                    // x.npy, dy.npy, ... (docs/report-format.md)
  std::optional<std::filesystem::path> params;  // default: dir/params.json when present
  std::optional<std::int64_t> batch, channel;
  std::optional<int> is_train;
  std::optional<std::string> target;
  std::optional<double> alpha;
  std::filesystem::path out = "check";
  // Reference memory bound: elements judged per block of channels. 2^18 keeps a
  // block's reference (~80 bytes an element) near 20 MB, inside malloc's reused
  // heap rather than fresh page-faulted maps (2^21 spent ~20 % more time, in the
  // kernel), and gives enough blocks to spread over every core.
  std::int64_t block_elements = kDefaultBlockElements;
  int jobs = 0;  // threads judging blocks of channels; 0: one per core
  Progress::Style progress = Progress::Style::automatic;
  ref::Path reference = ref::Path::tiered;  // --reference
};

}  // namespace bng::cert
