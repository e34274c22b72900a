#include "lane_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "binary32_coefficients.hpp"
#include "bng/binary16.hpp"
#include "bng/optimized/isa.hpp"
#include "cache_aligned.hpp"
#include "output_rounding.hpp"
#include "bng/optimized/partition.hpp"
#include "scalar_elements.hpp"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "lane_kernels.cpp"
#include "hwy_targets.hpp"
// clang-format off
#include <hwy/foreach_target.h>
// clang-format on
#include <hwy/cache_control.h>
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;

// F16C (hardware binary16 <-> binary32) comes with Highway's AVX2 and AVX3
// targets. Elsewhere Highway's emulated conversions saturate and mishandle
// Inf/NaN, so the portable path converts lane by lane with bng/binary16.hpp.
// (The macro serves the #if around code that names F16C-only operations.)
#ifndef BNG_HARDWARE_CONVERSIONS
#define BNG_HARDWARE_CONVERSIONS (HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3)
#endif
constexpr bool kHardwareConversions = BNG_HARDWARE_CONVERSIONS;
constexpr std::size_t kMaxLanes = HWY_MAX_BYTES / sizeof(double);
// From here on a binary32 value rounds to a binary16 infinity (F16Limits).
constexpr float kHalfRoundsToInf = static_cast<float>(F16Limits::rounds_to_inf);

// Every formula below is written once, generic over the descriptor D: a full
// vector (DD, DS) for the bulk of the lanes, and D1 = CappedTag<T, 1> for
// single lanes (the lanes after the last whole vector, the lanes of a vector
// that must go one by one). The same operations lane by lane, hence the same
// bits whatever the grouping (the pattern of hwy/contrib/algo/transform-inl.h).
template <class D>
using D1 = hn::CappedTag<hn::TFromD<D>, 1>;

// a*b + c with one rounding on every path: the FMA instruction of the AVX2 and
// AVX3 targets, std::fma (correctly rounded) lane by lane on the portable
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

// Error-free addition into a (hi, lo) pair (TwoSum, Knuth): hi + lo gains
// exactly v's value, apart from lo's own rounding.
template <class V>
HWY_INLINE void two_sum_into(V& hi, V& lo, V v) {
  const V sum = hn::Add(hi, v);
  const V bv = hn::Sub(sum, hi);
  lo = hn::Add(lo, hn::Add(hn::Sub(hi, hn::Sub(sum, bv)), hn::Sub(v, bv)));
  hi = sum;
}

