// One call of the operator on validated arguments, in four named phases:
// plan (call_plan.hpp: the schedule from the shape, the scratch layout, the
// per-lane coefficients), reduce (pass 1, per-lane sums, on the core pool), combine
// (the parts per channel in a fixed order: dbias, dscale and pass 2's
// coefficients) and apply (pass 2, training dx). docs/accuracy.md follows
// this code operation by operation.
#pragma once

#include <cmath>
#include <cstdint>
#include <mutex>

#include "binary32_coefficients.hpp"
#include "bng/optimized/compute.hpp"
#include "bng/optimized/schedule.hpp"
#include "cache_aligned.hpp"
#include "call_plan.hpp"
#include "core_pool.hpp"
#include "lane_kernels.hpp"
#include "output_rounding.hpp"
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

// The magnitudes sum |dy| and sum |dy|*|x - mean| of channel c (the M of
// dbias and, over invar, of dscale), by pass 1's own code: each of the
// channel's lanes, as the one lane of a span of its row band, through
// reduce_span with magnitudes (its sums are dropped), then those running sums
// in band and lane order as combine_channels adds them. So an in-place call,
// which must sum them in pass 1 before its inputs are overwritten, and any
// other call, which computes them here only for the rare outputs at the
// overflow threshold, get the same bits.
template <DataType T, class Stats>
void channel_magnitudes(const Args& a, const Partition& p, double mean, std::int64_t c,
                        double* sum_abs_dy, double* sum_abs_dy_d) {
  double mb = 0, ms = 0;
  for (int r = 0; r < p.row_parts; ++r) {
    for (std::int64_t l = c; l < p.width; l += p.channel) {
      // Lane l becomes lane 0: its elements from x + l and dy + l, row stride
      // unchanged; it has the last wide row if l < last_lanes.
      const auto offset = l * bytes_of(T);
      const LaneSpan lane{.x = static_cast<const char*>(a.x) + offset,
                          .dy = static_cast<const char*>(a.dy) + offset,
                          .dx = nullptr,
                          .width = p.width,
                          .row_begin = p.row_begin(r),
                          .row_end = p.row_end(r),
                          .last_row = p.wide_rows - 1,
                          .last_lanes = l < p.last_lanes ? 1 : 0,
                          .lane_begin = 0,
                          .lane_end = 1,
                          .lanes = {.mean = &mean},
                          .dx_error_bound = nullptr,
                          .bound_ctx = nullptr};
      double sums[6] = {}, ab = 0, as = 0;
      reduce_span(T, Stats::type, lane,
                  {.acc_b = sums,
                   .acc_s = sums + 1,
                   .hi_b = sums + 2,
                   .lo_b = sums + 3,
                   .hi_s = sums + 4,
                   .lo_s = sums + 5,
                   .abs_b = &ab,
                   .abs_s = &as},
                  /*write_dx=*/false, /*magnitudes=*/true);
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
  const Plan* plan;
  std::mutex mutex;

  static double bound(const void* ctx, std::int64_t lane, double dy, double d) {
    auto* self = static_cast<DxBound*>(const_cast<void*>(ctx));
    const std::lock_guard<std::mutex> lock(self->mutex);
    const Plan& plan = *self->plan;
    const Args& a = *plan.args;
    const auto c = lane % a.channel;
    double* const mb = plan.scratch->magnitudes.data() + c;
    double* const ms = mb + a.channel;
    if (!plan.scratch->known[static_cast<std::size_t>(c)]) {
      channel_magnitudes<T, Stats>(a, plan.schedule.p, plan.lanes.mean[lane], c, mb, ms);
      plan.scratch->known[static_cast<std::size_t>(c)] = 1;
    }
    const double m = static_cast<double>(a.batch);
    const double aa = std::fabs(plan.lanes.a[lane]);
    const double aiv = std::fabs(Stats::load(a.invar, c));
    const double ka = kErrorPerMagnitude * aa;
    return ka * std::fabs(dy) + ka * *mb / m +
           std::fabs(d) * (kErrorPerMagnitude * (aa * aiv) * (aiv * *ms) / m);
  }
};

// Reduce: pass 1 over one part's region into its row band's arrays (and, for
// inference, dx).
struct ReduceStep {
  const Plan* plan;
  Region region;
  int band;
};
template <DataType T, class Stats>
void reduce(const ReduceStep& s) {
  const Plan& plan = *s.plan;
  const BandLayout& b = plan.bands;
  const std::int64_t lanes = s.region.lane_end - s.region.lane_begin;
  CacheAlignedVector<double>& acc = block_scratch();
  const std::int64_t acc_length = cache_lines_length<double>(lanes);
  acc.resize(static_cast<std::size_t>(2 * acc_length));
  reduce_span(T, Stats::type, lane_span(plan, s.region),
              {.acc_b = acc.data(),
               .acc_s = acc.data() + acc_length,
               .hi_b = b.at(s.band, BandArray::hi_b),
               .lo_b = b.at(s.band, BandArray::lo_b),
               .hi_s = b.at(s.band, BandArray::hi_s),
               .lo_s = b.at(s.band, BandArray::lo_s),
               .abs_b = b.at(s.band, BandArray::abs_b),
               .abs_s = b.at(s.band, BandArray::abs_s)},
              /*write_dx=*/!plan.schedule.train, plan.magnitudes);
}

// Combine's rare guard (CombineSpan::store_guarded): channel c's dbias and
// dscale at the overflow threshold, stored with their run-time error bounds
// (docs/accuracy.md §4). Without magnitudes from pass 1 they are recomputed
// here from the intact inputs, only for such a channel, and kept for pass 2's
// guard (DxBound).
template <DataType T, class Stats>
void store_sums_guarded(const void* ctx, std::int64_t c, double db, double ds, double mb,
                        double ms) {
  const Plan& plan = *static_cast<const Plan*>(ctx);
  const Args& a = *plan.args;
  using Lim = typename Stats::Lim;
  if (!plan.magnitudes && (std::fabs(db) >= Lim::overflow || std::fabs(ds) >= Lim::overflow)) {
    channel_magnitudes<T, Stats>(a, plan.schedule.p, plan.lanes.mean[c], c, &mb, &ms);
    Scratch& sc = *plan.scratch;
    sc.magnitudes[static_cast<std::size_t>(c)] = mb;
    sc.magnitudes[static_cast<std::size_t>(a.channel + c)] = ms;
    sc.known[static_cast<std::size_t>(c)] = 1;
  }
  // Below the threshold Stats::store ignores the bound, so mb = ms = 0 do no harm there.
  const double sums_error =
      plan.binary32_sums ? kErrorPerMagnitudeBinary32Sums : kErrorPerMagnitude;
  const double iv = Stats::load(a.invar, c);
  Stats::store(a.dbias, c, db, sums_error * mb);
  Stats::store(a.dscale, c, ds, sums_error * (std::fabs(iv) * ms));
}

// Combine: channels [begin, end) (lane_kernels.hpp combine_channels).
struct CombineStep {
  const Plan* plan;
  std::int64_t begin, end;
};
template <DataType T, class Stats>
void combine(const CombineStep& s) {
  const Plan& plan = *s.plan;
  const Args& a = *plan.args;
  const BandLayout& b = plan.bands;
  double* const magnitudes = plan.scratch->magnitudes.data();
  combine_channels(Stats::type,
                   {.hi_b = b.at(0, BandArray::hi_b),
                    .lo_b = b.at(0, BandArray::lo_b),
                    .hi_s = b.at(0, BandArray::hi_s),
                    .lo_s = b.at(0, BandArray::lo_s),
                    .abs_b = plan.magnitudes ? b.at(0, BandArray::abs_b) : nullptr,
                    .abs_s = plan.magnitudes ? b.at(0, BandArray::abs_s) : nullptr,
                    .bands = plan.schedule.p.row_parts,
                    .band_stride = b.stride(),
                    .channel = a.channel,
                    .width = plan.schedule.p.width,
                    .lanes = plan.lanes,
                    .invar = a.invar,
                    .dbias = a.dbias,
                    .dscale = a.dscale,
                    .sum_abs_dy = magnitudes,
                    .sum_abs_dy_d = magnitudes + a.channel,
                    .m = static_cast<double>(a.batch),
                    .train = plan.schedule.train,
                    .store_guarded = &store_sums_guarded<T, Stats>,
                    .guard_ctx = &plan},
                   s.begin, s.end);
}

// Apply: pass 2 (training dx) over one region.
struct ApplyStep {
  const Plan* plan;
  Region region;
};
template <DataType T>
void apply(const ApplyStep& s) {
  apply_span(T, lane_span(*s.plan, s.region));
}

}  // namespace detail

template <DataType T, class Stats>
void run_batchnorm(const Args& a, const TargetModel& model) {
  using namespace detail;
  Plan plan = plan_call<T, Stats>(a, model, call_scratch());
  DxBound<T, Stats> dx_bound{.plan = &plan, .mutex = {}};
  plan.dx_error_bound = &DxBound<T, Stats>::bound;
  plan.bound_ctx = &dx_bound;
  const Schedule& s = plan.schedule;
  // Each phase runs the parts the schedule names, on the regions it gives them.
  const auto reduce_part = [&](int part) {
    reduce<T, Stats>({.plan = &plan, .region = s.reduce_region(part), .band = s.reduce_band(part)});
  };
  const auto combine_part = [&](int k) {
    combine<T, Stats>({.plan = &plan, .begin = s.combine_begin(k), .end = s.combine_end(k)});
  };
  const auto apply_part = [&](int part) {
    apply<T>({.plan = &plan, .region = s.apply_region(part)});
  };
  if (s.tiled) {
    // A tile's reduce, combine and apply follow one another on one core.
    pool::run_parts(a.core_mask, s.reduce_parts, [&](int part) {
      reduce_part(part);
      combine_part(part);
      apply_part(part);
    });
  } else {
    // One hand-out to the pool, phases apart by barriers.
    pool::run(a.core_mask,
              {pool::phase(s.reduce_parts, reduce_part), pool::phase(s.combine_parts, combine_part),
               pool::phase(s.apply_parts, apply_part)});
  }
}

}  // namespace bng::opt
