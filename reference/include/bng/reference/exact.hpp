// Exact values and their single rounding. The reference holds every
// intermediate as an integer times a power of two (a dyadic rational) and the
// training dx as such an integer divided by the batch m; round_exact() is the
// one function that turns such an exact value into a format's value.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>

#include "bng/reference/rounding.hpp"

namespace bng::ref {

using BigInt = boost::multiprecision::cpp_int;

// The 64-bit significand of x87 long double, used for Expected::exact and
// Expected::magnitude (its exponent range covers every value the reference meets).
inline constexpr FormatTraits kLongDouble{64, -16382, 16383};

// RN(y*) for y* = (-1)^negative * n * 2^e / m, in the format described by t.
struct Rounded {
  bool negative = false;
  bool zero = false;              // y* == 0 exactly
  bool overflow = false;          // RN(y*) is ±Inf
  std::uint64_t significand = 0;  // RN(y*) = ±significand * 2^quantum when !overflow
  std::int64_t quantum = 0;
  std::int64_t exponent = 0;  // floor(log2 |y*|) when !zero: locates y* for ulp(y*)
};

// n >= 0, m >= 1. No intermediate is rounded: the quotient n*2^e/m is taken to
// 68 significant bits by an exact integer division whose remainder (and any
// bits shifted out) survive as a sticky bit, which determines round-to-nearest-
// even exactly (docs/reference.md).
Rounded round_exact(bool negative, const BigInt& n, std::int64_t e, std::uint64_t m,
                    const FormatTraits& t);

// The same value rounded into several formats from one division (see above).
struct RoundedPair {
  Rounded out;   // into the output format
  Rounded wide;  // into kLongDouble
};
RoundedPair round_exact_pair(bool negative, const BigInt& n, std::int64_t e, std::uint64_t m,
                             const FormatTraits& out);

// RN(y*) for y* = (-1)^negative * (q + frac) * 2^f, where frac = 0 if !sticky and
// 0 < frac < 1 if sticky: an exact value held in 128 bits, as the tiered path
// has it. Needs 2^(t.precision + 2) <= q < 2^127 (enough bits below the
// rounding position for the round bit, and room for the carry).
__extension__ typedef unsigned __int128 UInt128;
Rounded round_integer(bool negative, UInt128 q, std::int64_t f, bool sticky, const FormatTraits& t);

// A quick sufficient condition for round_integer giving low and high (exact
// integers at 2^f, low < high, both meeting round_integer's range) the same
// result in t: both in one binade, and no rounding boundary (a midpoint) in
// [low, high]. False means "cannot tell quickly", not "they differ".
bool rounds_alike(UInt128 low, UInt128 high, std::int64_t f, const FormatTraits& t);

// Value of a Rounded as a double (format of at most 53 bits) / long double.
double to_double(const Rounded& r);
long double to_long_double(const Rounded& r);

// ulp(y*) of SPEC §5 for the exact value behind r in format t: 2^(max(e, emin) - p + 1)
// with e = floor(log2|y*|), capped at the top binade's spacing 2^(emax - p + 1);
// the subnormal spacing for y* = 0. At a power of two 2^k it is the spacing
// above, 2^(k - p + 1).
double ulp_of(const Rounded& r, const FormatTraits& t);

// v = sign * mantissa * 2^exponent with an odd mantissa (0 for v == 0).
struct SmallDyadic {
  bool negative = false;
  std::uint64_t mantissa = 0;
  std::int64_t exponent = 0;
};
SmallDyadic decompose(double v);

}  // namespace bng::ref
