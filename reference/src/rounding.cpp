// Format-level helpers: traits, bit patterns, representability, ulp and
// round_to. Every rounding goes through round_exact (exact.cpp).
#include "bng/reference/rounding.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include "bng/binary16.hpp"
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

// Both through the project's one binary16 module (bng/binary16.hpp).
double half_bits_to_double(std::uint16_t bits) {
  return binary16::to_double(bits);
}

std::uint16_t double_to_half_bits(double v) {
  const std::optional<std::uint16_t> bits = binary16::exact_from_double(v);
  if (!bits) {
    throw std::invalid_argument("double_to_half_bits: " + hex_value(v) +
                                " is not representable in binary16");
  }
  return *bits;
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
  // binary32 quickly: a conversion to float rounds once (past max to Inf), so
  // it gives v back iff v is representable (tests/reference/half_rounding_test.cpp).
  if (f == Format::binary32) return static_cast<double>(static_cast<float>(v)) == v;
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
