// The final rounding of a double result t into an output format, with the
// overflow rule of docs/accuracy.md §4: t rounds to nearest-even, except that
// a t between the largest finite value MAX and 2^(emax+1) gives ±MAX, so
// that an error in t smaller than half an ulp of the top binade can never turn
// an output whose exact value rounds to a finite number into ±Inf. ±Inf
// results only from |t| >= 2^(emax+1) (or from Inf/NaN inputs).
// The vector forms in lane_kernels.cpp produce the same bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "half_bits.hpp"

namespace bng::opt {

inline constexpr double kFloatMax = 0x1.fffffep127;
inline constexpr double kFloatOverflow = 0x1p128;
inline constexpr double kHalfMax = 65504.0;
inline constexpr double kHalfOverflow = 65536.0;

inline float round_to_float(double t) {
  const double a = std::fabs(t);
  if (a >= kFloatOverflow)
    return std::copysign(std::numeric_limits<float>::infinity(),
                         static_cast<float>(std::copysign(1.0, t)));
  if (a > kFloatMax) t = std::copysign(kFloatMax, t);
  return static_cast<float>(t);
}

inline std::uint16_t round_to_half(double t) {
  const double a = std::fabs(t);
  if (a > kHalfMax && a < kHalfOverflow) t = std::copysign(kHalfMax, t);
  return double_to_half_rn(t);
}

}  // namespace bng::opt
