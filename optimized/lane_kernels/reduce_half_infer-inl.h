// Per instruction set (Highway -inl.h): pass 1 of inference on binary16 data
// (docs/accuracy.md §2.1), which also writes dx. Each lane sums the rows of a
// block in groups of kHalfSumRows from the block's first row: dy and
// fma(dy, x - mean, .) in binary32 from 0 (add_row_sums, the formula of
// reduce_rows in binary32), each group sum then added in binary64 into
// acc_b/acc_s (indexed by lane); the blocks are reduce-inl.h's for_blocks. A
// lane whose sum_mean32 is NaN keeps pass 1's binary64 sums (reduce_rows
// itself). The magnitudes are binary64 (add_row_magnitudes) either way, and
// dx is RN16(y*), y* = a*dy rounded once: from t = a32*dy where that is
// decided (watch_products for hp, watch_rounded_products for mp, whose a32 is
// itself rounded), else from the exact product rounded to odd.
#if defined(BNG_OPTIMIZED_REDUCE_HALF_INFER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_REDUCE_HALF_INFER_INL_H_
#undef BNG_OPTIMIZED_REDUCE_HALF_INFER_INL_H_
#else
#define BNG_OPTIMIZED_REDUCE_HALF_INFER_INL_H_
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/lanes-inl.h"
#include "lane_kernels/reduce-inl.h"
#include "lane_kernels/rows-inl.h"
#include "lane_kernels/store-inl.h"
#include "scalar_elements.hpp"

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

// Inference dx of binary16 data where t = a32*dy (binary32, the vector code's
// product) has a lane not below 65520 (overflow, NaN, a NaN coefficient:
// rare), and every lane on the portable path: store1_nearest of t where it is below
// 65520 (round to nearest-even, like the vector conversion), else a*dy
// rounded to odd in binary64: exact for hp; for mp (a has up to 48 bits) the
// one rounding store1_nearest then makes is RN16(a*dy), where a binary64 product
// rounded to nearest could reach 2^16 (Inf) from an exact product below it.
// Out of line with its scalars as arguments, so that the hot loop builds
// nothing for it (measured: a closure built there cost binary16 inference up
// to 15 % on streamed narrow tensors).
template <class D>
HWY_NOINLINE void store_infer_half_lanes(D ds, void* dx, const double* a, const void* dy,
                                         std::int64_t i, std::int64_t l, hn::Vec<D> t) {
  constexpr auto H = DataType::f16;
  each_lane(
      ds,
      [dx, a, dy, i, l](std::size_t k, float tk) {
        const std::int64_t e = i + static_cast<std::int64_t>(k);
        if (std::fabs(tk) < kHalfRoundsToInf) {
          store1_nearest<H>(dx, e, tk);
        } else {
          const D1<DD> d1;
          const auto ak = hn::Set(d1, a[l + static_cast<std::int64_t>(k)]);
          store1_nearest<H>(
              dx, e, hn::GetLane(product_rounded_to_odd(d1, ak, hn::Set(d1, load1<H>(dy, e)))));
        }
      },
      t);
}

// Inference dx of binary16 data, elements i .. (lanes l ..), from t, a
// binary32 stand-in for a32*dy: the product itself where the caller watches
// it (watch_products, watch_rounded_products), else product_for_output's
// (hp, whose a32 is scale*invar exactly) or the product that
// rounded_product_decided passed (mp). dx is s.dx, passed as the caller's
// local (kLocalSpan).
template <class D>
HWY_INLINE void infer_half_dx(D ds, const LaneSpan& s, void* dx, std::int64_t i, std::int64_t l,
                              hn::Vec<D> t) {
  if (HWY_UNLIKELY(!try_store<DataType::f16>(ds, dx, i, t))) {
    store_infer_half_lanes(ds, dx, s.lanes.a, s.dy, i, l, t);
  }
}

