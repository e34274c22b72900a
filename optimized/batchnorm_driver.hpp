// One call of the operator on validated arguments: decode the partition from
// the shape, run pass 1 (per-lane reductions) on the core pool, combine the
// parts per channel in a fixed order, write dbias/dscale, then run pass 2
// (training dx). docs/accuracy.md follows this code operation by operation.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <vector>

#include "binary32_coefficients.hpp"
#include "bng/optimized/compute.hpp"
#include "core_pool.hpp"
#include "lane_kernels.hpp"
#include "output_rounding.hpp"
#include "partition.hpp"
#include "scalar_elements.hpp"

namespace bng::opt {

// Statistics and parameter gradients: read and written once per channel.
// store: t with |t - y*| <= e (docs/accuracy.md §4).
template <DataType T>
struct StatsOf {
  static constexpr DataType type = T;
  using Lim = Limits<T>;
  static double load(const void* p, std::int64_t i) { return load1<T>(p, i); }
  static void store(void* p, std::int64_t i, double t, double e) {
    store1<T>(p, i, guard_overflow<Lim>(t, e));
  }
};
using StatsF32 = StatsOf<DataType::f32>;
using StatsF16 = StatsOf<DataType::f16>;

namespace detail {

// Per-thread scratch, grown and reused: O(width x parts + channel), never
// O(batch x channel).
struct Scratch {
  std::vector<double> lanes;       // mean, a, b, -c per lane
  std::vector<float> lanes32;      // binary16 data: a (and in training mean, -b, -c) in binary32
  std::vector<double> parts;       // per row band: hi_b, lo_b, hi_s, lo_s, abs_b, abs_s per lane
  std::vector<double> magnitudes;  // per channel: sum |dy|, sum |dy|*|x - mean|
  std::vector<char> known;         // per channel: magnitudes computed
};
inline Scratch& call_scratch() {
  thread_local Scratch s;
  return s;
}
inline std::vector<double>& block_scratch() {
  thread_local std::vector<double> acc;
  return acc;
}

// The magnitudes sum |dy| and sum |dy|*|x - mean| of channel c (the M of
// dbias and, over invar, of dscale), with exactly the operations and order of
// pass 1 with magnitudes (lane_kernels.hpp) and the combination after it:
// per row band and lane a running sum over the rows, then those in band and
// lane order. So an in-place call, which must sum them in pass 1 before its
// inputs are overwritten, and any other call, which computes them here only
// for the rare outputs at the overflow threshold, get the same bits.
template <DataType T>
void channel_magnitudes(const Args& a, const Partition& p, double mean, std::int64_t c,
                        double* sum_abs_dy, double* sum_abs_dy_d) {
  double mb = 0, ms = 0;
  for (int r = 0; r < p.row_parts; ++r) {
    for (std::int64_t l = c; l < p.width; l += p.channel) {
      double ab = 0, as = 0;
      for (std::int64_t row = p.row_begin(r); row < p.row_end(r); ++row) {
        if (row == p.wide_rows - 1 && l >= p.last_lanes) break;
        const double dy = load1<T>(a.dy, row * p.width + l);
        const double d = load1<T>(a.x, row * p.width + l) - mean;
        ab += std::fabs(dy);
        as = std::fma(std::fabs(dy), std::fabs(d), as);
      }
      mb += ab;
      ms += as;
    }
  }
  *sum_abs_dy = mb;
  *sum_abs_dy_d = ms;
}

// Training dx's error bound at the overflow threshold (docs/accuracy.md §4):
// K*|a|*|dy| + K*|a|*sum|dy|/m + |d|*K*(|a|*|iv|)*(|iv|*sum|dy*d|)/m for
// lane l's channel, its magnitudes computed on first use. Called from any
// worker (rarely): one lock guards the per-channel cache.
template <DataType T, class Stats>
struct DxBound {
  const Args* args;
  const Partition* partition;
  const double* lane_mean;
  const double* lane_a;
  Scratch* scratch;
  std::mutex mutex;