// Elements i .. of a tensor of type T into binary64 (exact). The portable path
// converts binary16 lane by lane with bng/binary16.hpp (load1).
template <DataType T, class D>
HWY_INLINE hn::Vec<D> load(D d, const void* p, std::int64_t i) {
  const hn::Rebind<float, D> df;
  if constexpr (T == DataType::f32) {
    return hn::PromoteTo(d, hn::LoadU(df, static_cast<const float*>(p) + i));
  } else if constexpr (kHardwareConversions) {
    const auto* h =
        reinterpret_cast<const hwy::float16_t*>(static_cast<const std::uint16_t*>(p) + i);
    return hn::PromoteTo(d, hn::PromoteTo(df, hn::LoadU(hn::Rebind<hwy::float16_t, D>(), h)));
  } else {
    HWY_ALIGN double tmp[kMaxLanes];
    for (std::size_t k = 0; k < hn::Lanes(d); ++k)
      tmp[k] = load1<T>(p, i + static_cast<std::int64_t>(k));
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

// The vector store: true, or false without storing when some lane needs the
// scalar rules of output_rounding.hpp (the clamp below the overflow
// threshold, training dx's guard, Inf, the canonical NaN): rare, so one test per vector instead
// of clamping every lane. Where it stores, the bits are those of store1.
template <DataType T, class D>
HWY_INLINE bool try_store(D dd, void* p, std::int64_t i, hn::Vec<D> t) {
  const hn::Rebind<float, D> df;
  if constexpr (T == DataType::f32) {
    // Rounding to nearest-even gives Inf exactly from MAX + ulp/2 on, where
    // store1 would clamp or guard; below that it is store1's result. A NaN
    // goes to store1 too, which stores the canonical NaN.
    const auto f = hn::DemoteTo(df, t);
    if (HWY_UNLIKELY(!hn::AllTrue(df, hn::IsFinite(f)))) return false;
    hn::StoreU(f, df, static_cast<float*>(p) + i);
  } else {
    // Not below 65520 (NaN included: the comparison is false) goes to store1.
    if (HWY_UNLIKELY(!hn::AllTrue(dd, hn::Lt(hn::Abs(t), hn::Set(dd, F16Limits::rounds_to_inf)))))
      return false;
#if HWY_TARGET == HWY_AVX3
    if constexpr (std::is_same_v<D, DD>) {
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
      const __m128i h = _mm256_cvtps_ph(_mm256_castsi256_ps(odd), _MM_FROUND_TO_NEAREST_INT);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(static_cast<std::uint16_t*>(p) + i), h);
      return true;
    }
#endif
    const auto f = hn::DemoteTo(df, round_to_half_precision(dd, t));
    auto* h = reinterpret_cast<hwy::float16_t*>(static_cast<std::uint16_t*>(p) + i);
    const hn::Rebind<hwy::float16_t, D> dh;
    hn::StoreU(hn::DemoteTo(dh, f), dh, h);
  }
  return true;
}

// Lane by lane with store1 (output_rounding.hpp's rules, written once): the
// portable path, and the rare vectors try_store refuses. Out of line so the
// stack array stays out of the hot loops.
template <DataType T, class D>
HWY_NOINLINE void store_lanes(D d, void* p, std::int64_t i, hn::Vec<D> t) {
  HWY_ALIGN double tt[kMaxLanes];
  hn::Store(t, d, tt);
  for (std::size_t k = 0; k < hn::Lanes(d); ++k)
    store1<T>(p, i + static_cast<std::int64_t>(k), tt[k]);
}

template <DataType T, class D>
HWY_INLINE void store(D d, void* p, std::int64_t i, hn::Vec<D> t) {
  if constexpr (!kHardwareConversions) {
    store_lanes<T>(d, p, i, t);
  } else if (HWY_UNLIKELY(!try_store<T>(d, p, i, t))) {
    store_lanes<T>(d, p, i, t);
  }
}

// Lanes [l, l1) in whole vectors of d, then the rest one at a time with the
// same body: body(d or D1, l). The bodies are lambdas marked
// BNG_INLINE_LAMBDA: a call per vector costs measurably on small tensors.
#define BNG_INLINE_LAMBDA __attribute__((always_inline))
template <class D, class Body>
HWY_INLINE void for_lanes(D d, std::int64_t l, std::int64_t l1, const Body& body) {
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  for (; l + N <= l1; l += N) body(d, l);
  if (l < l1) {
    const D1<D> d1;
    for (; l < l1; ++l) body(d1, l);
  }
}

// Binary16 data in binary32 (docs/accuracy.md §2.1, §3.1): 16 lanes per
// AVX-512 vector instead of 8, no binary64 conversions, one hardware rounding
// to binary16.
using DS = hn::ScalableTag<float>;

// Binary16 elements i .. into binary32 (exact); the portable path converts
// lane by lane with bng/binary16.hpp (load1).
template <class D>
HWY_INLINE hn::Vec<D> load_half(D ds, const void* p, std::int64_t i) {
  if constexpr (kHardwareConversions) {
    const auto* h =
        reinterpret_cast<const hwy::float16_t*>(static_cast<const std::uint16_t*>(p) + i);
    return hn::PromoteTo(ds, hn::LoadU(hn::Rebind<hwy::float16_t, D>(), h));
  } else {
    HWY_ALIGN float tmp[kMaxLanes * 2];
    for (std::size_t k = 0; k < hn::Lanes(ds); ++k)
      tmp[k] = static_cast<float>(load1<DataType::f16>(p, i + static_cast<std::int64_t>(k)));
    return hn::Load(ds, tmp);
  }
}

// The binary32 form of try_store: t rounded once to binary16 and true, or
// false without storing when some lane is not below 65520 (overflow, NaN, a
// NaN coefficient), and always on the portable path: the caller then takes
// its lanes through the scalar rules.
template <class D>
HWY_INLINE bool try_store_half(D ds, void* p, std::int64_t i, hn::Vec<D> t) {
  if constexpr (!kHardwareConversions) {
    return false;
  } else {
    if (HWY_UNLIKELY(!hn::AllTrue(ds, hn::Lt(hn::Abs(t), hn::Set(ds, kHalfRoundsToInf)))))
      return false;
    auto* h = reinterpret_cast<hwy::float16_t*>(static_cast<std::uint16_t*>(p) + i);
    const hn::Rebind<hwy::float16_t, D> dh;
    hn::StoreU(hn::DemoteTo(dh, t), dh, h);
    return true;
  }
}

// kLocalSpan: the hot loops work on a const local copy of their LaneSpan.
// Their vector stores (through may_alias vector types) could otherwise
// modify the caller's span as far as the compiler knows, which makes it
// reload every pointer and coefficient address after each store.

std::int64_t row_lane_end(const LaneSpan& s, std::int64_t r) {
  return r == s.last_row && s.last_lanes < s.lane_end ? s.last_lanes : s.lane_end;
}

// Rows are taken four at a time where all four are whole, so that the
// per-lane coefficients and accumulators are loaded once per four rows; each
// lane still adds its rows one by one in row order (the same bits as one row
// at a time).
constexpr std::int64_t kRowsAtOnce = 4;

// Except where four wide rows fit in one 4 KiB page (65536 x 64 folds to
// 1 KiB rows of binary32, 512 B of binary16) and `rows` of them are too large
// for the caches to hide memory: four rows at once then visit one page at
// four places, back and forth, which the hardware prefetchers (they follow
// each page's addresses) track badly; one row at a time is a plain ascending
// sweep. Interleaved A/B on the project machine: 1.3-2.2x faster fp32 passes
// on 65536 x 64 and 1048576 x 4, while rows of 4 KiB, and small tensors
// (64 x 256), lose without four rows at once, and so does binary16 inference
// on 2 KiB rows (4096 x 1024: 0.7-0.96x).
// The training passes judge by their span's rows; binary16 inference by the
// whole tensor's (span_rows, tensor_rows below): its spans on 65536 x 64 are
// 1 MiB bands of an 8 MiB tensor, and two rows at a time made one-thread
// calls 1.6x faster, where the training passes judged the same way lost
// 0.74-0.81x with two threads.
constexpr std::int64_t kPageBytes = 4096;
constexpr std::int64_t kCachedBytes = 1 << 20;  // about L2: smaller data the caches hide
template <DataType T>
bool rows_at_once_pay(const LaneSpan& s, std::int64_t rows) {
  const std::int64_t row_bytes = s.width * bytes_of(T);
  return kRowsAtOnce * row_bytes > kPageBytes || rows * row_bytes <= kCachedBytes;
}
inline std::int64_t span_rows(const LaneSpan& s) {
  return s.row_end - s.row_begin;
}
inline std::int64_t tensor_rows(const LaneSpan& s) {
  return s.last_row + 1;
}

// Software prefetch for binary16 inference, kRowsAtOnce rows ahead, where
// rows are at most 2 KiB (four rows within two pages) and the tensor is
// larger than the caches. The hardware prefetchers follow addresses within a
// 4 KiB page, and the rows a group reads leave each page after a few lines,
// so on a tensor streamed from memory they barely start before the loop moves
// on. Interleaved A/Bs on the project machine (docs/performance.md): binary16
// inference on 4096 x 1024, 65536 x 64 and 1048576 x 4 1.3-2.1x faster with
// one thread, 0.9-1.9x with two, on AVX2 and AVX3; on 256 x 1024 (cached)
// 0.85-1.0x, hence the size condition. On 8 KiB rows and wider
// (16384 x 4096, 256 x 65536) it gained nothing (0.7-1.4x, noise). The
// training passes have none: binary16 training's pass 2 gained with one thread
// (1.05-1.24x) and lost with two (0.85-1.05x), its pass 1 gained nothing, and
// the binary64 passes of binary32 data lost 0.6-0.85x on AVX3 on most shapes.
inline constexpr std::int64_t kPrefetchRowsMaxBytes = 2048;
inline bool half_prefetch_pays(const LaneSpan& s) {
  const std::int64_t row_bytes = s.width * bytes_of(DataType::f16);
  return row_bytes <= kPrefetchRowsMaxBytes && tensor_rows(s) * row_bytes > kCachedBytes;
}
// The element offset to prefetch from rows [r, r + kRowsAtOnce) - the next
// group's rows - or 0 for none: near the tensor's end (whose last row may be
// partial), so that no prefetch reaches past it.
inline std::int64_t prefetch_ahead(const LaneSpan& s, bool prefetch, std::int64_t r) {
  return prefetch && r + 2 * kRowsAtOnce <= s.last_row ? kRowsAtOnce * s.width : 0;
}
// `ahead` for the vector at lane l of binary16 data: one request a cache line,
// from the vector that starts the line's lanes (0 for the others).
inline std::int64_t ahead_for_lane(std::int64_t ahead, std::int64_t l) {
  constexpr std::int64_t kLineLanes =
      static_cast<std::int64_t>(kCacheLineBytes) / bytes_of(DataType::f16);
  return l % kLineLanes == 0 ? ahead : 0;
}

// The block totals acc_b, acc_s (indexed by lane) into the lanes' (hi, lo)
// pairs, error-free.
void add_block_totals(const LaneSpan& s, const ReduceOut& out, const double* acc_b,
                      const double* acc_s) {
  for_lanes(DD(), s.lane_begin, s.lane_end, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
    const auto add_block = [&](double* hi, double* lo, const double* acc) {
      auto h = hn::LoadU(d, hi + l), e = hn::LoadU(d, lo + l);
      two_sum_into(h, e, hn::LoadU(d, acc + l));
      hn::StoreU(h, d, hi + l);
      hn::StoreU(e, d, lo + l);
    };
    add_block(out.hi_b, out.lo_b, acc_b);
    add_block(out.hi_s, out.lo_s, acc_s);
  });
}

