// Correct rounding (round to nearest, ties to even) of exact values into
// binary16 and binary32, with subnormals and overflow to ±Inf as IEEE 754
// specifies. The single place where the reference rounds (exact.hpp holds the
// rounding of arbitrary exact values; this header the format-level helpers).
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

// Bit pattern <-> value for binary16 (exact; a NaN comes back as the default
// quiet NaN with its sign). Thin wrappers of bng/binary16.hpp, the one module.
double half_bits_to_double(std::uint16_t bits);
// v must be representable in binary16, ±Inf or NaN (a quiet NaN 0x7e00 comes
// back); throws std::invalid_argument otherwise.
std::uint16_t double_to_half_bits(double v);
// Finite v exactly representable in f, or ±Inf, or NaN (NaN exists in every format).
bool representable(double v, Format f);

// The same for binary32 (added; a float holds binary32 exactly, these only spare
// callers the bit casts). double_to_float_bits throws like double_to_half_bits.
double float_bits_to_double(std::uint32_t bits);
std::uint32_t double_to_float_bits(double v);

// ulp(v) in format f, for exact |v| given as a double (see SPEC §5 and
// docs/reference.md: at a power of two it is the spacing above).
double ulp_in(Format f, double v);

// RN(v) into f, ties to even, subnormals and overflow to ±Inf as IEEE 754 (added).
// NaN stays NaN, ±Inf stays ±Inf.
double round_to(Format f, double v);

}  // namespace bng::ref
