// MT7004 as this library models it (docs/targets.md). These are modelled
// assumptions, not measured facts: the host build runs on x86-64 and uses them
// to shape its partitioning the way the device code would.
#pragma once

#include "../partition.hpp"

namespace bng::opt::mt7004 {

// 8 cores; 1024-bit vector unit (32 binary32 or 64 binary16 lanes); fp32 and
// fp16 arithmetic with fp32 accumulation; 512 KiB of core-local memory.
inline constexpr TargetModel kModel{8, 32, 512 * 1024};

}  // namespace bng::opt::mt7004
