#include "binary16.hpp"

#include <cmath>

namespace bng::cert {

double half_bits_to_double(std::uint16_t bits) {
  const double sign = (bits & 0x8000u) ? -1.0 : 1.0;
  const int exponent = (bits >> 10) & 0x1f;
  const int fraction = bits & 0x3ff;
  if (exponent == 0x1f) {
    return fraction ? std::copysign(std::nan(""), sign) : sign * INFINITY;
  }
  if (exponent == 0) return sign * std::ldexp(fraction, -24);  // subnormal (or zero)
  return sign * std::ldexp(fraction | 0x400, exponent - 25);
}

std::optional<std::uint16_t> exact_half_bits(double v) {
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isnan(v)) return static_cast<std::uint16_t>(sign | 0x7e00u);
  if (std::isinf(v)) return static_cast<std::uint16_t>(sign | 0x7c00u);
  const double a = std::fabs(v);
  if (a == 0) return sign;
  if (a < 0x1p-14) {  // subnormal range: a multiple of 2^-24 below 2^-14
    const double steps = std::ldexp(a, 24);
    if (steps != std::floor(steps)) return std::nullopt;
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(steps));
  }
  const int e = std::ilogb(a);
  if (e > 15) return std::nullopt;
  const double significand = std::ldexp(a, 10 - e);  // in [1024, 2048)
  if (significand != std::floor(significand)) return std::nullopt;
  const auto frac = static_cast<std::uint16_t>(static_cast<int>(significand) - 1024);
  return static_cast<std::uint16_t>(sign | ((e + 15) << 10) | frac);
}

}  // namespace bng::cert
