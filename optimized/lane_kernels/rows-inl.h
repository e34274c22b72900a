// Per instruction set (Highway -inl.h): the order in which the passes visit
// a part's rows, and the memory-system policy behind it (four rows at once or
// one, software prefetch for binary16 inference), measured on the project
// machine (docs/performance.md). for_rows is the row loop of pass 1 in
// binary64 (reduce-inl.h) and of pass 2 (apply-inl.h); binary16 inference's
// pass 1 has its own, with prefetch (reduce_half_infer-inl.h).
#if defined(BNG_OPTIMIZED_ROWS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef BNG_OPTIMIZED_ROWS_INL_H_
#undef BNG_OPTIMIZED_ROWS_INL_H_
#else
#define BNG_OPTIMIZED_ROWS_INL_H_
#endif

#include <cstdint>
#include <type_traits>

#include <hwy/highway.h>

#include "cache_aligned.hpp"
#include "data_type.hpp"
#include "lane_kernels.hpp"
#include "lane_kernels/lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {

// The lanes wide row r has in span s (only the tensor's last row may lack some).
inline std::int64_t row_lane_end(const LaneSpan& s, std::int64_t r) {
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
// sweep. The measurements: docs/performance.md, "The row-order policy".
// The training passes judge by their span's rows; binary16 inference by the
// whole tensor's (span_rows, tensor_rows below): its spans on 65536 x 64 are
// 1 MiB bands of an 8 MiB tensor, judged by the span they were slower.
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
// on. The measurements: docs/performance.md, "The row-order policy"; it pays
// there only, and the training passes have none.
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

// Rows [r0, r1) of span s in ascending order: while at_once, groups of
// kRowsAtOnce whole rows, then single rows; in each, the row's lanes from
// lane_begin in whole vectors of d, then one by one:
// kernel(rows, d or D1, r, l), rows an integral_constant (kRowsAtOnce or 1)
// for the kernel's unrolled row loop. Ascending, in pass 2 too: the former
// last-rows-first order, meant to reuse what pass 1 left in the cache, was
// 1.2-1.5x slower on 4-16 MiB tensors (docs/performance.md, "Pass 2 runs its
// rows in ascending order"): descending addresses defeat the prefetchers.
template <class D, class Kernel>
HWY_INLINE void for_rows(D d, const LaneSpan& s, std::int64_t r0, std::int64_t r1, bool at_once,
                         const Kernel& kernel) {
  using Four = std::integral_constant<std::int64_t, kRowsAtOnce>;
  using One = std::integral_constant<std::int64_t, 1>;
  std::int64_t r = r0;
  for (; at_once && r + kRowsAtOnce <= r1 && row_lane_end(s, r + kRowsAtOnce - 1) == s.lane_end;
       r += kRowsAtOnce) {
    for_lanes(d, s.lane_begin, s.lane_end,
              [&](auto dl, std::int64_t l) BNG_INLINE_LAMBDA { kernel(Four(), dl, r, l); });
  }
  for (; r < r1; ++r) {
    for_lanes(d, s.lane_begin, row_lane_end(s, r),
              [&](auto dl, std::int64_t l) BNG_INLINE_LAMBDA { kernel(One(), dl, r, l); });
  }
}

}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // BNG_OPTIMIZED_ROWS_INL_H_
