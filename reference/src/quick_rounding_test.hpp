// The quick tier of the rounding test (rounding_test.hpp), inline: the
// tiered dx loop is compiled twice (for baseline x86-64 and for FMA, see
// tiered.cpp) with its callees flattened into it, and this test is most of
// what it calls per output. What it cannot decide goes to the integer test of
// rounding_test.cpp.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "bng/reference/binade.hpp"
#include "bng/reference/exact.hpp"
#include "bng/reference/reference.hpp"
#include "double_word.hpp"
#include "bng/reference/power_of_two.hpp"

namespace bng::ref::quick {

__extension__ typedef __int128 Int128;

// RN(v) to an integer, for |v| < 2^51, in the default rounding mode (as
// std::nearbyint there, which is a call into libm below SSE4.1): v + 1.5*2^52
// lies in [2^52, 2^53), where binary64's spacing is 1, so the sum rounds v to
// an integer, ties to even, and the difference is exact. (-ffp-contract=off
// and no -ffast-math: the compiler keeps both operations.) A zero result may
// be +0 where nearbyint gives -0; the callers take only |k| and v - k.
inline double nearest_integer(double v) {
  constexpr double kShifter = 0x1.8p52;
  return (v + kShifter) - kShifter;
}

// ---- The quick test: binary64 arithmetic only --------------------------------
//
// Most intervals [y - r, y + r] lie well inside one binade 2^E <= |.| < 2^(E+1)
// and far from every rounding boundary. There the grid of a format is
// uniform (quantum 2^qe), y.hi * 2^-qe splits exactly into an integer k and a
// fraction (Sterbenz), and RN of every point of the interval is k * 2^qe when
// |fraction + y.lo * 2^-qe| + r * 2^-qe stays below 1/2: no midpoint inside,
// no tie at an end. The sum has one rounding (relative 2^-53, covered by the
// factor 1 + 2^-50) and the scalings of y.lo and r at most an absolute 2^-1074
// each (covered by kScaledSlack); hi must be in [2^-900, 2^900], so that
// every scaling below stays in binary64's range. What it cannot decide goes
// to the integer test below it.

inline constexpr double kQuickLow = 0x1p-900, kQuickHigh = 0x1p900;
inline constexpr double kScaledSlack = 0x1p-1000;
inline constexpr double kSumSlack = 1 + 0x1p-50;

// E = floor(log2 |y*|) for every y* within r of y, or false.
inline bool binade_of(dw::DoubleWord y, double r, int& e) {
  const double a = std::fabs(y.hi);
  if (!(a >= kQuickLow && a <= kQuickHigh)) return false;
  e = binade(a);
  const double bottom = power_of_two(e);
  // Both differences are exact (Sterbenz); |y* - y.hi| <= |y.lo| + r = slack,
  // and twice the computed slack covers its rounding.
  const double slack = std::fabs(y.lo) + r;
  return a - bottom > 2 * slack && 2 * bottom - a > 2 * slack;
}

// Whether the interval around the grid point k (the nearest integer to
// v = hi_scaled, exact) at quantum 2^qe holds no midpoint: |v - k + lo_scaled|
// + r_scaled < 1/2 with the slacks above.
inline bool clear_of_midpoints(double hi_scaled, double k, double lo_scaled, double r_scaled) {
  const double d = (hi_scaled - k) + lo_scaled;
  return std::fabs(d) * kSumSlack + r_scaled + kScaledSlack < 0.5;
}

// RN(y*) in t for y* in binade e, or false.
inline bool round_quickly(dw::DoubleWord y, double r, int e, const FormatTraits& t,
                          double& rounded) {
  if (e > t.emax) {  // |y*| >= 2^(emax+1): ±Inf
    rounded = std::copysign(HUGE_VAL, y.hi);
    return true;
  }
  const int qe = std::max(e, t.emin) - t.precision + 1;
  const double v = scale(y.hi, -qe);  // exact: |v| < 2^precision
  const double k = nearest_integer(v);
  if (!clear_of_midpoints(v, k, scale(y.lo, -qe), scale(r, -qe))) return false;
  const double mag = scale(std::fabs(k), qe);  // exact; 2^(emax+1) when rounded past MAX
  rounded = std::copysign(mag >= power_of_two(t.emax + 1) ? HUGE_VAL : mag, y.hi);
  return true;
}

// ±significand * 2^(e - 63), significand in [2^63, 2^64), e in [-900, 901]:
// exact. Where long double is x87's 80-bit format its bits are written
// directly (the conversion and scaling in x87 code weighed 15 % of the
// tiered path); elsewhere (aarch64's binary128) the conversion and the
// power-of-two scaling are exact too.
inline long double long_double_of(bool negative, std::uint64_t significand, int e) {
  if constexpr (std::numeric_limits<long double>::digits == 64 &&
                std::numeric_limits<long double>::max_exponent == 16384 &&
                std::endian::native == std::endian::little && sizeof(long double) >= 10) {
    unsigned char bytes[sizeof(long double)] = {};
    const auto sign_exponent = static_cast<std::uint16_t>((negative ? 0x8000 : 0) | (e + 16383));
    std::memcpy(bytes, &significand, 8);  // x86 is little-endian: significand, then exponent
    std::memcpy(bytes + 8, &sign_exponent, 2);
    return std::bit_cast<long double>(bytes);
  } else {
    const long double mag = scale(static_cast<long double>(significand), e - 63);
    return negative ? -mag : mag;
  }
}

// The long double round_wide_quickly decides: y.hi's significand shifted to
// 64 bits plus k, the nearest integer to y.lo * 2^(63-e) toward |y|, as the
// significand at binade e (2^63 <= sum <= 2^64; 2^64: y* rounds up to
// 2^(e+1)). Integer arithmetic, so that it holds where long double is wider
// (aarch64). The tiered lanes (tiered_lanes.cpp) finish their outputs here.
inline long double wide_of(double hi, double k, int e) {
  const auto bits = std::bit_cast<std::uint64_t>(hi);
  const std::uint64_t hi_int = ((bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52))
                               << 11;
  const UInt128 n = static_cast<UInt128>(hi_int) +
                    static_cast<UInt128>(static_cast<Int128>(static_cast<std::int64_t>(k)));
  if (n >> 64 != 0) return long_double_of(hi < 0, std::uint64_t{1} << 63, e + 1);
  return long_double_of(hi < 0, static_cast<std::uint64_t>(n), e);
}

// RN(y*) in kLongDouble (64-bit significand) for y* in binade e, or false:
// y.hi's significand shifted to 64 bits is exact, y.lo * 2^(63-e) is below
// 2^10 in magnitude, and the sum of the two integers is the significand.
inline bool round_wide_quickly(dw::DoubleWord y, double r, int e, long double& rounded) {
  const double lo_scaled = scale(y.lo, 63 - e) * (y.hi < 0 ? -1.0 : 1.0);  // toward |y|
  const double k = nearest_integer(lo_scaled);
  if (!clear_of_midpoints(lo_scaled, k, 0.0, scale(r, 63 - e))) return false;
  rounded = wide_of(y.hi, k, e);
  return true;
}

// ulp(y*) in t for y* in binade e.
inline double ulp_at_binade(int e, const FormatTraits& t) {
  return power_of_two(std::clamp(e, t.emin, t.emax) - t.precision + 1);
}

// decide_value (rounding_test.hpp) by the quick test alone, or false.
inline bool decide_value_quickly(dw::DoubleWord y, double radius, const FormatTraits& out,
                                 Expected& e) {
  int binade = 0;
  double rounded = 0;
  long double wide = 0;
  if (!binade_of(y, radius, binade) || !round_quickly(y, radius, binade, out, rounded) ||
      !round_wide_quickly(y, radius, binade, wide)) {
    return false;
  }
  e.kind = Kind::finite;
  e.rounded = rounded;
  e.exact = wide;
  e.ulp = ulp_at_binade(binade, out);
  return true;
}

// decide_magnitude (rounding_test.hpp) by the quick test alone, or false.
inline bool decide_magnitude_quickly(dw::DoubleWord m, double radius, Expected& e) {
  int binade = 0;
  long double wide = 0;
  if (m.hi > 0 && binade_of(m, radius, binade) && round_wide_quickly(m, radius, binade, wide)) {
    e.magnitude = wide;
    return true;
  }
  return false;
}

}  // namespace bng::ref::quick
