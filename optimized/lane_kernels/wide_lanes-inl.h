// Per instruction set (Highway -inl.h): the binary64 lanes of binary32
// vectors, for binary16 inference's pass 1 (reduce_half_infer-inl.h), whose
// arithmetic is binary32 but whose accumulators, magnitudes and exact dx are
// binary64: Wide (a vector's two halves as two binary64 vectors), widen,
// load_wide, store_wide and add_wide. Apart from the pass because they are
// a job of their own, the same for every use: exact conversions between
// the binary32 lanes and binary64 ones (half_infer_dx-inl.h's exact dx
// uses Wide too).
#if defined(BNG_OPTIMIZED_WIDE_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_WIDE_LANES_INL_H_
#undef BNG_OPTIMIZED_WIDE_LANES_INL_H_
#else
#define BNG_OPTIMIZED_WIDE_LANES_INL_H_
#endif

#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "lane_kernels/lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// The binary64 lanes of a binary32 vector of D (exact widening): a full
// vector's two halves in two binary64 vectors (lo, hi), so that the binary32
// arithmetic keeps its 16 lanes per AVX-512 vector, and a single lane in lo
// alone (hi unused). Two variables, not a struct or an array: SVE vectors are
// sizeless and may be neither members nor elements. (Highway 1.0.3 has no
// PromoteUpperTo: LowerHalf and UpperHalf.)
template <class D>
struct Wide {
  static constexpr bool kTwo = hn::MaxLanes(D()) > 1;
  using DP = std::conditional_t<kTwo, hn::Half<D>, D>;  // one part's binary32 lanes
  using DW = hn::Rebind<double, DP>;
  using V = hn::Vec<DW>;
};

template <class D, class WV = typename Wide<D>::V>
HWY_INLINE void widen(D, hn::Vec<D> v, WV& lo, WV& hi) {
  using W = Wide<D>;
  const typename W::DW dw;
  if constexpr (!W::kTwo) {
    lo = hn::PromoteTo(dw, v);
    hi = lo;  // unused for one lane; set so that no path reads it uninitialised
  }
#if HWY_TARGET != HWY_SCALAR  // one-lane vectors only, and no UpperHalf
  else {
    const typename W::DP dp;
    lo = hn::PromoteTo(dw, hn::LowerHalf(dp, v));
    hi = hn::PromoteTo(dw, hn::UpperHalf(dp, v));
  }
#endif
}

// Lanes l .. of a binary64 array, for the lanes of D.
template <class D, class WV = typename Wide<D>::V>
HWY_INLINE void load_wide(D, const double* p, std::int64_t l, WV& lo, WV& hi) {
  const typename Wide<D>::DW dw;
  lo = hn::LoadU(dw, p + l);
  hi = lo;  // one lane: unused, but never left uninitialised (as in widen)
  if constexpr (Wide<D>::kTwo) hi = hn::LoadU(dw, p + l + static_cast<std::int64_t>(hn::Lanes(dw)));
}

template <class D, class WV = typename Wide<D>::V>
HWY_INLINE void store_wide(D, WV lo, WV hi, double* p, std::int64_t l) {
  const typename Wide<D>::DW dw;
  hn::StoreU(lo, dw, p + l);
  if constexpr (Wide<D>::kTwo) hn::StoreU(hi, dw, p + l + static_cast<std::int64_t>(hn::Lanes(dw)));
}

// Binary32 v added into the binary64 accumulators (lo, hi), lane by lane.
template <class D, class WV = typename Wide<D>::V>
HWY_INLINE void add_wide(D d, WV& lo, WV& hi, hn::Vec<D> v) {
  WV vlo, vhi;
  widen(d, v, vlo, vhi);
  lo = hn::Add(lo, vlo);
  if constexpr (Wide<D>::kTwo) hi = hn::Add(hi, vhi);
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_WIDE_LANES_INL_H_
