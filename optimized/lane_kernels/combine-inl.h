// Per instruction set (Highway -inl.h): the combination after pass 1, per
// channel in a fixed order (lane_kernels.hpp, CombineSpan): every row band's
// and fold slot's (hi, lo) pairs added by TwoSum, dbias and dscale stored in
// the statistics type (the driver's guard where they reach the overflow
// threshold), and for training pass 2's coefficients b and nc into every fold
// slot's lane.
#if defined(BNG_OPTIMIZED_COMBINE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_COMBINE_INL_H_
#undef BNG_OPTIMIZED_COMBINE_INL_H_
#else
#define BNG_OPTIMIZED_COMBINE_INL_H_
#endif

#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/coefficients-inl.h"
#include "lane_kernels/lanes-inl.h"
#include "lane_kernels/store-inl.h"
#include "scalar_elements.hpp"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// The combination's arithmetic, the one place it is written: channels
// [c, c + Lanes(d)) (CombineSpan).
template <DataType S, class D>
HWY_INLINE void combine_lanes(D d, const CombineSpan& s, std::int64_t c) {
  using V = hn::Vec<D>;
  const V zero = hn::Zero(d);
  V hb = zero, lb = zero, hs = zero, ls = zero, mb = zero, ms = zero;
  for (int r = 0; r < s.bands; ++r) {
    for (std::int64_t l = c; l < s.width; l += s.channel) {
      const std::int64_t o = r * s.band_stride + l;
      if (s.abs_b != nullptr) {
        mb = hn::Add(mb, hn::LoadU(d, s.abs_b + o));
        ms = hn::Add(ms, hn::LoadU(d, s.abs_s + o));
      }
      two_sum_into(hb, lb, hn::LoadU(d, s.hi_b + o));
      lb = hn::Add(lb, hn::LoadU(d, s.lo_b + o));
      two_sum_into(hs, ls, hn::LoadU(d, s.hi_s + o));
      ls = hn::Add(ls, hn::LoadU(d, s.lo_s + o));
    }
  }
  // The pass summed dy*(x - mean); invar enters once per channel.
  const V iv = load<S>(d, s.invar, c);
  const V db = hn::Add(hb, lb);
  const V ds = hn::Mul(hn::Add(hs, ls), iv);
  if (s.abs_b != nullptr) {
    hn::StoreU(mb, d, s.sum_abs_dy + c);
    hn::StoreU(ms, d, s.sum_abs_dy_d + c);
  }
  const V limit = hn::Set(d, Limits<S>::overflow);
  if (HWY_UNLIKELY(
          !hn::AllFalse(d, hn::Or(hn::Ge(hn::Abs(db), limit), hn::Ge(hn::Abs(ds), limit))))) {
    // Channels whose dbias or dscale reaches the statistics type's overflow
    // threshold (rare): the driver's guard stores them one by one.
    each_lane(
        d,
        [store = s.store_guarded, ctx = s.guard_ctx, c](std::size_t k, double dbk, double dsk,
                                                        double mbk, double msk) {
          store(ctx, c + static_cast<std::int64_t>(k), dbk, dsk, mbk, msk);
        },
        db, ds, mb, ms);
  } else {
    store<S>(d, s.dbias, c, db);
    store<S>(d, s.dscale, c, ds);
  }
  if (s.train) {
    const hn::Rebind<float, D> df;
    const LaneArrays& out = s.lanes;
    const V m = hn::Set(d, s.m);
    const V a = hn::LoadU(d, out.a + c);
    const V b = hn::Div(hn::Mul(a, db), m);
    const V nc = hn::Neg(hn::Div(hn::Mul(hn::Mul(a, iv), ds), m));
    for (std::int64_t l = c; l < s.width; l += s.channel) {
      hn::StoreU(b, d, out.b + l);
      hn::StoreU(nc, d, out.nc + l);
      if (out.nb32 != nullptr) {
        hn::StoreU(narrow_coefficients(d, hn::Neg(b)), df, out.nb32 + l);
        hn::StoreU(narrow_coefficients(d, nc), df, out.nc32 + l);
      }
    }
  }
}

// Channels [begin, end) with statistics of type S.
template <DataType S>
void Combine(const CombineSpan& span, std::int64_t begin, std::int64_t end) {
  const CombineSpan s = span;  // see kLocalSpan (lanes-inl.h)
  for_lanes(DD(), begin, end,
            [&](auto d, std::int64_t c) BNG_INLINE_LAMBDA { combine_lanes<S>(d, s, c); });
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_COMBINE_INL_H_
