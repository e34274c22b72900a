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
// itself rounded), else from the exact product rounded to odd. This file
// holds the pass's loops; the rounding and watching of dx are
// half_infer_dx-inl.h's, the binary64 lanes of its binary32 vectors
// (Wide, load_wide, add_wide ...) wide_lanes-inl.h's.
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

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/half_infer_dx-inl.h"
#include "lane_kernels/lanes-inl.h"
#include "lane_kernels/reduce-inl.h"
#include "lane_kernels/rows-inl.h"
#include "lane_kernels/store-inl.h"
#include "lane_kernels/wide_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

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
