// Pass 2 of binary16 data computes in binary32 (docs/accuracy.md §3.1). Its
// per-lane coefficients are the binary64 ones rounded to binary32, which is
// within a relative 2^-24 only where the binary64 value is zero or rounds to
// a normal finite binary32 value. Any other coefficient becomes NaN, which makes every
// binary32 result of its lane NaN and sends that lane to the binary64 path:
// a per-lane decision, so the bits do not depend on how lanes are grouped.
#pragma once

#include <cmath>
#include <limits>

#include "output_rounding.hpp"

namespace bng::opt {

inline constexpr double kFloatMinNormal = 0x1p-126;

inline float narrow_coefficient(double v) {
  const double a = std::fabs(v);
  if (v == 0 || (a >= kFloatMinNormal && a < F32Limits::rounds_to_inf))
    return static_cast<float>(v);
  return std::numeric_limits<float>::quiet_NaN();
}

}  // namespace bng::opt
