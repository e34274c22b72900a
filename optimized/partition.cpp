#include "bng/optimized/partition.hpp"

#include <algorithm>
#include <numeric>

namespace bng::opt {
namespace {

// Below this many elements per part a part costs more to hand out than to run:
// tiny calls (4 x 64) stay entirely on the caller.
constexpr std::int64_t kMinPartElements = 16384;
// Wide rows aim at this many lanes, so that vectors are full and short rows
// do not dominate.
constexpr std::int64_t kMinWidth = 256;

}  // namespace

std::int64_t Partition::lane_begin(int k) const {
  // Equal shares rounded to whole vectors of the modelled target, so a column
  // boundary never splits a vector.
  const std::int64_t groups = (width + lane_group - 1) / lane_group;
  return std::min(width, groups * k / col_parts * lane_group);
}

Partition make_partition(std::int64_t batch, std::int64_t channel, const TargetModel& target) {
  Partition p;
  p.channel = channel;
  p.lane_group = target.vector_lanes;
  if (channel < kMinWidth) {
    // fold * channel a multiple of the vector length and at least kMinWidth.
    const std::int64_t step = p.lane_group / std::gcd<std::int64_t>(channel, p.lane_group);
    p.fold = step * ((kMinWidth + step * channel - 1) / (step * channel));
  }
  // No more fold slots than blocks of rows: a short batch (4 x 64) would
  // otherwise pay for combining and clearing many mostly idle lanes.
  p.fold = std::min(p.fold, (batch + kBlockRows - 1) / kBlockRows);
  p.width = p.fold * channel;
  p.wide_rows = (batch + p.fold - 1) / p.fold;
  p.last_lanes = (batch - (p.wide_rows - 1) * p.fold) * channel;
  p.blocks = (p.wide_rows + kBlockRows - 1) / kBlockRows;

  const std::int64_t elements = batch * channel;
  const std::int64_t max_parts =
      std::clamp<std::int64_t>(elements / kMinPartElements, 1, target.cores);
  // Row bands first: each part then streams through whole rows (a column range
  // reads short pieces of every row, which defeats the prefetchers). Column
  // ranges only where there are too few blocks of rows, or where a band's
  // per-lane accumulators (6 doubles a lane) would overflow a quarter of the
  // modelled local memory.
  const std::int64_t rows = std::min(max_parts, p.blocks);
  std::int64_t cols =
      std::clamp<std::int64_t>(max_parts / rows, 1, std::max<std::int64_t>(p.width / kMinWidth, 1));
  const std::int64_t lanes_fit =
      target.local_memory / 4 / static_cast<std::int64_t>(6 * sizeof(double));
  while ((cols + 1) * rows <= target.cores && (p.width + cols - 1) / cols > lanes_fit) ++cols;
  p.row_parts = static_cast<int>(rows);
  p.col_parts = static_cast<int>(cols);
  return p;
}

bool tile_for_training(Partition& p, std::int64_t data_bytes) {
  // Folded lanes of one channel lie across the whole width: no column tiles.
  if (p.fold != 1) return false;
  // No overflow: the validated byte sizes fit ptrdiff_t.
  if (p.wide_rows * p.width * data_bytes < kMinTileData / 2) return false;
  std::int64_t lanes = kTileBytes / (p.wide_rows * 2 * data_bytes);
  lanes = std::min(lanes, p.width / p.parts()) / p.lane_group * p.lane_group;
  if (lanes * data_bytes < kMinTileRun || (p.width + lanes - 1) / lanes > (1 << 24)) return false;
  p.row_parts = 1;
  p.col_parts = static_cast<int>((p.width + lanes - 1) / lanes);
  return true;
}

}  // namespace bng::opt