  static double bound(const void* ctx, std::int64_t lane, double dy, double d) {
    auto* self = static_cast<DxBound*>(const_cast<void*>(ctx));
    const std::lock_guard<std::mutex> lock(self->mutex);
    const Args& a = *self->args;
    const auto c = lane % a.channel;
    double* const mag = self->scratch->magnitudes.data() + 2 * c;
    if (!self->scratch->known[static_cast<std::size_t>(c)]) {
      channel_magnitudes<T>(a, *self->partition, self->lane_mean[lane], c, mag, mag + 1);
      self->scratch->known[static_cast<std::size_t>(c)] = 1;
    }
    const double m = static_cast<double>(a.batch);
    const double aa = std::fabs(self->lane_a[lane]);
    const double aiv = std::fabs(Stats::load(a.invar, c));
    const double ka = kErrorPerMagnitude * aa;
    return ka * std::fabs(dy) + ka * mag[0] / m +
           std::fabs(d) * (kErrorPerMagnitude * (aa * aiv) * (aiv * mag[1]) / m);
  }
};

}  // namespace detail

inline constexpr std::int64_t kPooledCombineChannels = 512;

template <DataType T, class Stats>
void run_batchnorm(const Args& a, const TargetModel& model) {
  Partition p = make_partition(a.batch, a.channel, model);
  const bool train = a.is_train != 0;
  constexpr std::int64_t kDataBytes = T == DataType::f32 ? 4 : 2;
  const bool tiled = train && tile_for_training(p, kDataBytes);
  const std::int64_t W = p.width, C = a.channel;
  const auto m = static_cast<double>(a.batch);
  // An in-place call overwrites x or dy, so the magnitudes (needed only at the
  // overflow threshold) cannot be recomputed later: pass 1 sums them for every
  // lane. Any other call leaves them out of its hot loop.
  const bool magnitudes = a.dx == a.x || a.dx == a.dy;
  detail::Scratch& sc = detail::call_scratch();
  sc.lanes.resize(static_cast<std::size_t>(4 * W));
  sc.parts.resize(static_cast<std::size_t>(6 * W * p.row_parts));
  for (int r = 0; r < p.row_parts; ++r) {
    double* const band = sc.parts.data() + 6 * W * r;
    std::fill(band, band + (magnitudes ? 6 : 4) * W, 0.0);
  }
  sc.magnitudes.resize(static_cast<std::size_t>(2 * C));
  sc.known.assign(static_cast<std::size_t>(C), 0);
  double* const mean = sc.lanes.data();
  double* const ca = mean + W;
  double* const cb = ca + W;
  double* const cc = cb + W;
  // Binary16 data: dx in binary32 (docs/accuracy.md §3.1).
  constexpr bool binary32_dx = T == DataType::f16;
  const bool binary32_pass2 = train && binary32_dx;
  // Inference on binary16 data: binary32 partial sums in pass 1 (§2.1).
  const bool binary32_sums = !train && binary32_dx;
  sc.lanes32.resize(static_cast<std::size_t>((binary32_pass2 ? 4 : binary32_dx ? 2 : 0) * W));
  float* const a32 = binary32_dx ? sc.lanes32.data() : nullptr;
  float* const mean32 = binary32_pass2 ? a32 + W : nullptr;
  float* const nb32 = binary32_pass2 ? mean32 + W : nullptr;
  float* const nc32 = binary32_pass2 ? nb32 + W : nullptr;
  float* const sum_mean32 = binary32_sums ? a32 + W : nullptr;
  // Lanes [0, C) from the statistics, then copied to the other fold slots.
  prepare_lanes(Stats::type,
                LaneCoefficients{a.mean, a.invar, a.scale, mean, ca, mean32, a32, sum_mean32}, C);
  for (std::int64_t l = C; l < W; l += C) {
    std::copy_n(mean, C, mean + l);
    std::copy_n(ca, C, ca + l);
    for (float* lanes : {a32, mean32, sum_mean32}) {
      if (lanes != nullptr) std::copy_n(lanes, C, lanes + l);
    }
  }
  detail::DxBound<T, Stats> dx_bound{&a, &p, mean, ca, &sc, {}};
  const auto span = [&](int part) {
    const int r = part / p.col_parts, k = part % p.col_parts;
    return LaneSpan{a.x,
                    a.dy,
                    a.dx,
                    W,
                    p.row_begin(r),
                    p.row_end(r),
                    p.wide_rows - 1,
                    p.last_lanes,
                    p.lane_begin(k),
                    p.lane_end(k),
                    mean,
                    ca,
                    cb,
                    cc,
                    mean32,
                    a32,
                    nb32,
                    nc32,
                    sum_mean32,
                    &detail::DxBound<T, Stats>::bound,
                    &dx_bound};
  };

  const auto reduce = [&](int part) {
    const LaneSpan s = span(part);
    double* const band = sc.parts.data() + 6 * W * (part / p.col_parts);
    std::vector<double>& acc = detail::block_scratch();
    acc.resize(static_cast<std::size_t>(2 * (s.lane_end - s.lane_begin)));
    reduce_span(T, s,
                ReduceOut{acc.data(), acc.data() + (s.lane_end - s.lane_begin), band, band + W,
                          band + 2 * W, band + 3 * W, band + 4 * W, band + 5 * W},
                !train, magnitudes);
  };

  // Per channel, in a fixed order (row band, then fold slot): the parts'
  // (hi, lo) pairs into one compensated sum, and with magnitudes their
  // magnitude sums into plain sums (the M bounds of docs/accuracy.md §4).
  const double sums_error = binary32_sums ? kErrorPerMagnitudeBinary32Sums : kErrorPerMagnitude;
  const auto combine = [&](std::int64_t c) {
    double hb = 0, lb = 0, hs = 0, ls = 0, mb = 0, ms = 0;
    for (int r = 0; r < p.row_parts; ++r) {
      const double* band = sc.parts.data() + 6 * W * r;
      for (std::int64_t l = c; l < W; l += C) {
        if (magnitudes) {
          mb += band[4 * W + l];
          ms += band[5 * W + l];
        }
        two_sum_into(hb, lb, band[l]);
        lb += band[W + l];
        two_sum_into(hs, ls, band[2 * W + l]);
        ls += band[3 * W + l];
      }
    }
    // The pass summed dy*(x - mean); invar enters once per channel.
    const double iv = Stats::load(a.invar, c);
    const double db = hb + lb, ds = (hs + ls) * iv;
    using Lim = typename Stats::Lim;
    bool known = magnitudes;
    if (!known && (std::fabs(db) >= Lim::overflow || std::fabs(ds) >= Lim::overflow)) {
      // Only here does the guard read them: recompute them from the intact inputs.
      detail::channel_magnitudes<T>(a, p, mean[c], c, &mb, &ms);
      known = true;
    }
    if (known) {  // pass 2's guard (DxBound) reuses them
      sc.magnitudes[static_cast<std::size_t>(2 * c)] = mb;
      sc.magnitudes[static_cast<std::size_t>(2 * c + 1)] = ms;
      sc.known[static_cast<std::size_t>(c)] = 1;
    }
    // Below the threshold Stats::store ignores the bound, so mb = ms = 0 do no harm there.
    Stats::store(a.dbias, c, db, sums_error * mb);
    Stats::store(a.dscale, c, ds, sums_error * (std::fabs(iv) * ms));
    if (train) {
      const double b = ca[c] * db / m, k = ca[c] * iv * ds / m;
      for (std::int64_t l = c; l < W; l += C) {
        cb[l] = b;
        cc[l] = -k;
        if (binary32_pass2) {
          nb32[l] = narrow_coefficient(-b);
          nc32[l] = narrow_coefficient(-k);
        }
      }
    }
  };

  // Channels [begin, end): a vector at a time where combine_channels can
  // (fold 1, no magnitudes: lane = channel), else one by one; the same
  // operations either way.
  const bool vector_combine = p.fold == 1 && !magnitudes;
  const CombineSpan cs{sc.parts.data(),
                       sc.parts.data() + W,
                       sc.parts.data() + 2 * W,
                       sc.parts.data() + 3 * W,
                       p.row_parts,
                       6 * W,
                       ca,
                       a.invar,
                       a.dbias,
                       a.dscale,
                       cb,
                       cc,
                       nb32,
                       nc32,
                       m,
                       train};
  const auto combine_range = [&](std::int64_t begin, std::int64_t end) {
    std::int64_t c = begin;
    while (c < end) {
      if (vector_combine) c = combine_channels(Stats::type, cs, c, end);
      // A channel combine_channels left (in a vector at the overflow threshold,
      // or in the tail): one by one until the vector path can go on.
      if (c < end) combine(c++);
    }
  };

  if (tiled) {
    // One row band, fold 1: a part's lanes are its channels, all rows.
    pool::run_parts(a.core_mask, p.parts(), [&](int part) {
      reduce(part);
      const LaneSpan s = span(part);
      combine_range(s.lane_begin, s.lane_end);
      apply_span(T, s);
    });
  } else {
    pool::run_parts(a.core_mask, p.parts(), reduce);
    // Channels combine independently: many of them are spread over the pool
    // too, rather than keep the other cores waiting (up to ~20 ns a channel
    // one at a time: tens of us for thousands of channels).
    const int combine_parts = C >= kPooledCombineChannels ? p.parts() : 1;
    pool::run_parts(a.core_mask, combine_parts, [&](int k) {
      combine_range(C * k / combine_parts, C * (k + 1) / combine_parts);
    });
    if (train) {
      pool::run_parts(a.core_mask, p.parts(), [&](int part) {
        LaneSpan s = span(0);
        // Last rows first (see apply_span): part 0 takes the last range.
        s.row_begin = p.apply_row(p.parts() - 1 - part);
        s.row_end = p.apply_row(p.parts() - part);
        s.lane_begin = 0;
        s.lane_end = W;
        apply_span(T, s);
      });
    }
  }
}

}  // namespace bng::opt
