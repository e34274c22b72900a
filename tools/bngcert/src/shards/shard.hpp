// --shard K/N: a deterministic split of a run's cases across machines. Case
// j of the run's fixed case order (the campaign plan, or the pack's manifest)
// belongs to shard K when j mod N = K - 1: by index, never by timing, so every
// shard is independent, and round-robin, so each shard gets an even mix of
// kernels, families and sizes (the plan interleaves them).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace bng::cert {

struct Shard {
  int index = 1;  // K, 1-based as Slurm's array task ids
  int count = 1;  // N
  bool owns(std::uint64_t job) const {
    return job % static_cast<std::uint64_t>(count) == static_cast<std::uint64_t>(index - 1);
  }
  std::string label() const;  // "2/7"
};

inline constexpr int kMaxShards = 1 << 20;

// "K/N" with 1 <= K <= N <= kMaxShards, or nullopt.
std::optional<Shard> parse_shard(std::string_view text);

}  // namespace bng::cert
