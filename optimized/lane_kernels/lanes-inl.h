// Per instruction set (Highway -inl.h): what every loop of the lane kernels
// is made of. Loads of a tensor's elements into binary64 or binary32, the
// vector stores and their lane-by-lane fallback (each_lane), a*b + c with one
// rounding, TwoSum, and for_lanes (whole vectors, then single lanes, by the
// same code). The phases (reduce-inl.h, reduce_half_infer-inl.h,
// apply-inl.h, combine-inl.h, coefficients-inl.h) are written with these.
#if defined(BNG_OPTIMIZED_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_LANES_INL_H_
#undef BNG_OPTIMIZED_LANES_INL_H_
#else
#define BNG_OPTIMIZED_LANES_INL_H_
#endif

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <hwy/highway.h>

#include "data_type.hpp"
#include "output_rounding.hpp"
#include "scalar_elements.hpp"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
// Binary16 data in binary32 (docs/accuracy.md §2.1, §3.1): 16 lanes per
// AVX-512 vector instead of 8, no binary64 conversions, one hardware rounding
// to binary16.
using DS = hn::ScalableTag<float>;

// Hardware binary16 <-> binary32 conversions and FMA come with every vector
// target: F16C and FMA with Highway's AVX2 and AVX3, FCVT and FMLA with NEON
// and SVE on aarch64 (Highway uses them where __ARM_FP has half precision,
// as on every aarch64). On the portable path Highway's emulated conversions
// saturate and mishandle Inf/NaN, so it converts lane by lane with
// bng/binary16.hpp and fuses with std::fma.
#ifndef BNG_HARDWARE_CONVERSIONS
#define BNG_HARDWARE_CONVERSIONS (HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128)
#endif
#if BNG_HARDWARE_CONVERSIONS && HWY_ARCH_ARM && !(__ARM_FP & 2)
#error "aarch64 without hardware binary16 conversions: Highway would emulate them"
#endif
constexpr bool kHardwareConversions = BNG_HARDWARE_CONVERSIONS;
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(double);
// From here on a binary32 or binary64 value rounds to a binary16 infinity
// (F16Limits); exact in both.
constexpr float kHalfRoundsToInf = static_cast<float>(F16Limits::rounds_to_inf);

// Every formula is written once, generic over the descriptor D: a full
// vector (DD, DS) for the bulk of the lanes, and D1 = CappedTag<T, 1> for
// single lanes (the lanes after the last whole vector, the lanes of a vector
// that must go one by one). The same operations lane by lane, hence the same
// bits whatever the grouping (the pattern of hwy/contrib/algo/transform-inl.h).
template <class D>
using D1 = hn::CappedTag<hn::TFromD<D>, 1>;

// a*b + c with one rounding on every path: the FMA instruction of the vector
// targets, std::fma (correctly rounded) lane by lane on the portable
// path, so that all paths give the same bits. docs/accuracy.md counts one
// rounding for each.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V fused(D d, V a, V b, V c) {
  if constexpr (kHardwareConversions) {
    return hn::MulAdd(a, b, c);
  } else {
    using T = hn::TFromD<D>;
    HWY_ALIGN T ta[kMaxLanes * 2], tb[kMaxLanes * 2], tc[kMaxLanes * 2];
    hn::Store(a, d, ta);
    hn::Store(b, d, tb);
    hn::Store(c, d, tc);
    for (std::size_t k = 0; k < hn::Lanes(d); ++k) ta[k] = std::fma(ta[k], tb[k], tc[k]);
    return hn::Load(d, ta);
  }
}