// mp (binary32 statistics): a32 = RN32(scale*invar) is itself rounded, so
// t = RN32(a32*dy) lies within 1.5 ulp32(t) of y* = a*dy, not half an ulp
// (docs/accuracy.md §2.2, proofs/mp_rounded_product.g), and RN16(t) =
// RN16(y*) unless t is within kMidpointMarginUlps (1) binary32 ulps of a
// binary16 midpoint. On u = |t|, or |t| + 2^-14 below 2^-14 (binary16's
// subnormal spacing 2^-24 becomes the low 13 bits of u's binade), a
// midpoint's low 13 bits are 1 then 12 zeros. Each lane keeps in `near` the
// least of (low 13 bits of u) + margin - 2^12, mod 2^13, over its products:
// at most 2 * margin where one was that close (must_store_half_again). It
// also keeps store_watched's `top` from the same |t| (mp's hot loop stores
// with store_half_converted): one operation less, 2-4 % on mp inference.
// Seven operations against watch_products' three, and a flag for about
// 2^-11.4 of the products instead of 2^-12.
template <class D, class V = hn::Vec<D>, class VI = hn::Vec<hn::RebindToSigned<D>>>
HWY_INLINE void watch_rounded_products(D ds, VI& near, StoreTop<D>& top, V t) {
  const hn::RebindToSigned<D> di;  // signed: Highway 1.0 compares no unsigned x86 lanes
  const V mag = hn::Abs(t);
  top = hn::Max(top, hn::BitCast(di, mag));
  const V subnormal_top = hn::Set(ds, 0x1p-14f);
  const V u = hn::IfThenElse(hn::Lt(mag, subnormal_top), hn::Add(mag, subnormal_top), mag);
  constexpr std::int32_t kMidpointBits = 0x1000, kLowBits = 0x1fff;
  const auto code =
      hn::And(hn::Add(hn::BitCast(di, u), hn::Set(di, kMidpointMarginUlps - kMidpointBits)),
              hn::Set(di, kLowBits));
  near = hn::Min(near, code);
}

// What the hot loops watch their products with: watch_products where a32 is
// scale*invar exactly (hp: t is within half an ulp32 of y*, so only a
// midpoint itself is undecided), watch_rounded_products where it is rounded
// (mp). The watch starts at watch_start and is decided by
// must_store_half_again, with `top` (a lane not below 65520: store_watched's,
// or for mp watch_rounded_products').
template <bool kRoundedA32, class D>
HWY_INLINE auto watch_start(D) {
  if constexpr (kRoundedA32) {
    return hn::Set(hn::RebindToSigned<D>(), std::int32_t{0x7fffffff});
  } else {
    return hn::Zero(hn::RebindToUnsigned<D>());
  }
}

template <bool kRoundedA32, class D, class VW>
HWY_INLINE bool must_store_half_again(D ds, VW watch, StoreTop<D> top) {
  if constexpr (kRoundedA32) {
    const hn::Rebind<std::int32_t, D> di;
    return !hn::AllFalse(di, hn::Lt(watch, hn::Set(di, 2 * kMidpointMarginUlps + 1))) ||
           stored_beyond_range<DataType::f16>(ds, top);
  } else {
    return must_store_again<DataType::f16>(ds, watch, top);
  }
}

// mp: whether t = a32*dy (one vector) rounds to RN16(y*) in the vector
// store: no product within an ulp of a binary16 midpoint, no lane from
// 65520 on (or NaN).
template <class D>
HWY_INLINE bool rounded_product_decided(D ds, hn::Vec<D> t) {
  const hn::Rebind<std::int32_t, D> di;
  auto near = watch_start<true>(ds);
  auto top = hn::Zero(di);
  watch_rounded_products(ds, near, top, t);
  return !must_store_half_again<true>(ds, near, top);
}

