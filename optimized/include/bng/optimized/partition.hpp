// How one call's work is cut into parts: from the shape (and the target's
// modelled properties) only, never from the core mask, so that the reduction
// order - hence every output bit - is the same whoever executes the parts.
// Public within the project: the kernels cut their work with it, and fault maps
// (tools/bngcert) ask it which part computed an output (schedule.hpp).
#pragma once

#include <cstdint>

#include "bng/optimized/targets.hpp"

namespace bng::opt {

// Rows summed in double per lane before a block total enters the compensated
// accumulator. docs/accuracy.md derives alpha from it: changing it changes alpha.
inline constexpr std::int64_t kBlockRows = 128;

// The modelled properties of a target that shape its partitioning
// (the target registry, bng/optimized/targets.inc).
struct TargetModel {
  int cores;                  // parts never exceed this
  int vector_lanes;           // binary32 lanes; wide rows and column boundaries are multiples of it
  std::int64_t local_memory;  // bytes per core; bounds the lanes of one column part
};
// A registry target's model: what <target>/compute.cpp gives its kernels.
constexpr TargetModel target_model(const TargetInfo& t) {
  return {t.cores, t.vector_lanes, t.local_memory};
}

// The data is viewed as `wide_rows` rows of `width` lanes: `fold` consecutive
// rows of `channel` lanes make one wide row (lane l is channel l % channel),
// so that narrow tensors still fill vectors and parts. The last wide row may
// be partial: only its first `last_lanes` lanes exist.
struct Partition {
  std::int64_t channel = 1;
  std::int64_t fold = 1;
  std::int64_t width = 1;       // fold * channel
  std::int64_t wide_rows = 1;   // ceil(batch / fold)
  std::int64_t last_lanes = 1;  // lanes of the last wide row (width if batch % fold == 0)
  // Parts form a grid: row_parts bands of whole blocks x col_parts lane ranges.
  int row_parts = 1;
  int col_parts = 1;
  std::int64_t lane_group = 16;  // column boundaries are multiples of this many lanes
  std::int64_t blocks = 1;       // ceil(wide_rows / kBlockRows)

  int parts() const { return row_parts * col_parts; }
  // Wide rows [begin, end) of row band r: whole blocks, the same for every mask.
  std::int64_t row_begin(int r) const { return blocks * r / row_parts * kBlockRows; }
  std::int64_t row_end(int r) const {
    const std::int64_t e = blocks * (r + 1) / row_parts * kBlockRows;
    return e < wide_rows ? e : wide_rows;
  }
  // Pass 2 (dx, element-wise) needs no fixed order: parts() equal ranges of
  // whole wide rows, every lane, so each part streams.
  std::int64_t apply_row(int i) const { return wide_rows * i / parts(); }
  // Lanes [begin, end) of column range k.
  std::int64_t lane_begin(int k) const;
  std::int64_t lane_end(int k) const { return k + 1 == col_parts ? width : lane_begin(k + 1); }
};

Partition make_partition(std::int64_t batch, std::int64_t channel, const TargetModel& target);

// The combination after pass 1 (per channel) runs on the caller alone below
// this many channels, and is spread over parts() parts from here on: part k
// combines channels [C*k/parts, C*(k+1)/parts). Which part computes an output
// only matters to fault maps (tools/bngcert): never to its bits.
inline constexpr std::int64_t kPooledCombineChannels = 512;

// Training reads x and dy twice. Where the batch is short enough that a
// column tile of x and dy (all rows) fits kTileBytes in runs of at least
// kMinTileRun bytes per row, the partition becomes one row band and column
// tiles, each part running pass 1, its channels' combination and pass 2 for
// its tile alone, so that pass 2 reads what pass 1 just brought into the cache
// instead of memory (on a DSP: one DMA of the tile into local memory, not two).
// Measured on the project machine (docs/performance.md): shorter runs per row
// defeat the hardware prefetchers and cost more than the second read saves,
// and below kMinTileData bytes of x and dy the second read comes from the
// last-level cache anyway, so tiles gain nothing there.
// Changes p and returns true, or leaves it and returns false. From the shape
// only, like make_partition; there are never fewer parts than without tiles,
// and parts() may exceed the cores (the pool hands tiles out).
inline constexpr std::int64_t kTileBytes = 1536 * 1024;  // 3/4 of a 2 MiB L2
inline constexpr std::int64_t kMinTileRun = 2048;
inline constexpr std::int64_t kMinTileData = 32 * 1024 * 1024;
bool tile_for_training(Partition& p, std::int64_t data_bytes);

}  // namespace bng::opt