// Inference dx = RN_out(a*dy), rounded once (docs/accuracy.md §2.2), after
// Ziv's strategy: p = RN(a*dy) in the arithmetic's format (binary64, or
// binary32 for binary16 data) is rounded to the output's format, which gives
// RN_out(a*dy) unless p is itself a rounding boundary (a midpoint) of the
// output format and a*dy is not. A boundary has at most kOutBits + 1
// significant bits, so a nonzero p whose lowest set bit is below the last of
// those is decided. The hot loops watch their products at three integer
// operations each: every lane ORs the lowest set bit of its products' bits
// into `seen` (watch_products); once per group of rows,
// may_hold_output_boundary tells whether any of them may be a boundary
// (rare: about 2^-28 of binary64 products, 2^-12 of binary32 ones), and then
// the group's dx are stored again from a*dy rounded to odd. A zero product
// (lowest bit none, or the sign's) never counts, so zeros behind a ReLU cost
// nothing.
template <class D, class V = hn::Vec<D>, class VU = hn::Vec<hn::RebindToUnsigned<D>>>
HWY_INLINE void watch_products(D, VU& seen, V p) {
  const hn::RebindToUnsigned<D> du;
  const auto bits = hn::BitCast(du, p);
  seen = hn::Or(seen, hn::And(bits, hn::Sub(hn::Zero(du), bits)));  // bits & -bits
}

// Whether a lane of `seen` holds a product that may be a boundary of an
// output of kOutBits fraction bits.
template <int kOutBits, class D, class VU = hn::Vec<hn::RebindToUnsigned<D>>>
HWY_INLINE bool may_hold_output_boundary(D, VU seen) {
  const hn::RebindToUnsigned<D> du;
  using U = hn::TFromD<decltype(du)>;
  constexpr int kFractionBits = sizeof(U) == 8 ? 52 : 23;
  constexpr int kSignBit = static_cast<int>(sizeof(U)) * 8 - 1;
  // A boundary's lowest set bit, up to the exponent's highest (the sign's is -0).
  constexpr U kBoundaryBits = (U{1} << kSignBit) - (U{1} << (kFractionBits - kOutBits - 1));
  return !hn::AllFalse(du, hn::Ne(hn::And(seen, hn::Set(du, kBoundaryBits)), hn::Zero(du)));
}

// The product a*b rounded to odd (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", 2008):
// the truncation of a*b towards zero with its last bit set where a*b is not
// exact. Rounding that value to nearest-even in any format at least two bits
// narrower gives RN(a*b) itself, ties included. p = RN(a*b) and its error
// e = a*b - p (exact by fma: every caller's product is far above the
// underflow range); where e != 0 the truncation is p, or p's neighbour
// towards zero where e and p differ in sign, and RO sets its last bit:
// (bits(p) - [signs differ]) | 1, which leaves an odd p as it is. |e| > 0 is
// false for a NaN e (p an Inf or NaN), which keeps p.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V product_rounded_to_odd(D d, V a, V b) {
  const hn::RebindToUnsigned<D> du;
  using U = hn::TFromD<decltype(du)>;
  const V p = hn::Mul(a, b);
  const V e = fused(d, a, b, hn::Neg(p));
  const auto bits = hn::BitCast(du, p);
  const auto signs_differ = hn::ShiftRight<sizeof(U) * 8 - 1>(hn::Xor(bits, hn::BitCast(du, e)));
  const auto odd = hn::Or(hn::Sub(bits, signs_differ), hn::Set(du, U{1}));
  const auto inexact = hn::RebindMask(du, hn::Gt(hn::Abs(e), hn::Zero(d)));
  return hn::BitCast(d, hn::IfThenElse(inexact, odd, bits));
}

// a*b for an output of kOutBits fraction bits (23: binary32, 10: binary16)
// whose rounding gives RN_out(a*b), one vector at a time (the rare paths; the
// hot loops watch a group of rows): p = a*b where that is decided, else a*b
// rounded to odd.
template <int kOutBits, class D, class V = hn::Vec<D>>
HWY_INLINE V product_for_output(D d, V a, V b) {
  const V p = hn::Mul(a, b);
  auto seen = hn::Zero(hn::RebindToUnsigned<D>());
  watch_products(d, seen, p);
  if (HWY_LIKELY(!may_hold_output_boundary<kOutBits>(d, seen))) return p;
  return product_rounded_to_odd(d, a, b);
}