// One row into a lane's sums, dev = x - mean: sb += dy and ss += dy*dev
// by fma. Binary64 in pass 1 (reduce_rows), binary32 in the group sums of
// binary16 inference (infer_half_rows).
template <class D, class V>
HWY_INLINE void add_row_sums(D d, V& sb, V& ss, V dy, V dev) {
  sb = hn::Add(sb, dy);
  ss = fused(d, dy, dev, ss);
}

// One row into a lane's magnitudes (docs/accuracy.md §4), always binary64:
// ab += |dy| and as += |dy|*|dev| by fma.
template <class D, class V>
HWY_INLINE void add_row_magnitudes(D d, V& ab, V& as, V dy, V dev) {
  ab = hn::Add(ab, hn::Abs(dy));
  as = fused(d, hn::Abs(dy), hn::Abs(dev), as);
}

// Pass 1's arithmetic, the one place it is written (binary64): lanes
// [l, l + Lanes(d)) of kRows consecutive wide rows from element `base`, each
// lane adding its rows one by one in row order into acc_b/acc_s (sums of dy
// and, by fma, dy*(x - mean)) and with kMagnitudes into abs_b/abs_s; with
// kWriteDx also inference dx = a*dy (binary32 data: binary16 inference is
// ReduceHalfInfer below). The per-lane coefficients and accumulators are
// loaded once per kRows rows.
template <DataType T, bool kWriteDx, bool kMagnitudes, std::int64_t kRows, class D>
HWY_INLINE void reduce_rows(D d, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                            double* acc_s, std::int64_t base, std::int64_t l) {
  using V = hn::Vec<D>;
  // Locals, which the stores below cannot be assumed to change (kLocalSpan).
  const std::int64_t W = s.width;
  const void* const x = s.x;
  const void* const dy_in = s.dy;
  void* const dx = s.dx;
  double* const abs_b = out.abs_b;
  double* const abs_s = out.abs_s;
  const V mu = hn::LoadU(d, s.mean + l);
  V sb = hn::LoadU(d, acc_b + l), ss = hn::LoadU(d, acc_s + l);
  V ab = hn::Zero(d), as = hn::Zero(d);
  if constexpr (kMagnitudes) {
    ab = hn::LoadU(d, abs_b + l);
    as = hn::LoadU(d, abs_s + l);
  }
  [[maybe_unused]] V k = hn::Zero(d);
  if constexpr (kWriteDx) k = hn::LoadU(d, s.a + l);
#pragma GCC unroll 4
  for (std::int64_t q = 0; q < kRows; ++q) {
    const std::int64_t i = base + q * W + l;
    const V dy = load<T>(d, dy_in, i);
    const V dev = hn::Sub(load<T>(d, x, i), mu);
    add_row_sums(d, sb, ss, dy, dev);
    if constexpr (kMagnitudes) add_row_magnitudes(d, ab, as, dy, dev);
    if constexpr (kWriteDx) store<T>(d, dx, i, hn::Mul(k, dy));
  }
  hn::StoreU(sb, d, acc_b + l);
  hn::StoreU(ss, d, acc_s + l);
  if constexpr (kMagnitudes) {
    hn::StoreU(ab, d, abs_b + l);
    hn::StoreU(as, d, abs_s + l);
  }
}

