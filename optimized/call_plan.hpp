// The first phase of a call, planning, decided from its arguments before any
// work: the schedule (who computes what), the per-thread scratch and its
// layout (pass 1's band arrays, the per-lane coefficients), and those
// coefficients prepared from the statistics. batchnorm_driver.hpp runs the
// other phases on what the plan gives.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bng/optimized/compute.hpp"
#include "bng/optimized/schedule.hpp"
#include "cache_aligned.hpp"
#include "lane_kernels.hpp"

namespace bng::opt::detail {

// Pass 1's per-lane results: per row band, six arrays of `width` doubles
// (in BandArray order, each starting on a cache line), band after band. The
// first four (the compensated sums) are always written; the magnitudes only
// when a call asks for them.
enum class BandArray : int { hi_b, lo_b, hi_s, lo_s, abs_b, abs_s };
struct BandLayout {
  static constexpr int kArrays = 6;
  static constexpr int kSumArrays = 4;
  double* data;
  std::int64_t array_length;  // cache_lines_length<double>(width)
  std::int64_t stride() const { return kArrays * array_length; }
  double* at(int band, BandArray k) const {
    return data + stride() * band + static_cast<int>(k) * array_length;
  }
};

// Per-thread scratch, grown and reused: O(width x parts + channel), never
// O(batch x channel). The arrays the hot loops read and write by whole
// vectors start on cache lines (cache_aligned.hpp).
struct Scratch {
  CacheAlignedVector<double> lanes;   // LaneArrays' binary64 arrays: mean, a, b, nc
  CacheAlignedVector<float> lanes32;  // binary16 data: a32 (and in training mean32, nb32,
                                      // nc32; in inference sum_mean32)
  CacheAlignedVector<double> bands;   // BandLayout
  std::vector<double> magnitudes;     // sum |dy| per channel, then sum |dy|*|x - mean| per channel
  std::vector<char> known;            // per channel: magnitudes computed
};
inline Scratch& call_scratch() {
  thread_local Scratch s;
  return s;
}
inline CacheAlignedVector<double>& block_scratch() {
  thread_local CacheAlignedVector<double> acc;
  return acc;
}

// What one call does, decided from its arguments before any work.
struct Plan {
  const Args* args;
  Schedule schedule;  // who computes what (bng/optimized/schedule.hpp)
  // An in-place call overwrites x or dy, so the magnitudes (needed only at the
  // overflow threshold) cannot be recomputed later: pass 1 sums them for every
  // lane. Any other call leaves them out of its hot loop.
  bool magnitudes;
  bool binary32_pass2;  // training on binary16 data: dx in binary32 (docs/accuracy.md §3.1)
  bool binary32_sums;   // inference on binary16 data: binary32 partial sums in pass 1 (§2.1)
  LaneArrays lanes;
  BandLayout bands;
  Scratch* scratch;
  // Training dx's error bound at the overflow threshold (DxBound).
  double (*dx_error_bound)(const void* ctx, std::int64_t lane, double dy, double d);
  const void* bound_ctx;
};

inline LaneSpan lane_span(const Plan& plan, const Region& g) {
  const Args& a = *plan.args;
  return {.x = a.x,
          .dy = a.dy,
          .dx = a.dx,
          .width = plan.schedule.p.width,
          .row_begin = g.row_begin,
          .row_end = g.row_end,
          .last_row = plan.schedule.p.wide_rows - 1,
          .last_lanes = plan.schedule.p.last_lanes,
          .lane_begin = g.lane_begin,
          .lane_end = g.lane_end,
          .lanes = plan.lanes,
          .dx_error_bound = plan.dx_error_bound,
          .bound_ctx = plan.bound_ctx};
}

// Plan: the partition from the shape, the scratch sized and its bands
// cleared, and the per-lane coefficients from the statistics (lanes [0, C),
// then copied to the other fold slots).
template <DataType T, class Stats>
Plan plan_call(const Args& a, const TargetModel& model, Scratch& sc) {
  const bool train = a.is_train != 0;
  const Schedule schedule =
      make_schedule(a.batch, a.channel, train, bytes_of(T), model, a.core_mask);
  const Partition& p = schedule.p;
  const std::int64_t W = p.width, C = a.channel;
  const bool magnitudes = a.dx == a.x || a.dx == a.dy;
  constexpr bool binary16_data = T == DataType::f16;
  const bool binary32_pass2 = train && binary16_data;
  const bool binary32_sums = !train && binary16_data;

  // Each array starts on a cache line: W64 doubles, W32 floats apart.
  const std::int64_t W64 = cache_lines_length<double>(W), W32 = cache_lines_length<float>(W);
  sc.lanes.resize(static_cast<std::size_t>(4 * W64));
  sc.lanes32.resize(static_cast<std::size_t>((binary32_pass2 ? 4 : binary16_data ? 2 : 0) * W32));
  double* const lanes = sc.lanes.data();
  float* const a32 = binary16_data ? sc.lanes32.data() : nullptr;
  const LaneArrays l{.mean = lanes,
                     .a = lanes + W64,
                     .b = lanes + 2 * W64,
                     .nc = lanes + 3 * W64,
                     .mean32 = binary32_pass2 ? a32 + W32 : nullptr,
                     .a32 = a32,
                     .nb32 = binary32_pass2 ? a32 + 2 * W32 : nullptr,
                     .nc32 = binary32_pass2 ? a32 + 3 * W32 : nullptr,
                     .sum_mean32 = binary32_sums ? a32 + W32 : nullptr};

  sc.bands.resize(static_cast<std::size_t>(BandLayout::kArrays * W64 * p.row_parts));
  const BandLayout bands{.data = sc.bands.data(), .array_length = W64};
  const int cleared = magnitudes ? BandLayout::kArrays : BandLayout::kSumArrays;
  for (int r = 0; r < p.row_parts; ++r) {
    double* const band = bands.at(r, BandArray::hi_b);
    std::fill(band, band + cleared * W64, 0.0);
  }
  sc.magnitudes.resize(static_cast<std::size_t>(2 * C));
  // With magnitudes, combine stores every channel's; else the guards compute
  // them on demand.
  sc.known.assign(static_cast<std::size_t>(C), magnitudes ? 1 : 0);

  prepare_lanes(Stats::type,
                {.mean_in = a.mean, .invar_in = a.invar, .scale_in = a.scale, .lanes = l}, C);
  for (std::int64_t k = C; k < W; k += C) {
    std::copy_n(l.mean, C, l.mean + k);
    std::copy_n(l.a, C, l.a + k);
    for (float* f : {l.a32, l.mean32, l.sum_mean32}) {
      if (f != nullptr) std::copy_n(f, C, f + k);
    }
  }
  return {.args = &a,
          .schedule = schedule,
          .magnitudes = magnitudes,
          .binary32_pass2 = binary32_pass2,
          .binary32_sums = binary32_sums,
          .lanes = l,
          .bands = bands,
          .scratch = &sc,
          .dx_error_bound = nullptr,
          .bound_ctx = nullptr};
}

}  // namespace bng::opt::detail
