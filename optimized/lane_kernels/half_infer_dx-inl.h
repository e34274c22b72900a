// Per instruction set (Highway -inl.h): binary16 inference's dx, RN16(y*)
// for y* = a*dy rounded once (docs/accuracy.md §2.2), as pass 1
// (reduce_half_infer-inl.h) writes it. From the binary32 t = a32*dy where
// that is decided: the watch of the products (watch_products for hp,
// watch_rounded_products for mp, whose a32 is itself rounded) from
// watch_start, its test (must_store_half_again, rounded_product_decided)
// and the stores (infer_half_dx, with store_infer_half_lanes for the lanes
// the vector store declines); else from the exact product rounded to odd
// (store_half_dx_again, store_half_dx_from_exact, infer_half_dx_decided).
// Apart from the pass's loops because the rounding of dx is a job of its
// own, with its own proof (proofs/mp_rounded_product.g).
#if defined(BNG_OPTIMIZED_HALF_INFER_DX_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_HALF_INFER_DX_INL_H_
#undef BNG_OPTIMIZED_HALF_INFER_DX_INL_H_
#else
#define BNG_OPTIMIZED_HALF_INFER_DX_INL_H_
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>

#include <hwy/highway.h>

#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/lanes-inl.h"
#include "lane_kernels/reduce-inl.h"
#include "lane_kernels/store-inl.h"
#include "lane_kernels/wide_lanes-inl.h"
#include "scalar_elements.hpp"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

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

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_HALF_INFER_DX_INL_H_
