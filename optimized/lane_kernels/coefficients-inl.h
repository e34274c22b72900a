// Per instruction set (Highway -inl.h): the per-lane coefficients, planned
// before pass 1 from the statistics (Prepare: mean, a = scale*invar and
// their binary32 forms for binary16 data), and the rules that decide where a
// binary32 coefficient may stand in for the binary64 one
// (binary32_coefficients.hpp), which combine-inl.h applies to b and nc too.
#if defined(BNG_OPTIMIZED_COEFFICIENTS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_COEFFICIENTS_INL_H_
#undef BNG_OPTIMIZED_COEFFICIENTS_INL_H_
#else
#define BNG_OPTIMIZED_COEFFICIENTS_INL_H_
#endif

#include <cstdint>

#include <hwy/highway.h>

#include "binary32_coefficients.hpp"
#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/lanes-inl.h"
#include "output_rounding.hpp"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// A coefficient of binary16 data's binary32 formulas (binary32_coefficients.hpp):
// a dx coefficient rounded to binary32 is within a relative 2^-24 only where
// the binary64 value is zero or rounds to a normal finite binary32 value;
// elsewhere NaN, which sends the lane to the binary64 path.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<float, D>> narrow_coefficients(D d, hn::Vec<D> v) {
  const auto a = hn::Abs(v);
  const auto ok =
      hn::Or(hn::Eq(v, hn::Zero(d)), hn::And(hn::Ge(a, hn::Set(d, kFloatMinNormal)),
                                             hn::Lt(a, hn::Set(d, F32Limits::rounds_to_inf))));
  return hn::DemoteTo(hn::Rebind<float, D>(), hn::IfThenElse(ok, v, hn::NaN(d)));
}

// The mean for inference pass 1's binary32 sums (binary32_coefficients.hpp):
// zero or of magnitude in [kSumMeanMin, kSumMeanMax] in binary32 (exact), NaN
// for any other, whose lane keeps the binary64 sums.
template <class D>
HWY_INLINE hn::Vec<hn::Rebind<float, D>> sum_means(D d, hn::Vec<D> mean) {
  const auto a = hn::Abs(mean);
  const auto ok = hn::Or(hn::Eq(mean, hn::Zero(d)), hn::And(hn::Ge(a, hn::Set(d, kSumMeanMin)),
                                                            hn::Le(a, hn::Set(d, kSumMeanMax))));
  return hn::DemoteTo(hn::Rebind<float, D>(), hn::IfThenElse(ok, mean, hn::NaN(d)));
}

// The per-lane coefficients from the statistics of type S. a = scale * invar
// is exact: two binary32 significands fit in a binary64 one; mean is exact in
// binary32 (a binary16 or binary32 value).
template <DataType S>
void Prepare(const LaneCoefficients& s, std::int64_t channel) {
  const LaneArrays& out = s.lanes;
  for_lanes(DD(), 0, channel, [&](auto d, std::int64_t c) BNG_INLINE_LAMBDA {
    const hn::Rebind<float, decltype(d)> df;
    const auto mu = load<S>(d, s.mean_in, c);
    const auto k = hn::Mul(load<S>(d, s.scale_in, c), load<S>(d, s.invar_in, c));
    hn::StoreU(mu, d, out.mean + c);
    hn::StoreU(k, d, out.a + c);
    if (out.a32 != nullptr) hn::StoreU(narrow_coefficients(d, k), df, out.a32 + c);
    if (out.mean32 != nullptr) hn::StoreU(hn::DemoteTo(df, mu), df, out.mean32 + c);
    if (out.sum_mean32 != nullptr) hn::StoreU(sum_means(d, mu), df, out.sum_mean32 + c);
  });
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_COEFFICIENTS_INL_H_
