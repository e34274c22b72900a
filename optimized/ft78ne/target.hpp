// FT78NE as this library models it (docs/targets.md). These are modelled
// assumptions, not measured facts: the host build runs on x86-64 and uses them
// to shape its partitioning the way the device code would.
#pragma once

#include "../partition.hpp"

namespace bng::opt::ft78ne {

// 8 cores; 512-bit vector unit (16 binary32 lanes); fp32 arithmetic only
// (no binary16 arithmetic, no fp64 unit modelled: the host's double stands in
// for the device's extended accumulation); 768 KiB of core-local memory (AM).
inline constexpr TargetModel kModel{8, 16, 768 * 1024};

}  // namespace bng::opt::ft78ne
