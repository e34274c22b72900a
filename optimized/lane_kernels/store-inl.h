// Per instruction set (Highway -inl.h): the vector stores of the lane
// kernels' outputs, output_rounding.hpp's rules in vector form. try_store,
// the vector store wherever it gives store1's bits (binary64 results into
// binary16 by round_to_half_precision, or on AVX-512 by a round to odd), and
// over it store and store_nearest, which fall back on each_lane; then the
// inference hot loops' store, tested once per group of rows (StoreTop,
// store_half_converted, store_watched) and the group's test
// (stored_beyond_range, must_store_again). Apart from lanes-inl.h, whose
// building blocks (loads, fused, each_lane, the product watch) they are
// written with, because rounding into the output's format is a job of its
// own, held to the bits of the scalar rules (proofs/final_rounding.g).
#if defined(BNG_OPTIMIZED_STORE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_STORE_INL_H_
#undef BNG_OPTIMIZED_STORE_INL_H_
#else
#define BNG_OPTIMIZED_STORE_INL_H_
#endif

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "data_type.hpp"
#include "lane_kernels/lanes-inl.h"
#include "scalar_elements.hpp"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// Rounds t to binary16 precision in double, exactly as binary16::round_from_double
// (ties to even, subnormal spacing 2^-24 below 2^-14): adding and removing
// C = 1.5 * 2^(e+42), e = max(exponent(|t|), -14), leaves |t| on the grid of
// spacing 2^(e-10), rounded by the hardware's round-to-nearest-even. For
// |t| < 65520 (try_store's condition, which sends NaN elsewhere) the result is a binary16
// value, so the two narrowing conversions after it are exact.
template <class D>
HWY_INLINE hn::Vec<D> round_to_half_precision(D dd, hn::Vec<D> t) {
  const hn::RebindToUnsigned<D> du;
  const auto a = hn::Abs(t);
  const auto pow2 =
      hn::BitCast(dd, hn::And(hn::BitCast(du, a), hn::Set(du, 0x7ff0000000000000ull)));
  const auto c = hn::Mul(hn::Max(pow2, hn::Set(dd, 0x1p-14)), hn::Set(dd, 0x1.8p42));
  return hn::CopySign(hn::Sub(hn::Add(a, c), c), t);
}

// The vector store of t (binary64 lanes, or binary32 lanes of binary16 data)
// into elements i .. of a tensor of type T: true, or false without storing
// when some lane needs the scalar rules of output_rounding.hpp (training dx's
// clamp below the overflow threshold and its guard, inference dx's ±Inf,
// the canonical NaN),
// and always on the portable path, whose conversions go lane by lane: rare
// elsewhere, so one test per vector instead of clamping every lane. Where it
// stores, the bits are those of store1 (a binary32 value below 65520 rounds to
// binary16 as the binary64 value it is).
template <DataType T, class D>
HWY_INLINE bool try_store(D d, void* p, std::int64_t i, hn::Vec<D> t) {
  using Lane = hn::TFromD<D>;
  static_assert(T == DataType::f16 || std::is_same_v<Lane, double>);
  const hn::Rebind<float, D> df;
  if constexpr (!kHardwareConversions) {
    return false;
  } else if constexpr (T == DataType::f32) {
    // Rounding to nearest-even gives Inf exactly from MAX + ulp/2 on, where
    // store1 would clamp or guard (store1_nearest gives that Inf); below that
    // it is both's result. A NaN goes to the scalar store too, which stores
    // the canonical NaN.
    const auto f = hn::DemoteTo(df, t);
    if (HWY_UNLIKELY(!hn::AllTrue(df, hn::IsFinite(f)))) return false;
    hn::StoreU(f, df, static_cast<float*>(p) + i);
    return true;
  } else {
    // Not below 65520 (NaN included: the comparison is false) goes to store1.
    const Lane limit = kHalfRoundsToInf;
    if (HWY_UNLIKELY(!hn::AllTrue(d, hn::Lt(hn::Abs(t), hn::Set(d, limit))))) return false;
    const hn::Rebind<hwy::float16_t, D> dh;
    auto* const h = reinterpret_cast<hwy::float16_t*>(static_cast<std::uint16_t*>(p) + i);
    if constexpr (std::is_same_v<Lane, float>) {
      hn::StoreU(hn::DemoteTo(dh, t), dh, h);
      return true;
    }
#if HWY_TARGET == HWY_AVX3
    else if constexpr (std::is_same_v<D, DD>) {
      // Round to odd into binary32 (truncate, then set the last bit where that
      // was inexact), then to nearest-even into binary16: a correctly rounded
      // result, because binary32 keeps 13 more bits than binary16 and the set
      // bit decides ties (Boldo and Melquiond, "Emulation of FMA and correctly
      // rounded sums: proved algorithms using rounding to odd", 2008). Fewer
      // operations than round_to_half_precision; the same bits (the
      // last binary32 bit never reaches binary16).
      const __m512d v = t.raw;
      const __m256 f = _mm512_cvt_roundpd_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
      const __mmask8 inexact = _mm512_cmp_pd_mask(_mm512_cvtps_pd(f), v, _CMP_NEQ_UQ);
      const __m256i bits = _mm256_castps_si256(f);
      const __m256i odd = _mm256_mask_or_epi32(bits, inexact, bits, _mm256_set1_epi32(1));
      const __m128i h16 = _mm256_cvtps_ph(_mm256_castsi256_ps(odd), _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(h), h16);
      return true;
    }
#endif
    else {
      hn::StoreU(hn::DemoteTo(dh, hn::DemoteTo(df, round_to_half_precision(d, t))), dh, h);
      return true;
    }
  }
}