// Pass 1 in binary64 over a span, block by block of kBlockRows rows.
template <DataType T, bool kWriteDx, bool kMagnitudes>
void Reduce(const LaneSpan& span, const ReduceOut& out) {
  static_assert(T == DataType::f32 || !kWriteDx);
  const LaneSpan s = span;  // see kLocalSpan
  const std::int64_t l0 = s.lane_begin;
  const std::int64_t n = s.lane_end - l0;
  double* const acc_b = out.acc_b - l0;  // indexed by lane from here on
  double* const acc_s = out.acc_s - l0;
  const std::int64_t W = s.width;
  const bool at_once = rows_at_once_pay<T>(s, span_rows(s));
  for (std::int64_t rb = s.row_begin; rb < s.row_end; rb += kBlockRows) {
    const std::int64_t re = rb + kBlockRows < s.row_end ? rb + kBlockRows : s.row_end;
    for (std::int64_t k = 0; k < n; ++k) out.acc_b[k] = out.acc_s[k] = 0.0;
    std::int64_t r = rb;
    for (; at_once && r + kRowsAtOnce <= re && row_lane_end(s, r + kRowsAtOnce - 1) == s.lane_end;
         r += kRowsAtOnce) {
      for_lanes(DD(), l0, s.lane_end, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
        reduce_rows<T, kWriteDx, kMagnitudes, kRowsAtOnce>(d, s, out, acc_b, acc_s, r * W, l);
      });
    }
    for (; r < re; ++r) {
      for_lanes(DD(), l0, row_lane_end(s, r), [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
        reduce_rows<T, kWriteDx, kMagnitudes, 1>(d, s, out, acc_b, acc_s, r * W, l);
      });
    }
    add_block_totals(s, out, acc_b, acc_s);
  }
}

// Inference pass 1 of binary16 data (docs/accuracy.md §2.1). Each lane sums
// the rows of a block in groups of kHalfSumRows from the block's first row:
// dy and fma(dy, x - mean, .) in binary32 from 0 (add_row_sums, the formula of
// reduce_rows in binary32), each group sum then added in binary64 into
// acc_b/acc_s (indexed by lane). A lane whose sum_mean32 is NaN keeps pass 1's
// binary64 sums (reduce_rows itself). The magnitudes are binary64
// (add_row_magnitudes) either way, and dx is a32*dy in binary32.

// The binary64 lanes of a binary32 vector of D (exact widening): a full
// vector's two halves in two binary64 vectors, so that the binary32
// arithmetic keeps its 16 lanes per AVX-512 vector, and a single lane in one.
// (Highway 1.0.3 has no PromoteUpperTo: LowerHalf and UpperHalf.)
template <class D>
struct Wide {
  static constexpr std::size_t kParts = hn::MaxLanes(D()) > 1 ? 2 : 1;
  using DP = std::conditional_t<kParts == 2, hn::Half<D>, D>;  // one part's binary32 lanes
  using DW = hn::Rebind<double, DP>;
  hn::Vec<DW> part[kParts];
};

template <class D>
HWY_INLINE Wide<D> widen(D, hn::Vec<D> v) {
  using W = Wide<D>;
  const typename W::DW dw;
  if constexpr (W::kParts == 1) {
    return {{hn::PromoteTo(dw, v)}};
  }
#if HWY_TARGET != HWY_SCALAR  // one-lane vectors only, and no UpperHalf
  else {
    const typename W::DP dp;
    return {{hn::PromoteTo(dw, hn::LowerHalf(dp, v)), hn::PromoteTo(dw, hn::UpperHalf(dp, v))}};
  }
#endif
}

// Lanes l .. of a binary64 array, for the lanes of D.
template <class D>
HWY_INLINE Wide<D> load_wide(D, const double* p, std::int64_t l) {
  using W = Wide<D>;
  const typename W::DW dw;
  const auto n = static_cast<std::int64_t>(hn::Lanes(dw));
  if constexpr (W::kParts == 1) {
    return {{hn::LoadU(dw, p + l)}};
  } else {
    return {{hn::LoadU(dw, p + l), hn::LoadU(dw, p + l + n)}};
  }
}

template <class D>
HWY_INLINE void store_wide(D, const Wide<D>& w, double* p, std::int64_t l) {
  using W = Wide<D>;
  const typename W::DW dw;
  const auto n = static_cast<std::int64_t>(hn::Lanes(dw));
  for (std::size_t k = 0; k < W::kParts; ++k)
    hn::StoreU(w.part[k], dw, p + l + static_cast<std::int64_t>(k) * n);
}

// Binary32 v added into the binary64 accumulators acc, lane by lane.
template <class D>
HWY_INLINE void add_wide(D d, Wide<D>& acc, hn::Vec<D> v) {
  const Wide<D> w = widen(d, v);
  for (std::size_t k = 0; k < Wide<D>::kParts; ++k) acc.part[k] = hn::Add(acc.part[k], w.part[k]);
}

// Inference dx of binary16 data where t = a32*dy (binary32, the vector code's
// product) has a lane not below 65520 (overflow, NaN, a NaN coefficient:
// rare), and every lane on the portable path: store1 of t where it is below
// 65520 (round to nearest-even, like the vector conversion), else a*dy in
// binary64 as for binary32 data.
template <class D>
HWY_NOINLINE void store_infer_half_lanes(D ds, const LaneSpan& s, std::int64_t i, std::int64_t l,
                                         hn::Vec<D> t) {
  constexpr auto H = DataType::f16;
  HWY_ALIGN float tt[kMaxLanes * 2];
  hn::Store(t, ds, tt);
  for (std::size_t k = 0; k < hn::Lanes(ds); ++k) {
    const std::int64_t e = i + static_cast<std::int64_t>(k);
    if (std::fabs(tt[k]) < kHalfRoundsToInf) {
      store1<H>(s.dx, e, tt[k]);
    } else {
      store1<H>(s.dx, e, s.a[l + static_cast<std::int64_t>(k)] * load1<H>(s.dy, e));
    }
  }
}

