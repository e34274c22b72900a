// The vectorised loops of both passes, over one part: wide rows
// [row_begin, row_end) x lanes [lane_begin, lane_end) of a Partition. Lanes
// are independent: lane l holds channel l % channel, and every lane sums its
// own rows in row order, so the vector length never changes a result.
// Compiled once per instruction set (Highway); run-time dispatch honours
// BNG_ISA (bng/optimized/isa.hpp). The loops themselves are in
// lane_kernels/*-inl.h, one file per phase; lane_kernels.cpp dispatches.
#pragma once

#include <cstdint>

#include "data_type.hpp"

namespace bng::opt {

// Rows per binary32 partial sum in inference pass 1 of binary16 data
// (docs/accuracy.md §2.1 derives the error for this value).
inline constexpr std::int64_t kHalfSumRows = 2;

// mp inference dx (lane_kernels/half_infer_dx-inl.h
// watch_rounded_products): a binary32 product a32*dy within this many
// binary32 ulps of a binary16 midpoint is taken from the exact product.
// proofs/mp_rounded_product.g proves that 1 suffices (docs/accuracy.md §2.2).
inline constexpr std::int32_t kMidpointMarginUlps = 1;

// The per-lane coefficients of both passes, indexed by lane (0 .. width): the
// one declaration that planning fills (prepare_lanes, then the copies to the
// other fold slots), combine completes (b, nc, nb32, nc32) and the passes
// read. A pointer is null where the call does not use its array.
struct LaneArrays {
  double* mean = nullptr;
  double* a = nullptr;   // scale*invar
  double* b = nullptr;   // a*dbias/m                     (training dx only)
  double* nc = nullptr;  // -(a*invar)*(invar*sum dy*(x-mean))/m, negated so that pass 2
                         // needs no negation (fma(d, -c, q) = fma(-d, c, q) exactly)
  // Binary16 data: the same coefficients rounded to binary32 for dx in
  // binary32 (inference: a32 only; training: all four, -b stored), NaN where a
  // channel's must stay in binary64 (narrow_coefficients,
  // binary32_coefficients.hpp). Null for binary32 data.
  float* mean32 = nullptr;
  float* a32 = nullptr;
  float* nb32 = nullptr;
  float* nc32 = nullptr;
  // Binary16 data, inference: sum_means(mean) (lane_kernels/coefficients-inl.h),
  // the mean for pass 1's binary32 partial sums, NaN where a lane keeps
  // binary64 sums. Null otherwise.
  float* sum_mean32 = nullptr;
};

// One part's elements and the arrays its passes read.
struct LaneSpan {
  const void* x;
  const void* dy;
  void* dx;
  std::int64_t width;  // elements per wide row (the row stride)
  std::int64_t row_begin, row_end;
  std::int64_t last_row, last_lanes;  // wide row `last_row` has only `last_lanes` lanes
  std::int64_t lane_begin, lane_end;
  LaneArrays lanes;
  // Training dx's run-time error bound |t - y*| <= e (docs/accuracy.md §4),
  // asked for only where |t| reaches the overflow threshold (rare): the
  // driver may have to compute the magnitudes it rests on first.
  double (*dx_error_bound)(const void* ctx, std::int64_t lane, double dy, double d);
  const void* bound_ctx;
};

// Pass 1: per lane, sums of dy and (by fma) dy*(x - mean) over each block of kBlockRows wide
// rows in double (into acc_b/acc_s, scratch of lane_end - lane_begin each),
// each block total then added error-free (TwoSum) into hi, its error into lo
// (indexed by lane). With magnitudes, plain running sums of |dy| and
// |dy|*|x - mean| go into abs_b/abs_s (indexed by lane): the magnitudes M
// bounding the error at the overflow threshold. They are needed only there,
// so the driver asks for them only when an in-place call will overwrite the
// inputs they come from (otherwise the driver's channel_magnitudes recomputes
// them on demand through this same pass, one lane at a time). With write_dx
// it also stores inference dx = RN(a*dy), rounded once (binary16 data: from
// a32*dy in binary32 where that decides, see lane_kernels/half_infer_dx-inl.h);
// on binary16 data it then sums each lane's rows of a block in groups of
// kHalfSumRows in binary32 first, and those group sums into acc_b/acc_s
// (docs/accuracy.md §2.1; lanes whose sum_mean32 is NaN sum row by row).
struct ReduceOut {
  double* acc_b;
  double* acc_s;
  double* hi_b;
  double* lo_b;
  double* hi_s;
  double* lo_s;
  double* abs_b;
  double* abs_s;
};
// Data of type t, statistics of type stats: for binary16 data with binary32
// statistics (mp) a32 = RN32(scale*invar) is itself rounded, and inference dx
// is watched for that (watch_rounded_products).
void reduce_span(DataType t, DataType stats, const LaneSpan& s, const ReduceOut& out, bool write_dx,
                 bool magnitudes);

// The per-channel combination after pass 1, in a fixed order. For channel c,
// from (0, 0): each row band's, then each fold slot's (lanes c, c + channel,
// ... below width) hi added by TwoSum into (hb, lb) and its lo into lb, and
// with magnitudes their magnitude sums into plain sums (the M bounds of
// docs/accuracy.md §4); db = hb + lb, ds = (hs + ls) * invar, stored as
// dbias/dscale in the statistics type; for training also b = a*db/m and
// nc = -(a*invar*ds/m) into every fold slot's lane of `lanes` (and, for
// binary16 data, nb32 = narrow_coefficients(-b), nc32 = narrow_coefficients(nc)).
struct CombineSpan {
  const double* hi_b;  // of band 0; band r's at + r * band_stride
  const double* lo_b;
  const double* hi_s;
  const double* lo_s;
  const double* abs_b;  // null without magnitudes
  const double* abs_s;
  int bands;
  std::int64_t band_stride;
  std::int64_t channel;
  std::int64_t width;
  LaneArrays lanes;  // reads a; writes b and nc, and nb32 and nc32 where not null
  const void* invar;
  void* dbias;
  void* dscale;
  double* sum_abs_dy;    // with magnitudes: per channel, the sums of abs_b
  double* sum_abs_dy_d;  // and of abs_s (pass 2's guard reads them)
  double m;
  bool train;
  // A channel whose |db| or |ds| reaches the statistics type's overflow
  // threshold (rare): stored by the driver's guard (docs/accuracy.md §4),
  // with the magnitude sums (0 without magnitudes).
  void (*store_guarded)(const void* ctx, std::int64_t c, double db, double ds, double mb,
                        double ms);
  const void* guard_ctx;
};
// Channels [begin, end): whole vectors of them, then one at a time, by the
// same code.
void combine_channels(DataType stats, const CombineSpan& s, std::int64_t begin, std::int64_t end);

// Per-lane coefficients for lanes 0 .. channel - 1 from the statistics (in
// the statistics type): mean, a = scale * invar (exact in binary64), and for
// binary16 data a32 = narrow_coefficients(a) and, for training, mean32 = mean
// in binary32, for inference sum_mean32 = sum_means(mean) (each skipped where
// its pointer is null).
struct LaneCoefficients {
  const void* mean_in;
  const void* invar_in;
  const void* scale_in;
  LaneArrays lanes;  // writes mean, a, and mean32, a32, sum_mean32 where not null
};
void prepare_lanes(DataType stats, const LaneCoefficients& s, std::int64_t channel);

// Pass 2 (training): dx = fma(x - mean, nc, fma(a, dy, -b)), two roundings,
// then guard_overflow (output_rounding.hpp) with the bound from dx_error_bound.
// Binary16 data runs the same formula in binary32 (mean32 .. nc32, three
// roundings) and rounds it once to binary16; a lane whose binary32 result is
// not below 65520 in magnitude (overflow, NaN, a NaN coefficient) is redone
// in binary64 as above (docs/accuracy.md §3.1).
void apply_span(DataType t, const LaneSpan& s);

}  // namespace bng::opt
