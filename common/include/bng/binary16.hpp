// Binary16 (IEEE 754 half precision) on bit patterns: the one conversion
// module of the project, used by the kernels (optimized/), the exact
// reference (reference/), the property runner (through the reference) and
// bngcert's .npy files. Header-only and dependency-free so that the shipped
// libraries can include it without linking anything; no _Float16 (clang 14
// has none).
//
//   sign | exponent (5) | fraction (10)
//   0x8000   0x7c00        0x03ff
//   exponent 0: zero or subnormal, value = fraction * 2^-24
//   exponent 1..30: normal, value = (1024 + fraction) * 2^(exponent - 25)
//   exponent 31: Inf (fraction 0) or NaN (quiet bit 0x0200)
//
// Every binary16 value is a binary32 and a binary64 value, so decoding never
// rounds. Encoding either rounds (round_from_double: to nearest, ties to even,
// as IEEE 754 and the hardware) or refuses a value that would need rounding
// (exact_from_double: what a file must hold is what a kernel produced).
// The vector paths of optimized/lane_kernels/ convert with Highway and must
// agree with these bit for bit (tests/kernels/binary16_test.cpp).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>

namespace bng::binary16 {

inline constexpr std::uint16_t kSign = 0x8000u;
inline constexpr std::uint16_t kExponent = 0x7c00u;
inline constexpr std::uint16_t kFraction = 0x03ffu;
inline constexpr std::uint16_t kQuietNan = 0x7e00u;  // the default quiet NaN, positive
inline constexpr std::uint16_t kInf = 0x7c00u;
inline constexpr double kMax = 65504.0;  // largest finite value, 0x7bff

inline bool is_nan(std::uint16_t h) {
  return (h & kExponent) == kExponent && (h & kFraction) != 0;
}

// Exact, as the hardware converts: NaNs stay NaN with their payload shifted
// into the top of the binary32 payload and the quiet bit set.
inline float to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & kSign) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & kFraction;
  std::uint32_t bits;
  if (exp == 0x1fu) {
    bits = sign | 0x7f800000u | (mant << 13) | (mant != 0 ? 0x00400000u : 0u);
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {
    // Subnormal: normalise; the value is mant * 2^-24.
    int e = 113;  // binary32 biased exponent of 2^-14
    while ((mant & 0x400u) == 0) {
      mant <<= 1;
      --e;
    }
    bits = sign | (static_cast<std::uint32_t>(e) << 23) | ((mant & kFraction) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The value of h as a double (exact). A NaN comes back as the default quiet
// NaN with h's sign: doubles here never carry a binary16 payload, so that
// what the reference and the tools compute from a NaN does not depend on it.
inline double to_double(std::uint16_t h) {
  if (is_nan(h)) {
    return std::copysign(std::numeric_limits<double>::quiet_NaN(), (h & kSign) != 0 ? -1.0 : 1.0);
  }
  return static_cast<double>(to_float(h));
}

// Correctly rounded (to nearest, ties to even) binary64 -> binary16, with
// overflow to ±Inf exactly where IEEE rounding overflows (|v| >= 65520).
// NaN becomes a quiet NaN keeping the top payload bits.
inline std::uint16_t round_from_double(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & kSign);
  const int biased = static_cast<int>((bits >> 52) & 0x7ffu);
  const std::uint64_t frac = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) {
    if (frac == 0) return static_cast<std::uint16_t>(sign | kInf);
    return static_cast<std::uint16_t>(sign | kQuietNan | (frac >> 42));
  }
  const int e = biased - 1023;
  if (e > 15) return static_cast<std::uint16_t>(sign | kInf);
  if (e < -25) return sign;  // below half the smallest subnormal (double subnormals too)
  const std::uint64_t m = frac | (std::uint64_t{1} << 52);
  // Keep 11 significant bits for normals; fewer below 2^-14 (subnormal range).
  const int shift = e >= -14 ? 42 : 42 + (-14 - e);
  const std::uint64_t keep = m >> shift;
  const std::uint64_t rest = m & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t halfway = std::uint64_t{1} << (shift - 1);
  const std::uint64_t up = (rest > halfway || (rest == halfway && (keep & 1) != 0)) ? 1 : 0;
  // For normals the hidden bit (1024) plus (e+14)<<10 yields the biased
  // exponent field; a carry out of the significand moves into the exponent
  // (and to Inf from the top binade), as the encoding is monotone.
  const std::uint64_t magnitude =
      e >= -14 ? (static_cast<std::uint64_t>(e + 14) << 10) + keep + up : keep + up;
  return static_cast<std::uint16_t>(sign | magnitude);
}

// The encoding of v if v is ±Inf, NaN (the default quiet NaN with v's sign)
// or a finite binary16 value; nullopt for a finite v that would need rounding
// (including |v| > 65504).
inline std::optional<std::uint16_t> exact_from_double(double v) {
  if (std::isnan(v)) return static_cast<std::uint16_t>((std::signbit(v) ? kSign : 0u) | kQuietNan);
  const std::uint16_t h = round_from_double(v);
  if (std::isfinite(v) && static_cast<double>(to_float(h)) != v) return std::nullopt;
  return h;
}

}  // namespace bng::binary16