// Inference dx of binary16 data, elements i .. (lanes l ..): a32*dy in
// binary32, rounded once to binary16.
// dx is s.dx, passed as the caller's local (kLocalSpan).
template <class D>
HWY_INLINE void infer_half_dx(D ds, const LaneSpan& s, void* dx, std::int64_t i, std::int64_t l,
                              hn::Vec<D> a32, hn::Vec<D> dy) {
  const hn::Vec<D> t = hn::Mul(a32, dy);
  if (HWY_UNLIKELY(!try_store_half(ds, dx, i, t))) store_infer_half_lanes(ds, s, i, l, t);
}

template <bool kMagnitudes, std::int64_t kRows, class D>
HWY_INLINE void infer_half_rows(D ds, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                double* acc_s, std::int64_t r, std::int64_t rows,
                                std::int64_t ahead, std::int64_t l);

// Lanes of a vector holding a lane whose sum_mean32 is NaN (rare), one by one:
// such a lane sums its rows with pass 1's binary64 formula (reduce_rows,
// magnitudes included), the others as infer_half_rows.
template <bool kMagnitudes, std::int64_t kRows, class D>
HWY_NOINLINE void infer_half_binary64_lanes(D ds, const LaneSpan& s, const ReduceOut& out,
                                            double* acc_b, double* acc_s, std::int64_t r,
                                            std::int64_t rows, std::int64_t l) {
  const D1<D> d1;
  const std::int64_t n_rows = kRows != 0 ? kRows : rows;
  for (std::size_t k = 0; k < hn::Lanes(ds); ++k) {
    const std::int64_t lane = l + static_cast<std::int64_t>(k);
    if (!std::isnan(s.sum_mean32[lane])) {
      infer_half_rows<kMagnitudes, kRows>(d1, s, out, acc_b, acc_s, r, rows, 0, lane);
      continue;
    }
    for (std::int64_t row = r; row < r + n_rows; ++row) {
      const std::int64_t i = row * s.width + lane;
      reduce_rows<DataType::f16, false, kMagnitudes, 1>(D1<DD>(), s, out, acc_b, acc_s,
                                                        row * s.width, lane);
      infer_half_dx(d1, s, s.dx, i, lane, hn::LoadU(d1, s.a32 + lane), load_half(d1, s.dy, i));
    }
  }
}

// Inference pass 1 of binary16 data, the one place it is written: lanes
// [l, l + Lanes(ds)) of rows [r, r + rows) (kRows of them, or `rows` where
// kRows is 0; r at a group boundary), every lane having every row. The
// per-lane coefficients and accumulators are loaded once for all the rows.
// The x and dy `ahead` elements on are prefetched, a line at a time
// (prefetch_ahead, ahead_for_lane; 0: none).
template <bool kMagnitudes, std::int64_t kRows, class D>
HWY_INLINE void infer_half_rows(D ds, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                double* acc_s, std::int64_t r, std::int64_t rows,
                                std::int64_t ahead, std::int64_t l) {
  using V = hn::Vec<D>;
  using W = Wide<D>;
  const V mu = hn::LoadU(ds, s.sum_mean32 + l);
  if (HWY_UNLIKELY(!hn::AllFalse(ds, hn::IsNaN(mu)))) {
    infer_half_binary64_lanes<kMagnitudes, kRows>(ds, s, out, acc_b, acc_s, r, rows, l);
    return;
  }
  // Locals, which the stores below cannot be assumed to change (kLocalSpan).
  const std::int64_t n_rows = kRows != 0 ? kRows : rows;
  const std::int64_t width = s.width;
  const void* const x = s.x;
  const void* const dy_in = s.dy;
  void* const dx = s.dx;
  double* const abs_b = out.abs_b;
  double* const abs_s = out.abs_s;
  const typename W::DW dw;
  const V a32 = hn::LoadU(ds, s.a32 + l);
  const std::int64_t line_ahead = ahead_for_lane(ahead, l);
  W sb = load_wide(ds, acc_b, l), ss = load_wide(ds, acc_s, l);
  [[maybe_unused]] W ab{}, as{}, mean{};
  if constexpr (kMagnitudes) {
    ab = load_wide(ds, abs_b, l);
    as = load_wide(ds, abs_s, l);
    mean = load_wide(ds, s.mean, l);
  }
#pragma GCC unroll 4
  for (std::int64_t g = 0; g < n_rows; g += kHalfSumRows) {
    V gb = hn::Zero(ds), gs = hn::Zero(ds);
    // A constant trip count where kRows is (whole groups): unrolled.
    for (std::int64_t k = 0; k < kHalfSumRows; ++k) {
      if (kRows == 0 && g + k == n_rows) break;
      const std::int64_t i = (r + g + k) * width + l;
      if (line_ahead != 0) {
        hwy::Prefetch(static_cast<const std::uint16_t*>(x) + i + line_ahead);
        hwy::Prefetch(static_cast<const std::uint16_t*>(dy_in) + i + line_ahead);
      }
      const V dy = load_half(ds, dy_in, i), xv = load_half(ds, x, i);
      add_row_sums(ds, gb, gs, dy, hn::Sub(xv, mu));
      if constexpr (kMagnitudes) {
        const W dy64 = widen(ds, dy), x64 = widen(ds, xv);
        for (std::size_t k = 0; k < W::kParts; ++k) {
          add_row_magnitudes(dw, ab.part[k], as.part[k], dy64.part[k],
                             hn::Sub(x64.part[k], mean.part[k]));
        }
      }
      infer_half_dx(ds, s, dx, i, l, a32, dy);
    }
    add_wide(ds, sb, gb);
    add_wide(ds, ss, gs);
  }
  store_wide(ds, sb, acc_b, l);
  store_wide(ds, ss, acc_s, l);
  if constexpr (kMagnitudes) {
    store_wide(ds, ab, abs_b, l);
    store_wide(ds, as, abs_s, l);
  }
}

