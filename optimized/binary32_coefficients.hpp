// Binary16 data computes two things in binary32 (docs/accuracy.md): the
// per-element dx of pass 2 (§3.1) and the pair sums of inference's pass 1
// (§2.1). The per-lane values they start from are the binary64 ones rounded
// to binary32, or NaN where that would not keep the error bound, which sends
// the lane to the binary64 path: a per-lane decision, so the bits do not
// depend on how lanes are grouped.
#pragma once

#include "output_rounding.hpp"

namespace bng::opt {

inline constexpr double kFloatMinNormal = 0x1p-126;

// A dx coefficient rounded to binary32 is within a relative 2^-24 only where
// the binary64 value is zero or rounds to a normal finite binary32 value
// (magnitude from kFloatMinNormal, below F32Limits::rounds_to_inf); any other
// becomes NaN (narrow_coefficients, lane_kernels/coefficients-inl.h).

// Inference pass 1 of binary16 data sums dy*(x - mean) over pairs of rows in
// binary32 (docs/accuracy.md §2.1). With x a binary16 value and the mean zero
// or of magnitude in [2^-77, 2^100], every product and partial sum is zero or
// of magnitude in [2^-124, 2^119): no underflow, no overflow. The mean of
// such a lane in binary32 (exact), NaN for any other, whose lane keeps the
// binary64 sums (sum_means, lane_kernels/coefficients-inl.h).
inline constexpr double kSumMeanMin = 0x1p-77;
inline constexpr double kSumMeanMax = 0x1p100;

}  // namespace bng::opt
