// Per instruction set (Highway -inl.h): pass 2, training dx, after combine
// has given every lane b and nc. Binary32 data: dx = fma(x - mean, nc,
// fma(a, dy, -b)) in binary64, two roundings, then guard_overflow
// (output_rounding.hpp) with the run-time bound (DxRows). Binary16 data: the
// same formula in binary32 and one rounding to binary16, a lane redone as
// above where its binary32 result is not below 65520 (DxHalfRows,
// docs/accuracy.md §3.1). One Apply<RowKernel> runs either over a span's rows.
#if defined(BNG_OPTIMIZED_APPLY_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_APPLY_INL_H_
#undef BNG_OPTIMIZED_APPLY_INL_H_
#else
#define BNG_OPTIMIZED_APPLY_INL_H_
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/lanes-inl.h"
#include "lane_kernels/rows-inl.h"
#include "lane_kernels/store-inl.h"
#include "output_rounding.hpp"
#include "scalar_elements.hpp"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// The fields of a span that guard_dx and store1 need: what the lane-by-lane
// fallback captures by value, so that the span's address does not escape
// from the hot loop (see kLocalSpan, lanes-inl.h; measured: capturing the
// span by reference cost pass 2 up to 10 %).
struct DxGuard {
  void* dx;
  double (*bound)(const void* ctx, std::int64_t lane, double dy, double d);
  const void* ctx;
};

// Training dx of lane l: t, guarded at the overflow threshold by the run-time
// error bound (only asked for there: the bound's inputs are dy and d).
template <DataType T>
double guard_dx(const DxGuard& g, std::int64_t l, double t, double dy, double d) {
  if (HWY_LIKELY(!(std::fabs(t) >= Limits<T>::overflow))) return t;
  return guard_overflow<Limits<T>>(t, g.bound(g.ctx, l, dy, d));
}

// Training dx in binary64, the one place it is written: lanes
// [l, l + Lanes(d)) of kRows consecutive wide rows from row r0,
// dx = fma(x - mean, nc, fma(a, dy, -b)), coefficients loaded once per kRows
// rows. A vector try_store refuses (rare), and every vector on the portable
// path, goes lane by lane through guard_dx and store1.
template <DataType T>
struct DxRows {
  static constexpr DataType kData = T;
  using D = DD;
  template <std::int64_t kRows, class DL>
  static HWY_INLINE void rows(DL d, const LaneSpan& s, std::int64_t r0, std::int64_t l) {
    using V = hn::Vec<DL>;
    const std::int64_t W = s.width;  // locals: see kLocalSpan
    const void* const x = s.x;
    const void* const dy_in = s.dy;
    void* const dx = s.dx;
    const DxGuard guard{.dx = dx, .bound = s.dx_error_bound, .ctx = s.bound_ctx};
    const V mu = hn::LoadU(d, s.lanes.mean + l), a = hn::LoadU(d, s.lanes.a + l);
    const V nb = hn::Neg(hn::LoadU(d, s.lanes.b + l)), nc = hn::LoadU(d, s.lanes.nc + l);
#pragma GCC unroll 4
    for (std::int64_t q = 0; q < kRows; ++q) {
      const std::int64_t i = (r0 + q) * W + l;
      const V dy = load<T>(d, dy_in, i);
      const V dev = hn::Sub(load<T>(d, x, i), mu);
      const V t = fused(d, dev, nc, fused(d, a, dy, nb));
      if (HWY_LIKELY(try_store<T>(d, dx, i, t))) continue;
      each_lane(
          d,
          [guard, i, l](std::size_t k, double tk, double dyk, double devk) {
            const auto lane = l + static_cast<std::int64_t>(k);
            store1<T>(guard.dx, i + static_cast<std::int64_t>(k),
                      guard_dx<T>(guard, lane, tk, dyk, devk));
          },
          t, dy, dev);
    }
  }
};

// Training dx of binary16 data in binary32 (docs/accuracy.md §3.1), the one
// place it is written: lanes [l, l + Lanes(ds)) of kRows rows from row r0,
// dx = fma(x - mean32, nc32, fma(a32, dy, nb32)), three roundings, then one
// to binary16. A vector with a lane not below 65520 (overflow, NaN, a NaN
// coefficient), and every vector on the portable path, goes lane by lane:
// store1 of the binary32 value where it is below 65520 (it rounds to
// nearest-even, like the vector conversion), else the lane redone in
// binary64, guarded (DxRows).
struct DxHalfRows {
  static constexpr DataType kData = DataType::f16;
  using D = DS;
  template <std::int64_t kRows, class DL>
  static HWY_INLINE void rows(DL ds, const LaneSpan& s, std::int64_t r0, std::int64_t l) {
    using V = hn::Vec<DL>;
    constexpr auto H = DataType::f16;
    const std::int64_t W = s.width;  // locals: see kLocalSpan
    const void* const x = s.x;
    const void* const dy_in = s.dy;
    void* const dx = s.dx;
    const V mu = hn::LoadU(ds, s.lanes.mean32 + l), a = hn::LoadU(ds, s.lanes.a32 + l);
    const V nb = hn::LoadU(ds, s.lanes.nb32 + l), nc = hn::LoadU(ds, s.lanes.nc32 + l);
#pragma GCC unroll 4
    for (std::int64_t q = 0; q < kRows; ++q) {
      const std::int64_t i = (r0 + q) * W + l;
      const V dev = hn::Sub(load<H>(ds, x, i), mu);
      const V t = fused(ds, dev, nc, fused(ds, a, load<H>(ds, dy_in, i), nb));
      if (HWY_LIKELY(try_store<H>(ds, dx, i, t))) continue;
      const std::int64_t row = r0 + q;
      each_lane(
          ds,
          // The span by reference: its redo needs all of it (rare but for the
          // portable path, where copying it per vector would cost more).
          [&s, row, l](std::size_t k, float tk) {
            const std::int64_t lane = l + static_cast<std::int64_t>(k);
            if (std::fabs(tk) < kHalfRoundsToInf) {
              store1<H>(s.dx, row * s.width + lane, tk);
            } else {
              DxRows<H>::rows<1>(D1<DD>(), s, row, lane);
            }
          },
          t);
    }
  }
};

// Pass 2 over a span with one of the row kernels above, in for_rows' order.
template <class RowKernel>
void Apply(const LaneSpan& span) {
  const LaneSpan s = span;  // see kLocalSpan
  const bool at_once = rows_at_once_pay<RowKernel::kData>(s, span_rows(s));
  for_rows(typename RowKernel::D(), s, s.row_begin, s.row_end, at_once,
           [&](auto rows, auto d, std::int64_t r, std::int64_t l)
               BNG_INLINE_LAMBDA { RowKernel::template rows<decltype(rows)::value>(d, s, r, l); });
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_APPLY_INL_H_