// Rows [r, r + rows) of every lane (r at a group boundary): the lanes all
// the rows have, then the lanes a partial last row of the tensor lacks over
// the rows before it; whole vectors, then single lanes.
template <bool kMagnitudes, std::int64_t kRows>
void infer_half_group_rows(const LaneSpan& s, const ReduceOut& out, double* acc_b, double* acc_s,
                           std::int64_t r, std::int64_t rows, std::int64_t ahead) {
  // Only the last row can be partial, and it may end before the span begins.
  const std::int64_t l1 = std::max(s.lane_begin, row_lane_end(s, r + rows - 1));
  for_lanes(DS(), s.lane_begin, l1, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
    infer_half_rows<kMagnitudes, kRows>(d, s, out, acc_b, acc_s, r, rows, ahead, l);
  });
  if (rows > 1 && l1 < s.lane_end) {
    for_lanes(DS(), l1, s.lane_end, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
      infer_half_rows<kMagnitudes, 0>(d, s, out, acc_b, acc_s, r, rows - 1, 0, l);
    });
  }
}

template <bool kMagnitudes>
void ReduceHalfInfer(const LaneSpan& span, const ReduceOut& out) {
  static_assert(kRowsAtOnce % kHalfSumRows == 0, "four-row steps keep the groups aligned");
  const LaneSpan s = span;  // see kLocalSpan
  const std::int64_t l0 = s.lane_begin;
  const std::int64_t n = s.lane_end - l0;
  double* const acc_b = out.acc_b - l0;  // indexed by lane from here on
  double* const acc_s = out.acc_s - l0;
  const bool at_once = rows_at_once_pay<DataType::f16>(s, tensor_rows(s));
  const bool prefetch = half_prefetch_pays(s);
  for (std::int64_t rb = s.row_begin; rb < s.row_end; rb += kBlockRows) {
    const std::int64_t re = rb + kBlockRows < s.row_end ? rb + kBlockRows : s.row_end;
    for (std::int64_t k = 0; k < n; ++k) out.acc_b[k] = out.acc_s[k] = 0.0;
    std::int64_t r = rb;
    for (; at_once && r + kRowsAtOnce <= re; r += kRowsAtOnce) {
      infer_half_group_rows<kMagnitudes, kRowsAtOnce>(s, out, acc_b, acc_s, r, kRowsAtOnce,
                                                      prefetch_ahead(s, prefetch, r));
    }
    for (; r + kHalfSumRows <= re; r += kHalfSumRows) {
      infer_half_group_rows<kMagnitudes, kHalfSumRows>(s, out, acc_b, acc_s, r, kHalfSumRows,
                                                       prefetch_ahead(s, prefetch, r));
    }
    if (r < re) infer_half_group_rows<kMagnitudes, 0>(s, out, acc_b, acc_s, r, re - r, 0);
    add_block_totals(s, out, acc_b, acc_s);
  }
}

// Training dx of lane l: t, guarded at the overflow threshold by the run-time
// error bound (only asked for there: the bound's inputs are dy and d).
template <DataType T>
double guard_dx(const LaneSpan& s, std::int64_t l, double t, double dy, double d) {
  if (HWY_LIKELY(!(std::fabs(t) >= Limits<T>::overflow))) return t;
  return guard_overflow<Limits<T>>(t, s.dx_error_bound(s.bound_ctx, l, dy, d));
}

// Lanes of a vector try_store refused (rare), and every lane on the portable
// path: through guard_dx and store1 one by one, the scalar rules written once.
template <DataType T, class D>
HWY_NOINLINE void store_dx_guarded(D d, const LaneSpan& s, std::int64_t i, std::int64_t l,
                                   hn::Vec<D> t, hn::Vec<D> dy, hn::Vec<D> dev) {
  HWY_ALIGN double tt[kMaxLanes], ty[kMaxLanes], td[kMaxLanes];
  hn::Store(t, d, tt);
  hn::Store(dy, d, ty);
  hn::Store(dev, d, td);
  for (std::size_t k = 0; k < hn::Lanes(d); ++k) {
    const auto lane = l + static_cast<std::int64_t>(k);
    store1<T>(s.dx, i + static_cast<std::int64_t>(k), guard_dx<T>(s, lane, tt[k], ty[k], td[k]));
  }
}

template <DataType T, class D>
HWY_INLINE void store_dx(D d, const LaneSpan& s, std::int64_t i, std::int64_t l, hn::Vec<D> t,
                         hn::Vec<D> dy, hn::Vec<D> dev) {
  if constexpr (kHardwareConversions) {
    if (HWY_LIKELY(try_store<T>(d, s.dx, i, t))) return;
  }
  store_dx_guarded<T>(d, s, i, l, t, dy, dev);
}

// Pass 2's arithmetic in binary64, the one place it is written: lanes
// [l, l + Lanes(d)) of kRows consecutive wide rows from row r0,
// dx = fma(x - mean, nc, fma(a, dy, -b)), coefficients loaded once per kRows
// rows.
template <DataType T, std::int64_t kRows, class D>
HWY_INLINE void dx_rows(D d, const LaneSpan& s, std::int64_t r0, std::int64_t l) {
  using V = hn::Vec<D>;
  const std::int64_t W = s.width;  // locals: see kLocalSpan
  const void* const x = s.x;
  const void* const dy_in = s.dy;
  const V mu = hn::LoadU(d, s.mean + l), a = hn::LoadU(d, s.a + l);
  const V nb = hn::Neg(hn::LoadU(d, s.b + l)), nc = hn::LoadU(d, s.nc + l);
#pragma GCC unroll 4
  for (std::int64_t q = 0; q < kRows; ++q) {
    const std::int64_t i = (r0 + q) * W + l;
    const V dy = load<T>(d, dy_in, i);
    const V dev = hn::Sub(load<T>(d, x, i), mu);
    store_dx<T>(d, s, i, l, fused(d, dev, nc, fused(d, a, dy, nb)), dy, dev);
  }
}

