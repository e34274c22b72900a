// Rounding doubles into the case formats, for building generated values.
#pragma once

#include <cmath>
#include <limits>

#include "bng/reference/case.hpp"

namespace bng::prop {

inline double max_finite(Format f) {
  return f == Format::binary32 ? static_cast<double>(std::numeric_limits<float>::max()) : 65504.0;
}

// Round to nearest (ties to even) into f; overflow gives ±Inf, NaN stays NaN.
inline double round_to(Format f, double v) {
  if (f == Format::binary32) return static_cast<double>(static_cast<float>(v));
  if (!std::isfinite(v)) return v;
  if (std::fabs(v) >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), v);
  int e = std::ilogb(v == 0 ? 1.0 : v);
  e = std::max(e, -14);
  const double quantum = std::ldexp(1.0, e - 10);
  return std::nearbyint(v / quantum) *
         quantum;  // exact: v/quantum < 2^12 in magnitude, scaling by 2^k
}

}  // namespace bng::prop
