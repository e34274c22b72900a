// Scalar binary16 <-> binary32/binary64 conversions on bit patterns, so that
// the kernels never need _Float16 (clang 14 has none). Used for per-channel
// statistics and by tests; the hot loops use the vector forms in
// highway_kernels-inl.h, which must agree with these bit for bit.
#pragma once

#include <cstdint>
#include <cstring>

namespace bng::opt {

// Exact: every binary16 value is a binary32 value. NaNs stay NaN (payload
// shifted into the top of the binary32 payload, quiet bit set as hardware does).
inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
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
    bits = sign | (static_cast<std::uint32_t>(e) << 23) | ((mant & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Correctly rounded (to nearest, ties to even) binary64 -> binary16, with
// overflow to ±Inf exactly where IEEE rounding overflows (|v| >= 65520).
// NaN becomes a quiet NaN keeping the top payload bits.
inline std::uint16_t double_to_half_rn(double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  const auto sign = static_cast<std::uint16_t>((bits >> 48) & 0x8000u);
  const int biased = static_cast<int>((bits >> 52) & 0x7ffu);
  const std::uint64_t frac = bits & ((std::uint64_t{1} << 52) - 1);
  if (biased == 0x7ff) {
    if (frac == 0) return static_cast<std::uint16_t>(sign | 0x7c00u);
    return static_cast<std::uint16_t>(sign | 0x7e00u | (frac >> 42));
  }
  const int e = biased - 1023;
  if (e > 15) return static_cast<std::uint16_t>(sign | 0x7c00u);
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

}  // namespace bng::opt