// Pass 2's row order: first row to last, rows(first_row, count, lane_end)
// for groups of kRowsAtOnce whole rows where they pay, then single rows (a
// partial last row). Ascending, like pass 1: an interleaved A/B on the project machine
// (docs/performance.md) found the former last-rows-first order, meant to reuse
// what pass 1 left in the cache, 1.2-1.5x slower on the 4-16 MiB tensors:
// descending addresses defeat the hardware prefetchers, which matters more.
template <DataType T, class Rows>
void in_row_order(const LaneSpan& s, const Rows& rows) {
  std::int64_t r = s.row_begin;
  const bool at_once = rows_at_once_pay<T>(s, span_rows(s));
  for (; at_once && r + kRowsAtOnce <= s.row_end &&
         row_lane_end(s, r + kRowsAtOnce - 1) == s.lane_end;
       r += kRowsAtOnce) {
    rows(r, kRowsAtOnce, s.lane_end);
  }
  for (; r < s.row_end; ++r) rows(r, 1, row_lane_end(s, r));
}

template <DataType T>
void Apply(const LaneSpan& span) {
  const LaneSpan s = span;  // see kLocalSpan
  in_row_order<T>(s, [&](std::int64_t r0, std::int64_t rows, std::int64_t l1) {
    if (rows == kRowsAtOnce) {
      for_lanes(DD(), s.lane_begin, l1, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
        dx_rows<T, kRowsAtOnce>(d, s, r0, l);
      });
    } else {
      for_lanes(DD(), s.lane_begin, l1,
                [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA { dx_rows<T, 1>(d, s, r0, l); });
    }
  });
}

// Binary16 data: the lanes of t (the binary32 dx of row `row`, lanes l ..)
// that are below 65520 rounded once to binary16 with store1 (a binary32 value
// below 65520 rounds to nearest-even, like the vector conversion); the others
// (overflow, NaN, a NaN coefficient) redone in binary64, guarded.
template <class D>
HWY_NOINLINE void store_half_lanes(D ds, const LaneSpan& s, std::int64_t row, std::int64_t l,
                                   hn::Vec<D> t) {
  HWY_ALIGN float tt[kMaxLanes * 2];
  hn::Store(t, ds, tt);
  for (std::size_t k = 0; k < hn::Lanes(ds); ++k) {
    const std::int64_t lane = l + static_cast<std::int64_t>(k);
    if (std::fabs(tt[k]) < kHalfRoundsToInf) {
      store1<DataType::f16>(s.dx, row * s.width + lane, tt[k]);
    } else {
      dx_rows<DataType::f16, 1>(D1<DD>(), s, row, lane);
    }
  }
}

// Pass 2 of binary16 data in binary32 (docs/accuracy.md §3.1), the one place
// it is written: lanes [l, l + Lanes(ds)) of kRows rows from row r0,
// dx = fma(x - mean32, nc32, fma(a32, dy, nb32)), three roundings, then one
// to binary16 (store_half_lanes for a vector with a lane not below 65520).
template <std::int64_t kRows, class D>
HWY_INLINE void dx_half_rows(D ds, const LaneSpan& s, std::int64_t r0, std::int64_t l) {
  using V = hn::Vec<D>;
  const std::int64_t W = s.width;  // locals: see kLocalSpan
  const void* const x = s.x;
  const void* const dy_in = s.dy;
  void* const dx = s.dx;
  const V mu = hn::LoadU(ds, s.mean32 + l), a = hn::LoadU(ds, s.a32 + l);
  const V nb = hn::LoadU(ds, s.nb32 + l), nc = hn::LoadU(ds, s.nc32 + l);
#pragma GCC unroll 4
  for (std::int64_t q = 0; q < kRows; ++q) {
    const std::int64_t i = (r0 + q) * W + l;
    const V dev = hn::Sub(load_half(ds, x, i), mu);
    const V t = fused(ds, dev, nc, fused(ds, a, load_half(ds, dy_in, i), nb));
    if (HWY_UNLIKELY(!try_store_half(ds, dx, i, t))) store_half_lanes(ds, s, r0 + q, l, t);
  }
}

void ApplyHalf(const LaneSpan& span) {
  const LaneSpan s = span;  // see kLocalSpan
  in_row_order<DataType::f16>(s, [&](std::int64_t r0, std::int64_t rows, std::int64_t l1) {
    if (rows == kRowsAtOnce) {
      for_lanes(DS(), s.lane_begin, l1, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
        dx_half_rows<kRowsAtOnce>(d, s, r0, l);
      });
    } else {
      for_lanes(DS(), s.lane_begin, l1,
                [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA { dx_half_rows<1>(d, s, r0, l); });
    }
  });
}

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

