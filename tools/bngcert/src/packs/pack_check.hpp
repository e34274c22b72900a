// `bngcert check --pack`: one report and one certificate for a whole device
// run over an exported pack (pack.hpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>

#include "bng/reference/reference.hpp"
#include "progress.hpp"
#include "shard.hpp"

namespace bng::cert {

struct PackCheckOptions {
  std::filesystem::path pack;  // the pack directory or its pack.json
  std::filesystem::path out = "check";
  int jobs = 0;                                         // 0: one per core
  std::int64_t block_elements = std::int64_t{1} << 18;  // as CheckOptions
  Progress::Style progress = Progress::Style::automatic;
  ref::Path reference = ref::Path::tiered;  // --reference
  // --shard K/N: judge only the cases whose export index j has j mod N = K-1
  // and write a shard directory for `bngcert merge`. A pack exported with
  // --shard is such a shard already, and is checked as one.
  std::optional<Shard> shard;
  // --device-lib-<target>: the library file the board's harness ran with, per
  // target. Identified (SHA-256, build record, architecture), recorded in the
  // report and certificate as what produced the outputs; never loaded or run.
  std::map<std::string, std::filesystem::path> device_libraries;
};

// Exit status: 0 every case judged and passed, 1 a failed case or output,
// 2 the pack itself is unusable (no manifest, malformed manifest, no cases).
int run_pack_check(const PackCheckOptions& options);

}  // namespace bng::cert
