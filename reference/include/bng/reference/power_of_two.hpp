// Scaling by powers of two without std::ldexp, whose generic special-case
// handling dominated the tiered path's profile. A product by an exact power of
// two is rounded once, as ldexp's result is, so both give the same bits.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>

namespace bng::ref {

// 2^k as a double, from its bits; k in [-1022, 1023] (normal range).
inline double power_of_two(int k) {
  return std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52);
}

// v * 2^k, rounded once (as std::ldexp).
inline double scale(double v, int k) {
  if (k >= -1022 && k <= 1023) return v * power_of_two(k);
  return std::ldexp(v, k);
}

// v * 2^k in long double: 2^k is the exact product of two double powers, and
// for |k| <= 2044 every result here (significands below 2^64) is far inside
// long double's normal range, so the product is exact (as ldexp's would be).
inline long double scale(long double v, int k) {
  if (k >= -2044 && k <= 2046) {
    const int k1 = k / 2;
    const long double p =
        static_cast<long double>(power_of_two(k1)) * static_cast<long double>(power_of_two(k - k1));
    return v * p;
  }
  return std::ldexp(v, k);
}

}  // namespace bng::ref