// Channels of a vector whose dbias or dscale reaches the statistics type's
// overflow threshold (rare): the driver's guard stores them one by one.
template <class D>
HWY_NOINLINE void store_sums_guarded(D d, const CombineSpan& s, std::int64_t c, hn::Vec<D> db,
                                     hn::Vec<D> ds, hn::Vec<D> mb, hn::Vec<D> ms) {
  HWY_ALIGN double tb[kMaxLanes], ts[kMaxLanes], tmb[kMaxLanes], tms[kMaxLanes];
  hn::Store(db, d, tb);
  hn::Store(ds, d, ts);
  hn::Store(mb, d, tmb);
  hn::Store(ms, d, tms);
  for (std::size_t k = 0; k < hn::Lanes(d); ++k) {
    s.store_guarded(s.guard_ctx, c + static_cast<std::int64_t>(k), tb[k], ts[k], tmb[k], tms[k]);
  }
}

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
    store_sums_guarded(d, s, c, db, ds, mb, ms);
  } else {
    store<S>(d, s.dbias, c, db);
    store<S>(d, s.dscale, c, ds);
  }
  if (s.train) {
    const hn::Rebind<float, D> df;
    const V m = hn::Set(d, s.m);
    const V a = hn::LoadU(d, s.a + c);
    const V b = hn::Div(hn::Mul(a, db), m);
    const V nc = hn::Neg(hn::Div(hn::Mul(hn::Mul(a, iv), ds), m));
    for (std::int64_t l = c; l < s.width; l += s.channel) {
      hn::StoreU(b, d, s.b + l);
      hn::StoreU(nc, d, s.nc + l);
      if (s.nb32 != nullptr) {
        hn::StoreU(narrow_coefficients(d, hn::Neg(b)), df, s.nb32 + l);
        hn::StoreU(narrow_coefficients(d, nc), df, s.nc32 + l);
      }
    }
  }
}

template <DataType S>
void Combine(const CombineSpan& span, std::int64_t begin, std::int64_t end) {
  const CombineSpan s = span;  // see kLocalSpan
  for_lanes(DD(), begin, end,
            [&](auto d, std::int64_t c) BNG_INLINE_LAMBDA { combine_lanes<S>(d, s, c); });
}

// The per-lane coefficients from the statistics. a = scale * invar is exact:
// two binary32 significands fit in a binary64 one; mean is exact in binary32
// (a binary16 or binary32 value).
template <DataType S>
void Prepare(const LaneCoefficients& s, std::int64_t channel) {
  for_lanes(DD(), 0, channel, [&](auto d, std::int64_t c) BNG_INLINE_LAMBDA {
    const hn::Rebind<float, decltype(d)> df;
    const auto mu = load<S>(d, s.mean_in, c);
    const auto k = hn::Mul(load<S>(d, s.scale_in, c), load<S>(d, s.invar_in, c));
    hn::StoreU(mu, d, s.mean + c);
    hn::StoreU(k, d, s.a + c);
    if (s.a32 != nullptr) hn::StoreU(narrow_coefficients(d, k), df, s.a32 + c);
    if (s.mean32 != nullptr) hn::StoreU(hn::DemoteTo(df, mu), df, s.mean32 + c);
    if (s.sum_mean32 != nullptr) hn::StoreU(sum_means(d, mu), df, s.sum_mean32 + c);
  });
}
void PrepareF32(const LaneCoefficients& s, std::int64_t channel) {
  Prepare<DataType::f32>(s, channel);
}
void PrepareF16(const LaneCoefficients& s, std::int64_t channel) {
  Prepare<DataType::f16>(s, channel);
}

void CombineF32(const CombineSpan& s, std::int64_t begin, std::int64_t end) {
  Combine<DataType::f32>(s, begin, end);
}
void CombineF16(const CombineSpan& s, std::int64_t begin, std::int64_t end) {
  Combine<DataType::f16>(s, begin, end);
}

template <DataType T>
void ReduceAny(const LaneSpan& s, const ReduceOut& o, bool dx, bool mag) {
  if (dx) {
    if constexpr (T == DataType::f16) {
      mag ? ReduceHalfInfer<true>(s, o) : ReduceHalfInfer<false>(s, o);
    } else {
      mag ? Reduce<T, true, true>(s, o) : Reduce<T, true, false>(s, o);
    }
  } else {
    mag ? Reduce<T, false, true>(s, o) : Reduce<T, false, false>(s, o);
  }
}
void ReduceF32(const LaneSpan& s, const ReduceOut& o, bool dx, bool mag) {
  ReduceAny<DataType::f32>(s, o, dx, mag);
}
void ReduceF16(const LaneSpan& s, const ReduceOut& o, bool dx, bool mag) {
  ReduceAny<DataType::f16>(s, o, dx, mag);
}
void ApplyF32(const LaneSpan& s) {
  Apply<DataType::f32>(s);
}
void ApplyF16(const LaneSpan& s) {
  ApplyHalf(s);
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bng::opt {
HWY_EXPORT(ReduceF32);
HWY_EXPORT(ReduceF16);
HWY_EXPORT(ApplyF32);
HWY_EXPORT(ApplyF16);
HWY_EXPORT(CombineF32);
HWY_EXPORT(CombineF16);
HWY_EXPORT(PrepareF32);
HWY_EXPORT(PrepareF16);

void prepare_lanes(DataType stats, const LaneCoefficients& s, std::int64_t channel) {
  select_isa();
  stats == DataType::f32 ? HWY_DYNAMIC_DISPATCH(PrepareF32)(s, channel)
                         : HWY_DYNAMIC_DISPATCH(PrepareF16)(s, channel);
}

void combine_channels(DataType stats, const CombineSpan& s, std::int64_t begin, std::int64_t end) {
  select_isa();
  stats == DataType::f32 ? HWY_DYNAMIC_DISPATCH(CombineF32)(s, begin, end)
                         : HWY_DYNAMIC_DISPATCH(CombineF16)(s, begin, end);
}

void reduce_span(DataType t, const LaneSpan& s, const ReduceOut& out, bool write_dx,
                 bool magnitudes) {
  select_isa();
  t == DataType::f32 ? HWY_DYNAMIC_DISPATCH(ReduceF32)(s, out, write_dx, magnitudes)
                     : HWY_DYNAMIC_DISPATCH(ReduceF16)(s, out, write_dx, magnitudes);
}

void apply_span(DataType t, const LaneSpan& s) {
  select_isa();
  t == DataType::f32 ? HWY_DYNAMIC_DISPATCH(ApplyF32)(s) : HWY_DYNAMIC_DISPATCH(ApplyF16)(s);
}
}  // namespace bng::opt
#endif