// The inference hot loops' store, tested once per group of rows instead of
// once per vector (try_store): t's vector conversion is stored whatever it
// is, and `top` keeps the largest magnitude of t's lanes (binary32 bits of
// |f| as an integer: NaN above Inf above every number). Where a lane needed
// output_rounding.hpp's scalar rules (try_store's cases), must_store_again
// has the caller store the group again through `store_nearest`. Hardware conversions
// only (kHardwareConversions: the portable path stores lane by lane).
template <class D>
using StoreTop = hn::Vec<hn::Rebind<std::int32_t, D>>;

// Binary16 data's binary32 t stored by the vector conversion, whatever it is
// (store_watched's store; mp's hot loop, which keeps `top` itself).
template <class D>
HWY_INLINE void store_half_converted(D, void* p, std::int64_t i, hn::Vec<D> t) {
  static_assert(std::is_same_v<hn::TFromD<D>, float>);
  const hn::Rebind<hwy::float16_t, D> dh;
  hn::StoreU(hn::DemoteTo(dh, t), dh,
             reinterpret_cast<hwy::float16_t*>(static_cast<std::uint16_t*>(p) + i));
}

template <DataType T, class D>
HWY_INLINE void store_watched(D d, void* p, std::int64_t i, hn::Vec<D> t, StoreTop<D>& top) {
  const hn::Rebind<std::int32_t, D> di;
  const hn::Rebind<float, D> df;
  const auto f = [&] {
    if constexpr (std::is_same_v<hn::TFromD<D>, float>)
      return t;
    else
      return hn::DemoteTo(df, t);
  }();
  if constexpr (T == DataType::f32) {
    static_assert(std::is_same_v<hn::TFromD<D>, double>);
    hn::StoreU(f, df, static_cast<float*>(p) + i);
  } else {
    store_half_converted(d, p, i, t);  // binary16 data's binary32 product
  }
  top = hn::Max(top, hn::And(hn::BitCast(di, f), hn::Set(di, 0x7fffffff)));
}

// Whether a stored lane was beyond the vector conversion's range (`top`
// from store_watched: binary32 data's from Inf on, binary16 data's from
// 65520, as try_store): the lanes go through store1_nearest.
template <DataType T, class D>
HWY_INLINE bool stored_beyond_range(D, StoreTop<D> top) {
  const hn::Rebind<std::int32_t, D> di;
  constexpr std::int32_t kLimit =
      T == DataType::f32 ? 0x7f800000 : std::bit_cast<std::int32_t>(kHalfRoundsToInf);
  return !hn::AllTrue(di, hn::Lt(top, hn::Set(di, kLimit)));
}

// Whether a group of inference rows must be stored again (rare): a product
// may be a boundary of the output (watch_products), or a stored lane was
// beyond the vector conversion's range (stored_beyond_range). Two tests:
// merged into one (the range test widened to the products' lanes) they
// measured slower on binary32 data.
template <DataType T, class D, class VU = hn::Vec<hn::RebindToUnsigned<D>>>
HWY_INLINE bool must_store_again(D d, VU seen, StoreTop<D> top) {
  constexpr int kOutBits = T == DataType::f32 ? 23 : 10;
  return may_hold_output_boundary<kOutBits>(d, seen) || stored_beyond_range<T>(d, top);
}

// t into elements i .. of a tensor of type T: the vector store, or lane by
// lane with store1 (output_rounding.hpp's rule for the outputs judged by
// alpha, written once).
template <DataType T, class D>
HWY_INLINE void store(D d, void* p, std::int64_t i, hn::Vec<D> t) {
  if (HWY_UNLIKELY(!try_store<T>(d, p, i, t))) {
    each_lane(
        d, [p, i](std::size_t k, double v) { store1<T>(p, i + static_cast<std::int64_t>(k), v); },
        t);
  }
}

// Inference dx t (correctly rounded: t rounds as y* does) into elements i ..
// of a tensor of type T: the vector store, or lane by lane with
// store1_nearest (round to nearest-even, ±Inf from MAX + ulp/2 on, the
// canonical NaN), where try_store declines a lane.
template <DataType T, class D>
HWY_INLINE void store_nearest(D d, void* p, std::int64_t i, hn::Vec<D> t) {
  if (HWY_UNLIKELY(!try_store<T>(d, p, i, t))) {
    each_lane(
        d,
        [p, i](std::size_t k, double v) {
          store1_nearest<T>(p, i + static_cast<std::int64_t>(k), v);
        },
        t);
  }
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_STORE_INL_H_
