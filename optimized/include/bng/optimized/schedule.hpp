// Who computes what in one call: the parts of each phase (reduce, combine,
// apply; optimized/batchnorm_driver.hpp runs them on the core pool) and the
// region each part covers, and the inverse lookup from an output element to the
// part that wrote it. The driver runs exactly these regions and fault maps
// (tools/bngcert) name parts with the same code, so the two cannot disagree.
// Unlike the partition, the schedule depends on the core mask - but only in
// which parts exist, never in any output bit (a lane's sums do not depend on
// how its row band is handed out).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "bng/optimized/partition.hpp"

namespace bng::opt {

// The core pool serves the SPEC's 8 cores (core_mask bits 0..7); other bits
// are ignored (the entry points have refused them already).
inline constexpr int kPoolCores = 8;
// How many threads run a phase of many parts for `core_mask`: its served
// bits, at least the caller (mask 0 and _p: the caller alone).
constexpr int threads_of_mask(unsigned core_mask) {
  return std::max(std::popcount(core_mask & ((1u << kPoolCores) - 1)), 1);
}

// A rectangle of the partition's grid: wide rows x lanes.
struct Region {
  std::int64_t row_begin, row_end;
  std::int64_t lane_begin, lane_end;
};

struct Schedule {
  Partition p;
  bool train = true;
  // Training tiles (tile_for_training): part k runs reduce, combine and apply
  // for column range k alone, as one phase.
  bool tiled = false;
  // Reduce hands out whole row bands (part r = band r) rather than the grid's
  // row band x column range parts. Column ranges only balance the load between
  // threads: where the threads share the bands evenly, each streams whole rows
  // instead of 1-2 KiB pieces of them.
  bool whole_bands = false;
  int reduce_parts = 1;
  int combine_parts = 1;  // tiled: the tiles (in reduce's phase)
  int apply_parts = 0;    // 0: inference (dx in reduce), or tiled (in reduce's phase)

  // Pass 1's part: its region and the row band whose sums it adds to.
  Region reduce_region(int part) const;
  int reduce_band(int part) const { return whole_bands ? part : part / p.col_parts; }
  // The channels [begin, end) combine part k adds up (tiled: the tile's lanes,
  // fold 1; else equal ranges).
  std::int64_t combine_begin(int k) const;
  std::int64_t combine_end(int k) const { return combine_begin(k + 1); }
  // Pass 2's part (training dx): a tile, or whole wide rows, every lane, the
  // part-th range from the first row. Parts are numbered in row order in both
  // passes, so the core that runs part i of both reads in pass 2 rows it read
  // in pass 1.
  Region apply_region(int part) const;
};

// The schedule of a call of shape batch x channel on `model`, whose data
// elements are `data_bytes` wide, run on `core_mask`.
Schedule make_schedule(std::int64_t batch, std::int64_t channel, bool train,
                       std::int64_t data_bytes, const TargetModel& model, unsigned core_mask);

// Where one output sits and which part wrote it.
struct Placement {
  std::int64_t wide_row = 0;  // dx: the wide row of the partition's view (0 for dbias, dscale)
  std::int64_t lane = 0;      // its lane in the wide row (dbias, dscale: the channel)
  int part = 0;               // the part of the phase that wrote it
  int parts = 1;              // that phase's parts
};
// dx[n][c]: training, the apply part (or tile); inference, the reduce part.
Placement place_dx(const Schedule& s, std::int64_t n, std::int64_t c);
// dbias[c] and dscale[c]: the combine part.
Placement place_channel(const Schedule& s, std::int64_t c);

}  // namespace bng::opt
