// Per instruction set (Highway -inl.h): what every loop of the lane kernels
// is made of. Loads of a tensor's elements into binary64 or binary32, the
// lane-by-lane fallback of the vector steps (each_lane), a*b + c with one
// rounding, the watch of inference products (Ziv's strategy), TwoSum, and
// for_lanes (whole vectors, then single lanes, by the same code). The vector
// stores, written with these, are store-inl.h's. The phases (reduce-inl.h,
// reduce_half_infer-inl.h, apply-inl.h, combine-inl.h, coefficients-inl.h)
// are written with both.
#if defined(BNG_OPTIMIZED_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_LANES_INL_H_
#undef BNG_OPTIMIZED_LANES_INL_H_
#else
#define BNG_OPTIMIZED_LANES_INL_H_
#endif

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
