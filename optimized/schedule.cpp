#include "bng/optimized/schedule.hpp"

namespace bng::opt {
namespace {

// The last of parts [0, parts) whose range starts at or before x, for range
// starts that never decrease with the part index.
template <class Begin>
int part_starting_at_or_before(int parts, std::int64_t x, const Begin& begin) {
  int lo = 0, hi = parts - 1;  // begin(lo) <= x, as begin(0) is 0
  while (lo < hi) {
    const int mid = lo + (hi - lo + 1) / 2;
    if (begin(mid) <= x) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

int row_band_of(const Partition& p, std::int64_t wide_row) {
  return part_starting_at_or_before(p.row_parts, wide_row, [&](int r) { return p.row_begin(r); });
}
int column_range_of(const Partition& p, std::int64_t lane) {
  return part_starting_at_or_before(p.col_parts, lane, [&](int k) { return p.lane_begin(k); });
}

}  // namespace

Region Schedule::reduce_region(int part) const {
  if (whole_bands) {
    return {.row_begin = p.row_begin(part),
            .row_end = p.row_end(part),
            .lane_begin = 0,
            .lane_end = p.width};
  }
  const int r = part / p.col_parts, k = part % p.col_parts;
  return {.row_begin = p.row_begin(r),
          .row_end = p.row_end(r),
          .lane_begin = p.lane_begin(k),
          .lane_end = p.lane_end(k)};
}

std::int64_t Schedule::combine_begin(int k) const {
  if (tiled) return p.lane_begin(k);
  return p.channel * k / combine_parts;
}

Region Schedule::apply_region(int part) const {
  if (tiled) return reduce_region(part);
  return {.row_begin = p.apply_row(part),
          .row_end = p.apply_row(part + 1),
          .lane_begin = 0,
          .lane_end = p.width};
}

Schedule make_schedule(std::int64_t batch, std::int64_t channel, bool train,
                       std::int64_t data_bytes, const TargetModel& model, unsigned core_mask) {
  Schedule s;
  s.p = make_partition(batch, channel, model);
  s.train = train;
  s.tiled = train && tile_for_training(s.p, data_bytes);
  if (s.tiled) {
    // One row band, fold 1: a part's lanes are its channels, all rows.
    s.reduce_parts = s.combine_parts = s.p.parts();
    s.apply_parts = 0;
    return s;
  }
  s.whole_bands = s.p.row_parts % threads_of_mask(core_mask) == 0;
  s.reduce_parts = s.whole_bands ? s.p.row_parts : s.p.parts();
  // Channels combine independently: many of them are spread over the pool
  // too, rather than keep the other cores waiting (up to ~20 ns a channel
  // one at a time: tens of us for thousands of channels).
  s.combine_parts = channel >= kPooledCombineChannels ? s.p.parts() : 1;
  s.apply_parts = train ? s.p.parts() : 0;
  return s;
}

Placement place_dx(const Schedule& s, std::int64_t n, std::int64_t c) {
  const Partition& p = s.p;
  // Row n is fold slot n % fold of wide row n / fold.
  Placement at{.wide_row = n / p.fold, .lane = (n % p.fold) * p.channel + c};
  if (s.tiled) {
    at.parts = s.reduce_parts;
    at.part = column_range_of(p, at.lane);
  } else if (s.train) {
    at.parts = s.apply_parts;
    at.part = part_starting_at_or_before(s.apply_parts, at.wide_row,
                                         [&](int i) { return p.apply_row(i); });
  } else {
    // Inference writes dx in pass 1.
    at.parts = s.reduce_parts;
    const int band = row_band_of(p, at.wide_row);
    at.part = s.whole_bands ? band : band * p.col_parts + column_range_of(p, at.lane);
  }
  return at;
}

Placement place_channel(const Schedule& s, std::int64_t c) {
  Placement at{.wide_row = 0, .lane = c};
  at.parts = s.combine_parts;
  at.part =
      part_starting_at_or_before(s.combine_parts, c, [&](int k) { return s.combine_begin(k); });
  return at;
}

}  // namespace bng::opt
