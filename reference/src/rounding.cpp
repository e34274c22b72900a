// Format-level helpers: traits, bit patterns, representability, ulp and
// round_to. Every rounding goes through round_exact (exact.cpp).
#include "bng/reference/rounding.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "bng/reference/exact.hpp"

namespace bng::ref {
namespace {

std::string hex_value(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

// v is finite; its rounding into f, with Rounded's bookkeeping.
Rounded round_finite(Format f, double v) {
  const SmallDyadic d = decompose(v);
  return round_exact(d.negative, BigInt(d.mantissa), d.exponent, 1, traits(f));
}

}  // namespace

FormatTraits traits(Format f) {
  return f == Format::binary16 ? FormatTraits{11, -14, 15} : FormatTraits{24, -126, 127};
}

double half_bits_to_double(std::uint16_t bits) {
  const bool negative = (bits & 0x8000u) != 0;
  const unsigned exp_field = (bits >> 10) & 0x1fu;
  const unsigned frac = bits & 0x3ffu;
  double mag = 0;
  if (exp_field == 0x1f) {
    mag = frac == 0 ? std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::quiet_NaN();
  } else if (exp_field == 0) {
    mag = std::ldexp(static_cast<double>(frac), -24);  // subnormal: frac * 2^(emin - 10)
  } else {
    mag = std::ldexp(static_cast<double>(frac | 0x400u), static_cast<int>(exp_field) - 25);
  }
  return negative ? -mag : mag;
}

std::uint16_t double_to_half_bits(double v) {
  if (std::isnan(v)) return std::signbit(v) ? 0xfe00u : 0x7e00u;
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  if (std::isinf(v)) return sign | 0x7c00u;
  if (!representable(v, Format::binary16)) {
    throw std::invalid_argument("double_to_half_bits: " + hex_value(v) +
                                " is not representable in binary16");
  }
  if (v == 0) return sign;
  const SmallDyadic d = decompose(v);
  const int top = static_cast<int>(std::bit_width(d.mantissa)) - 1 + static_cast<int>(d.exponent);
  if (top < -14) {  // subnormal: the value counts units of 2^-24
    return static_cast<std::uint16_t>(sign | (d.mantissa << (d.exponent + 24)));
  }
  // Normal: 11-bit significand with the hidden bit at 2^top.
  const std::uint64_t sig = d.mantissa << (10 - (top - d.exponent));
  return static_cast<std::uint16_t>(sign | ((top + 15) << 10) | (sig & 0x3ffu));
}

double float_bits_to_double(std::uint32_t bits) {
  return static_cast<double>(std::bit_cast<float>(bits));
}

std::uint32_t double_to_float_bits(double v) {
  if (!representable(v, Format::binary32)) {
    throw std::invalid_argument("double_to_float_bits: " + hex_value(v) +
                                " is not representable in binary32");
  }
  // Exact: v is a binary32 value (or NaN/Inf).
  return std::bit_cast<std::uint32_t>(static_cast<float>(v));
}

bool representable(double v, Format f) {
  if (!std::isfinite(v)) return true;
  if (v == 0) return true;
  // Representable iff the top bit is within range and the lowest set bit is no
  // finer than the quantum of the binade (or the subnormal quantum).
  const FormatTraits t = traits(f);
  const SmallDyadic d = decompose(v);
  const auto top = static_cast<std::int64_t>(std::bit_width(d.mantissa)) - 1 + d.exponent;
  return top <= t.emax && d.exponent >= std::max<std::int64_t>(top, t.emin) - t.precision + 1;
}

double ulp_in(Format f, double v) {
  const FormatTraits t = traits(f);
  if (!std::isfinite(v)) return std::ldexp(1.0, t.emax - t.precision + 1);
  return ulp_of(round_finite(f, v), t);
}

double round_to(Format f, double v) {
  if (!std::isfinite(v)) return v;
  if (v == 0) return v;
  return to_double(round_finite(f, v));
}

}  // namespace bng::ref
