// Judging one call's files (inputs and a device's outputs as .npy) against the
// exact reference, a block of channels at a time: SPEC §4's channel isolation
// makes the blocks independent, so the reference's working set stays bounded
// however large the call, and blocks can run on several threads. Shared by
// `check --dir` (one dump) and `check --pack` (every case of a pack).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "bng/reference/reference.hpp"
#include "npy.hpp"
#include "progress.hpp"
#include "tally.hpp"

namespace bng::cert {

// The eight arrays by name ("x", ..., "dscale"), already checked for dtype and shape.
using DumpArrays = std::map<std::string, npy::Array>;

struct DumpShape {
  Combo combo = Combo::fp;
  std::int64_t batch = 1, channel = 1;
  int is_train = 1;
};

// Channels per block so that a block holds about `block_elements` elements.
std::int64_t block_width(const DumpShape& s, std::int64_t block_elements);

// Judges every output into `t` (whose kernel gives α). Blocks are judged on
// up to `jobs` threads; the result does not depend on `jobs` (block b has
// order `order_base + b`). `progress`, if given, advances once per block.
void judge_dump(const DumpArrays& a, const DumpShape& s, const Origin& origin,
                std::uint64_t order_base, std::int64_t block_elements, int jobs,
                ref::Path reference, KernelTally& t, Progress* progress);

}  // namespace bng::cert