// mp's last tier: dx of one vector (row `row`, lanes l ..) from the exact
// a*dy, the binary64 a (48 bits) times dy rounded to odd in binary64, then
// stored (store_nearest<f16>: RN16, ±Inf from 65520 on), in binary64
// vectors of half the lanes. Each element's dy is read before its dx is
// written, so it is right in place on dy too.
template <class D>
HWY_INLINE void store_half_dx_from_exact(D ds, const LaneSpan& s, std::int64_t row,
                                         std::int64_t l) {
  const typename Wide<D>::DW dw;
  const auto n = static_cast<std::int64_t>(hn::Lanes(dw));
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(hn::Lanes(ds)); j += n) {
    store_dx_rounded_to_odd<DataType::f16, 1>(dw, s, row * s.width, l + j,
                                              hn::LoadU(dw, s.lanes.a + l + j));
  }
}

// Inference dx of n_rows rows from row r (lanes l ..) stored again where
// must_store_half_again saw a product that may round otherwise than y*, or a
// lane out of the vector store's range (store_watched): rare, but inline (see
// store_dx_rounded_to_odd). hp: a32*dy rounded to odd in binary32 (a32 is
// exact), through infer_half_dx. mp: each row's vector tested again on its
// own (rounded_product_decided), and only a row that fails it taken from the
// exact product: a whole group in binary64 cost mp inference 7-12 %.
template <bool kRoundedA32, class D>
HWY_INLINE void store_half_dx_again(D ds, const LaneSpan& s, std::int64_t r, std::int64_t n_rows,
                                    std::int64_t l, hn::Vec<D> a32) {
  for (std::int64_t row = r; row < r + n_rows; ++row) {
    const std::int64_t i = row * s.width + l;
    const hn::Vec<D> dy = load<DataType::f16>(ds, s.dy, i);
    if constexpr (kRoundedA32) {
      if (!rounded_product_decided(ds, hn::Mul(a32, dy))) store_half_dx_from_exact(ds, s, row, l);
    } else {
      infer_half_dx(ds, s, s.dx, i, l, product_rounded_to_odd(ds, a32, dy));
    }
  }
}

// Inference dx of one vector (row `row`, lanes l ..), decided before its
// store: in place on dy (whose rows are gone once stored) and for the lanes
// of infer_half_binary64_lanes.
template <bool kRoundedA32, class D>
HWY_INLINE void infer_half_dx_decided(D ds, const LaneSpan& s, void* dx, std::int64_t row,
                                      std::int64_t l, hn::Vec<D> a32, hn::Vec<D> dy) {
  const std::int64_t i = row * s.width + l;
  if constexpr (kRoundedA32) {
    const hn::Vec<D> t = hn::Mul(a32, dy);
    if (HWY_LIKELY(rounded_product_decided(ds, t))) {
      infer_half_dx(ds, s, dx, i, l, t);
    } else {
      store_half_dx_from_exact(ds, s, row, l);
    }
  } else {
    infer_half_dx(ds, s, dx, i, l, product_for_output<10>(ds, a32, dy));
  }
}

template <bool kMagnitudes, bool kRoundedA32, std::int64_t kRows, class D>
HWY_INLINE void infer_half_rows(D ds, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                double* acc_s, std::int64_t r, std::int64_t rows,
                                std::int64_t ahead, std::int64_t l);

// Lanes of a vector holding a lane whose sum_mean32 is NaN (rare), one by one:
// such a lane sums its rows with pass 1's binary64 formula (reduce_rows,
// magnitudes included), the others as infer_half_rows.
template <bool kMagnitudes, bool kRoundedA32, std::int64_t kRows, class D>
HWY_NOINLINE void infer_half_binary64_lanes(D ds, const LaneSpan& s, const ReduceOut& out,
                                            double* acc_b, double* acc_s, std::int64_t r,
                                            std::int64_t rows, std::int64_t l) {
  const D1<D> d1;
  const std::int64_t n_rows = kRows != 0 ? kRows : rows;
  for (std::size_t k = 0; k < hn::Lanes(ds); ++k) {
    const std::int64_t lane = l + static_cast<std::int64_t>(k);
    if (!std::isnan(s.lanes.sum_mean32[lane])) {
      infer_half_rows<kMagnitudes, kRoundedA32, kRows>(d1, s, out, acc_b, acc_s, r, rows, 0, lane);
      continue;
    }
    for (std::int64_t row = r; row < r + n_rows; ++row) {
      reduce_rows<DataType::f16, false, kMagnitudes, 1>(D1<DD>(), s, out, acc_b, acc_s,
                                                        row * s.width, lane);
      infer_half_dx_decided<kRoundedA32>(d1, s, s.dx, row, lane, hn::LoadU(d1, s.lanes.a32 + lane),
                                         load<DataType::f16>(d1, s.dy, row * s.width + lane));
    }
  }
}

