// Exact conversions between binary16 bit patterns and doubles, for the .npy
// files the tool reads and writes ('<f2'). Every binary16 value is a double, so
// decoding never rounds; encoding refuses values that would need rounding,
// because a file the tool writes must hold exactly what a kernel produced.
#pragma once

#include <cstdint>
#include <optional>

namespace bng::cert {

double half_bits_to_double(std::uint16_t bits);

// The binary16 encoding of v, or nullopt if v is finite and not exactly a
// binary16 value. NaN encodes as the quiet NaN 0x7e00 (sign kept): doubles do
// not carry a binary16 payload.
std::optional<std::uint16_t> exact_half_bits(double v);

}  // namespace bng::cert