// Error-free addition into a (hi, lo) pair (TwoSum, Knuth): hi + lo gains
// exactly v's value, apart from lo's own rounding.
template <class V>
HWY_INLINE void two_sum_into(V& hi, V& lo, V v) {
  const V sum = hn::Add(hi, v);
  const V bv = hn::Sub(sum, hi);
  lo = hn::Add(lo, hn::Add(hn::Sub(hi, hn::Sub(sum, bv)), hn::Sub(v, bv)));
  hi = sum;
}

// Binary32 lanes f as the lanes of d: unchanged for a binary32 d, widened
// (exactly) for a binary64 one.
template <class D, class VF>
HWY_INLINE hn::Vec<D> widen_to(D d, VF f) {
  if constexpr (std::is_same_v<hn::TFromD<D>, float>) {
    return f;
  } else {
    return hn::PromoteTo(d, f);
  }
}

// Elements i .. of a tensor of type T into the lanes of d, binary64 or
// binary32 (exact either way; binary32 only for binary16 data). The portable
// path converts binary16 lane by lane with bng/binary16.hpp (load1).
template <DataType T, class D>
HWY_INLINE hn::Vec<D> load(D d, const void* p, std::int64_t i) {
  using Lane = hn::TFromD<D>;
  static_assert(T == DataType::f16 || std::is_same_v<Lane, double>);
  const hn::Rebind<float, D> df;
  if constexpr (T == DataType::f32) {
    return widen_to(d, hn::LoadU(df, static_cast<const float*>(p) + i));
  } else if constexpr (kHardwareConversions) {
    const auto* h =
        reinterpret_cast<const hwy::float16_t*>(static_cast<const std::uint16_t*>(p) + i);
    return widen_to(d, hn::PromoteTo(df, hn::LoadU(hn::Rebind<hwy::float16_t, D>(), h)));
  } else {
    HWY_ALIGN Lane tmp[kMaxLanes * 2];
    for (std::size_t k = 0; k < hn::Lanes(d); ++k)
      tmp[k] = static_cast<Lane>(load1<T>(p, i + static_cast<std::int64_t>(k)));
    return hn::Load(d, tmp);
  }
}

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

// The lane-by-lane fallback of every vector step, written once: f(k, v[k]...)
// for each lane k of d, with the vectors' lanes as scalars. Vector steps call
// it for the rare vectors that some lane must take through the scalar rules
// (and the portable path for every vector). Out of line, so that its stack
// arrays stay out of the hot loops; callers capture their scalars by value
// (a capture by reference would keep them in memory in the hot loop too).
template <class D, class F, class... V>
HWY_NOINLINE void each_lane(D d, const F& f, V... v) {
  using Lane = hn::TFromD<D>;
  static_assert(sizeof...(V) > 0, "each_lane passes f the lanes of at least one vector");
  HWY_ALIGN Lane lanes[sizeof...(V)][HWY_MAX_BYTES / sizeof(Lane)];
  std::size_t j = 0;
  (hn::Store(v, d, lanes[j++]), ...);
  [&]<std::size_t... J>(std::index_sequence<J...>) {
    for (std::size_t k = 0; k < hn::Lanes(d); ++k) f(k, lanes[J][k]...);
  }
  (std::index_sequence_for<V...>{});
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

// kLocalSpan: the hot loops work on a const local copy of their LaneSpan.
// Their vector stores (through may_alias vector types) could otherwise
// modify the caller's span as far as the compiler knows, which makes it
// reload every pointer and coefficient address after each store.

// Lanes [l, l1) in whole vectors of d, then the rest one at a time with the
// same body: body(d or D1, l). The bodies are lambdas marked
// BNG_INLINE_LAMBDA: a call per vector costs measurably on small tensors.
#ifndef BNG_INLINE_LAMBDA
#define BNG_INLINE_LAMBDA __attribute__((always_inline))
#endif
template <class D, class Body>
HWY_INLINE void for_lanes(D d, std::int64_t l, std::int64_t l1, const Body& body) {
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  for (; l + N <= l1; l += N) body(d, l);
  if (l < l1) {
    const D1<D> d1;
    for (; l < l1; ++l) body(d1, l);
  }
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_LANES_INL_H_
