// Correct rounding (round to nearest, ties to even) of exact values into
// binary16 and binary32, with subnormals and overflow to ±Inf as IEEE 754
// specifies. The single place where the reference rounds.
#pragma once

#include <cstdint>

#include "bng/reference/case.hpp"

namespace bng::ref {

// Precision p (significand bits, hidden bit included) and exponent range of a format.
struct FormatTraits {
  int precision;  // 11 or 24
  int emin;       // -14 or -126
  int emax;       // 15 or 127
};
FormatTraits traits(Format f);

// Bit pattern <-> value for binary16 (exact; NaN payloads are not preserved by to_double).
double half_bits_to_double(std::uint16_t bits);
std::uint16_t double_to_half_bits(double v);  // v must be representable (or NaN/Inf)
bool representable(double v, Format f);       // finite v exactly representable in f (or ±Inf)

// ulp(v) in format f, for exact |v| given as a double (see SPEC §5).
double ulp_in(Format f, double v);

}  // namespace bng::ref