// Inference pass 1 of binary16 data, the one place it is written: lanes
// [l, l + Lanes(ds)) of rows [r, r + rows) (kRows of them, or `rows` where
// kRows is 0; r at a group boundary), every lane having every row. The
// per-lane coefficients and accumulators are loaded once for all the rows.
// The x and dy `ahead` elements on are prefetched, a line at a time
// (prefetch_ahead, ahead_for_lane; 0: none).
template <bool kMagnitudes, bool kRoundedA32, std::int64_t kRows, class D>
HWY_INLINE void infer_half_rows(D ds, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                double* acc_s, std::int64_t r, std::int64_t rows,
                                std::int64_t ahead, std::int64_t l) {
  using V = hn::Vec<D>;
  using W = Wide<D>;
  constexpr auto H = DataType::f16;
  const V mu = hn::LoadU(ds, s.lanes.sum_mean32 + l);
  if (HWY_UNLIKELY(!hn::AllFalse(ds, hn::IsNaN(mu)))) {
    infer_half_binary64_lanes<kMagnitudes, kRoundedA32, kRows>(ds, s, out, acc_b, acc_s, r, rows,
                                                               l);
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
  const V a32 = hn::LoadU(ds, s.lanes.a32 + l);
  const std::int64_t line_ahead = ahead_for_lane(ahead, l);
  typename W::V sb_lo, sb_hi, ss_lo, ss_hi;
  load_wide(ds, acc_b, l, sb_lo, sb_hi);
  load_wide(ds, acc_s, l, ss_lo, ss_hi);
  [[maybe_unused]] typename W::V ab_lo, ab_hi, as_lo, as_hi, mean_lo, mean_hi;
  if constexpr (kMagnitudes) {
    load_wide(ds, abs_b, l, ab_lo, ab_hi);
    load_wide(ds, abs_s, l, as_lo, as_hi);
    load_wide(ds, s.lanes.mean, l, mean_lo, mean_hi);
  }
  // Watched once for all the rows out of place: products (watch_products
  // or watch_rounded_products), and stores (store_watched's top).
  [[maybe_unused]] auto seen = watch_start<kRoundedA32>(ds);
  [[maybe_unused]] auto top = hn::Zero(hn::Rebind<std::int32_t, D>());
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
      const V dy = load<H>(ds, dy_in, i), xv = load<H>(ds, x, i);
      add_row_sums(ds, gb, gs, dy, hn::Sub(xv, mu));
      if constexpr (kMagnitudes) {
        typename W::V dy_lo, dy_hi, x_lo, x_hi;
        widen(ds, dy, dy_lo, dy_hi);
        widen(ds, xv, x_lo, x_hi);
        add_row_magnitudes(dw, ab_lo, as_lo, dy_lo, hn::Sub(x_lo, mean_lo));
        if constexpr (W::kTwo) add_row_magnitudes(dw, ab_hi, as_hi, dy_hi, hn::Sub(x_hi, mean_hi));
      }
      if constexpr (kMagnitudes) {
        // In place (Plan::magnitudes): dx may overwrite dy, so the rows
        // cannot be read again, and each vector is decided before its store.
        infer_half_dx_decided<kRoundedA32>(ds, s, dx, r + g + k, l, a32, dy);
      } else {
        const V t = hn::Mul(a32, dy);
        if constexpr (!kHardwareConversions) {
          infer_half_dx(ds, s, dx, i, l, t);
        } else if constexpr (kRoundedA32) {
          store_half_converted(ds, dx, i, t);
        } else {
          store_watched<H>(ds, dx, i, t, top);
        }
        if constexpr (kRoundedA32) {
          watch_rounded_products(ds, seen, top, t);
        } else {
          watch_products(ds, seen, t);
        }
      }
    }
    add_wide(ds, sb_lo, sb_hi, gb);
    add_wide(ds, ss_lo, ss_hi, gs);
  }
  if constexpr (!kMagnitudes) {
    if (HWY_UNLIKELY(must_store_half_again<kRoundedA32>(ds, seen, top))) {
      store_half_dx_again<kRoundedA32>(ds, s, r, n_rows, l, a32);
    }
  }
  store_wide(ds, sb_lo, sb_hi, acc_b, l);
  store_wide(ds, ss_lo, ss_hi, acc_s, l);
  if constexpr (kMagnitudes) {
    store_wide(ds, ab_lo, ab_hi, abs_b, l);
    store_wide(ds, as_lo, as_hi, abs_s, l);
  }
}

