// Per instruction set (Highway -inl.h): pass 1, the per-lane sums, in
// binary64. Per block of kBlockRows rows, each lane sums dy and dy*(x - mean)
// in row order (reduce_rows, the one place that arithmetic is written), and
// the block totals go error-free (TwoSum) into the lanes' (hi, lo) pairs,
// which combine-inl.h then adds per channel. for_blocks, the block loop, is
// shared with binary16 inference's pass 1 (reduce_half_infer-inl.h).
#if defined(BNG_OPTIMIZED_REDUCE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_REDUCE_INL_H_
#undef BNG_OPTIMIZED_REDUCE_INL_H_
#else
#define BNG_OPTIMIZED_REDUCE_INL_H_
#endif

#include <cstdint>

#include <hwy/highway.h>

#include "bng/optimized/partition.hpp"
#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/lanes-inl.h"
#include "lane_kernels/rows-inl.h"
#include "lane_kernels/store-inl.h"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// The block totals acc_b, acc_s (indexed by lane) into the lanes' (hi, lo)
// pairs, error-free.
inline void add_block_totals(const LaneSpan& s, const ReduceOut& out, const double* acc_b,
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

// Pass 1's block loop, for both kinds of reduce: per block of kBlockRows rows
// of span s, the lanes' block sums (acc_b, acc_s, indexed by lane) from zero,
// block_rows(rb, re, acc_b, acc_s) adding rows [rb, re) into them, then the
// block totals into the (hi, lo) pairs.
template <class BlockRows>
HWY_INLINE void for_blocks(const LaneSpan& s, const ReduceOut& out, const BlockRows& block_rows) {
  const std::int64_t l0 = s.lane_begin;
  const std::int64_t n = s.lane_end - l0;
  double* const acc_b = out.acc_b - l0;  // indexed by lane from here on
  double* const acc_s = out.acc_s - l0;
  for (std::int64_t rb = s.row_begin; rb < s.row_end; rb += kBlockRows) {
    const std::int64_t re = rb + kBlockRows < s.row_end ? rb + kBlockRows : s.row_end;
    for (std::int64_t k = 0; k < n; ++k) out.acc_b[k] = out.acc_s[k] = 0.0;
    block_rows(rb, re, acc_b, acc_s);
    add_block_totals(s, out, acc_b, acc_s);
  }
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

// Inference dx of kRows rows (lanes l ..) stored again from a*dy rounded to
// odd through `store_nearest`, where must_store_again saw a product that may be a
// binary32 boundary (watch_products) or a lane out of the vector store's
// range (store_watched): rare. Inline: a call in the hot loops made the
// compiler keep their row pointers on the stack (measured 10-20 % slower).
template <DataType T, std::int64_t kRows, class D>
HWY_INLINE void store_dx_rounded_to_odd(D d, const LaneSpan& s, std::int64_t base, std::int64_t l,
                                        hn::Vec<D> k) {
  for (std::int64_t q = 0; q < kRows; ++q) {
    const std::int64_t i = base + q * s.width + l;
    store_nearest<T>(d, s.dx, i, product_rounded_to_odd(d, k, load<T>(d, s.dy, i)));
  }
}

// Pass 1's arithmetic, the one place it is written (binary64): lanes
// [l, l + Lanes(d)) of kRows consecutive wide rows from element `base`, each
// lane adding its rows one by one in row order into acc_b/acc_s (sums of dy
// and, by fma, dy*(x - mean)) and with kMagnitudes into abs_b/abs_s; with
// kWriteDx also inference dx = RN32(a*dy), rounded once (binary32 data:
// binary16 inference is ReduceHalfInfer): out of place its products and
// stores are watched into seen/top (watch_products, store_watched) for the
// caller's must_store_again; in place each vector is decided before its
// store. The per-lane coefficients and accumulators are loaded once per
// kRows rows.
template <DataType T, bool kWriteDx, bool kMagnitudes, std::int64_t kRows, class D,
          class VU = hn::Vec<hn::RebindToUnsigned<D>>>
HWY_INLINE void reduce_rows_watched(D d, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                    double* acc_s, std::int64_t base, std::int64_t l, VU& seen,
                                    StoreTop<D>& top) {
  using V = hn::Vec<D>;
  // Inference with magnitudes is exactly an in-place call (Plan::magnitudes,
  // call_plan.hpp: dx == x or dx == dy), whose rows are gone once stored.
  constexpr bool kInPlace = kWriteDx && kMagnitudes;
  // Locals, which the stores below cannot be assumed to change (kLocalSpan).
  const std::int64_t W = s.width;
  const void* const x = s.x;
  const void* const dy_in = s.dy;
  void* const dx = s.dx;
  double* const abs_b = out.abs_b;
  double* const abs_s = out.abs_s;
  const V mu = hn::LoadU(d, s.lanes.mean + l);
  V sb = hn::LoadU(d, acc_b + l), ss = hn::LoadU(d, acc_s + l);
  V ab = hn::Zero(d), as = hn::Zero(d);
  if constexpr (kMagnitudes) {
    ab = hn::LoadU(d, abs_b + l);
    as = hn::LoadU(d, abs_s + l);
  }
  [[maybe_unused]] V k = hn::Zero(d);
  if constexpr (kWriteDx) k = hn::LoadU(d, s.lanes.a + l);
#pragma GCC unroll 4
  for (std::int64_t q = 0; q < kRows; ++q) {
    const std::int64_t i = base + q * W + l;
    const V dy = load<T>(d, dy_in, i);
    const V dev = hn::Sub(load<T>(d, x, i), mu);
    add_row_sums(d, sb, ss, dy, dev);
    if constexpr (kMagnitudes) add_row_magnitudes(d, ab, as, dy, dev);
    if constexpr (kInPlace) {
      // The rows cannot be read again: each vector is decided before its store.
      store_nearest<T>(d, dx, i, product_for_output<23>(d, k, dy));
    } else if constexpr (kWriteDx) {
      const V p = hn::Mul(k, dy);
      if constexpr (kHardwareConversions) {
        store_watched<T>(d, dx, i, p, top);
      } else {
        store_nearest<T>(d, dx, i, p);
      }
      watch_products(d, seen, p);
    }
  }
  hn::StoreU(sb, d, acc_b + l);
  hn::StoreU(ss, d, acc_s + l);
  if constexpr (kMagnitudes) {
    hn::StoreU(ab, d, abs_b + l);
    hn::StoreU(as, d, abs_s + l);
  }
}

// reduce_rows_watched on its own: inference dx watched over its kRows rows.
template <DataType T, bool kWriteDx, bool kMagnitudes, std::int64_t kRows, class D>
HWY_INLINE void reduce_rows(D d, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                            double* acc_s, std::int64_t base, std::int64_t l) {
  auto seen = hn::Zero(hn::RebindToUnsigned<D>());
  auto top = hn::Zero(hn::Rebind<std::int32_t, D>());
  reduce_rows_watched<T, kWriteDx, kMagnitudes, kRows>(d, s, out, acc_b, acc_s, base, l, seen, top);
  if constexpr (kWriteDx && !kMagnitudes) {  // out of place (see kInPlace)
    // Rare: `a` is simply loaded again rather than handed out of the loop above.
    if (HWY_UNLIKELY(must_store_again<T>(d, seen, top))) {
      store_dx_rounded_to_odd<T, kRows>(d, s, base, l, hn::LoadU(d, s.lanes.a + l));
    }
  }
}

// Out-of-place inference on one row at a time (rows_at_once_pay: narrow
// streamed tensors): row r's whole vectors watched together and tested once
// (a test per vector cost up to 20 % there), its single lanes one by one
// (for_lanes' order).
template <DataType T, class D>
HWY_INLINE void reduce_inference_row(D d, const LaneSpan& s, const ReduceOut& out, double* acc_b,
                                     double* acc_s, std::int64_t r) {
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const std::int64_t base = r * s.width;
  const std::int64_t l1 = row_lane_end(s, r);
  auto seen = hn::Zero(hn::RebindToUnsigned<D>());
  auto top = hn::Zero(hn::Rebind<std::int32_t, D>());
  std::int64_t l = s.lane_begin;
  for (; l + N <= l1; l += N) {
    reduce_rows_watched<T, true, false, 1>(d, s, out, acc_b, acc_s, base, l, seen, top);
  }
  if (HWY_UNLIKELY(must_store_again<T>(d, seen, top))) {
    for (std::int64_t v = s.lane_begin; v + N <= l1; v += N) {
      store_dx_rounded_to_odd<T, 1>(d, s, base, v, hn::LoadU(d, s.lanes.a + v));
    }
  }
  for (; l < l1; ++l) reduce_rows<T, true, false, 1>(D1<D>(), s, out, acc_b, acc_s, base, l);
}

// Pass 1 in binary64 over a span.
template <DataType T, bool kWriteDx, bool kMagnitudes>
void Reduce(const LaneSpan& span, const ReduceOut& out) {
  static_assert(T == DataType::f32 || !kWriteDx);
  const LaneSpan s = span;  // see kLocalSpan
  const std::int64_t W = s.width;
  const bool at_once = rows_at_once_pay<T>(s, span_rows(s));
  for_blocks(s, out,
             [&](std::int64_t rb, std::int64_t re, double* acc_b, double* acc_s) BNG_INLINE_LAMBDA {
               if constexpr (kWriteDx && !kMagnitudes) {
                 if (!at_once) {
                   for (std::int64_t r = rb; r < re; ++r) {
                     reduce_inference_row<T>(DD(), s, out, acc_b, acc_s, r);
                   }
                   return;
                 }
               }
               for_rows(DD(), s, rb, re, at_once,
                        [&](auto rows, auto d, std::int64_t r, std::int64_t l) BNG_INLINE_LAMBDA {
                          reduce_rows<T, kWriteDx, kMagnitudes, decltype(rows)::value>(
                              d, s, out, acc_b, acc_s, r * W, l);
                        });
             });
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_REDUCE_INL_H_