// Rows [r, r + rows) of every lane (r at a group boundary): the lanes all
// the rows have, then the lanes a partial last row of the tensor lacks over
// the rows before it; whole vectors, then single lanes.
template <bool kMagnitudes, bool kRoundedA32, std::int64_t kRows>
HWY_INLINE void infer_half_group_rows(const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                      double* acc_s, std::int64_t r, std::int64_t rows,
                                      std::int64_t ahead) {
  // Only the last row can be partial, and it may end before the span begins.
  const std::int64_t l1 = std::max(s.lane_begin, row_lane_end(s, r + rows - 1));
  for_lanes(DS(), s.lane_begin, l1, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
    infer_half_rows<kMagnitudes, kRoundedA32, kRows>(d, s, out, acc_b, acc_s, r, rows, ahead, l);
  });
  if (rows > 1 && l1 < s.lane_end) {
    for_lanes(DS(), l1, s.lane_end, [&](auto d, std::int64_t l) BNG_INLINE_LAMBDA {
      infer_half_rows<kMagnitudes, kRoundedA32, 0>(d, s, out, acc_b, acc_s, r, rows - 1, 0, l);
    });
  }
}

// Groups of four rows where they pay, then of kHalfSumRows, then the rest.
template <bool kMagnitudes, bool kRoundedA32>
void ReduceHalfInfer(const LaneSpan& span, const ReduceOut& out) {
  static_assert(kRowsAtOnce % kHalfSumRows == 0, "four-row steps keep the groups aligned");
  const LaneSpan s = span;  // see kLocalSpan
  const bool at_once = rows_at_once_pay<DataType::f16>(s, tensor_rows(s));
  const bool prefetch = half_prefetch_pays(s);
  for_blocks(s, out,
             [&](std::int64_t rb, std::int64_t re, double* acc_b, double* acc_s) BNG_INLINE_LAMBDA {
               std::int64_t r = rb;
               for (; at_once && r + kRowsAtOnce <= re; r += kRowsAtOnce) {
                 infer_half_group_rows<kMagnitudes, kRoundedA32, kRowsAtOnce>(
                     s, out, acc_b, acc_s, r, kRowsAtOnce, prefetch_ahead(s, prefetch, r));
               }
               for (; r + kHalfSumRows <= re; r += kHalfSumRows) {
                 infer_half_group_rows<kMagnitudes, kRoundedA32, kHalfSumRows>(
                     s, out, acc_b, acc_s, r, kHalfSumRows, prefetch_ahead(s, prefetch, r));
               }
               if (r < re)
                 infer_half_group_rows<kMagnitudes, kRoundedA32, 0>(s, out, acc_b, acc_s, r, re - r,
                                                                    0);
             });
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_REDUCE_HALF_INFER_INL_H_
