// Rounding into binary16, exhaustively: every value, every midpoint between
// neighbours, and exact dyadics (and non-dyadic quotients) just either side of
// each midpoint; subnormals, ties to even and the overflow threshold included.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "bng/reference/exact.hpp"
#include "bng/reference/rounding.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

using test::show;
constexpr Format kHalf = Format::binary16;
constexpr int kFinePower = 100;  // how far below the midpoint's last bit the neighbours sit

// Every value x of the positive finite binary16 range, with its successor
// (65536 = 2^(emax+1) standing in for Inf above the top value).
double successor(std::uint16_t bits) {
  return bits == 0x7bff ? 65536.0 : half_bits_to_double(static_cast<std::uint16_t>(bits + 1));
}

// RN of (n * 2^e / m) into binary16, as a double.
double rn(bool negative, const BigInt& n, std::int64_t e, std::uint64_t m) {
  return to_double(round_exact(negative, n, e, m, traits(kHalf)));
}

TEST(ReferenceHalfRounding, EveryValueRoundTrips) {
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const double v = half_bits_to_double(bits);
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0) {
      ASSERT_TRUE(std::isnan(v)) << std::hex << b;
      continue;
    }
    ASSERT_TRUE(representable(v, kHalf)) << show(v, kHalf);
    ASSERT_EQ(double_to_half_bits(v), bits) << show(v, kHalf);
    if (std::isfinite(v)) {
      ASSERT_EQ(round_to(kHalf, v), v) << show(v, kHalf);
      const SmallDyadic d = decompose(v);
      const Rounded r = round_exact(d.negative, BigInt(d.mantissa), d.exponent, 1, traits(kHalf));
      ASSERT_EQ(to_double(r), v) << show(v, kHalf);
      // The same value presented as a quotient (n*7)/7 must round identically.
      ASSERT_EQ(rn(d.negative, BigInt(d.mantissa) * 7, d.exponent, 7), v) << show(v, kHalf);
    }
  }
}

TEST(ReferenceHalfRounding, EveryMidpointAndItsNeighbours) {
  int ties_checked = 0;
  for (std::uint16_t bits = 0; bits <= 0x7bff; ++bits) {
    const double lo = half_bits_to_double(bits);
    const double hi = successor(bits);
    const double mid = (lo + hi) / 2;  // exact in double: a few more bits than binary16
    const bool lo_even = (bits & 1) == 0;
    const double hi_or_inf = bits == 0x7bff ? HUGE_VAL : hi;
    const double tie = lo_even ? lo : hi_or_inf;
    const SmallDyadic d = decompose(mid);
    const BigInt n = BigInt(d.mantissa);
    const BigInt fine = n << kFinePower;
    const std::int64_t fine_e = d.exponent - kFinePower;
    for (const bool neg : {false, true}) {
      const double s = neg ? -1.0 : 1.0;
      SCOPED_TRACE("lo=" + show(lo, kHalf) + " mid=" + show(mid, Format::binary32) +
                   (neg ? " negated" : ""));
      ASSERT_EQ(rn(neg, n, d.exponent, 1), s * tie);
      ASSERT_EQ(round_to(kHalf, s * mid), s * tie);
      // Just above and below the midpoint, as dyadics and as quotients by 3
      // (mid ± 2^(e-100)/3 is not dyadic: the remainder decides).
      ASSERT_EQ(rn(neg, fine + 1, fine_e, 1), s * hi_or_inf);
      ASSERT_EQ(rn(neg, fine - 1, fine_e, 1), s * lo);
      ASSERT_EQ(rn(neg, fine * 3 + 1, fine_e, 3), s * hi_or_inf);
      ASSERT_EQ(rn(neg, fine * 3 - 1, fine_e, 3), s * lo);
      // The nearest doubles either side of the midpoint.
      ASSERT_EQ(round_to(kHalf, s * std::nextafter(mid, HUGE_VAL)), s * hi_or_inf);
      ASSERT_EQ(round_to(kHalf, s * std::nextafter(mid, 0.0)), s * lo);
    }
    ++ties_checked;
  }
  EXPECT_EQ(ties_checked, 0x7c00);
}

TEST(ReferenceHalfRounding, OverflowThreshold) {
  // 65520 = 65504 + half the top spacing of 32: the tie goes to the even 2^16, i.e. Inf.
  EXPECT_EQ(round_to(kHalf, 65504.0), 65504.0);
  EXPECT_EQ(round_to(kHalf, std::nextafter(65520.0, 0.0)), 65504.0);
  EXPECT_EQ(round_to(kHalf, 65520.0), HUGE_VAL);
  EXPECT_EQ(round_to(kHalf, -65520.0), -HUGE_VAL);
  EXPECT_EQ(round_to(kHalf, 1e300), HUGE_VAL);
  const Rounded r = round_exact(false, BigInt(65520) * 5 - 1, 0, 5, traits(kHalf));
  EXPECT_FALSE(r.overflow);
  EXPECT_EQ(to_double(r), 65504.0);
  EXPECT_TRUE(round_exact(false, BigInt(1) << 4000, 0, 1, traits(kHalf)).overflow);
}

TEST(ReferenceHalfRounding, SubnormalsAndUnderflow) {
  const double tiny = std::ldexp(1.0, -24);
  EXPECT_EQ(round_to(kHalf, tiny), tiny);
  EXPECT_EQ(round_to(kHalf, tiny / 2), 0.0);                        // tie to even 0
  EXPECT_EQ(round_to(kHalf, std::nextafter(tiny / 2, 1.0)), tiny);  // just above half
  EXPECT_EQ(round_to(kHalf, 3 * tiny / 2), 2 * tiny);               // tie to even 2
  EXPECT_EQ(round_to(kHalf, 5 * tiny / 2), 2 * tiny);
  EXPECT_TRUE(std::signbit(round_to(kHalf, -tiny / 4)));  // underflow keeps the sign
  // Far below the range: y* = 2^-5000 / 3.
  EXPECT_EQ(to_double(round_exact(false, BigInt(1), -5000, 3, traits(kHalf))), 0.0);
  // Largest subnormal rounds up into the smallest normal.
  const double top_sub = 1023 * tiny;
  EXPECT_EQ(round_to(kHalf, top_sub + 0.75 * tiny), std::ldexp(1.0, -14));
}

TEST(ReferenceHalfRounding, UlpIsTheSpacingAbove) {
  for (std::uint16_t bits = 0; bits <= 0x7bff; ++bits) {
    const double v = half_bits_to_double(bits);
    const double spacing = successor(bits) - v;
    ASSERT_EQ(ulp_in(kHalf, v), spacing) << show(v, kHalf);
    ASSERT_EQ(ulp_in(kHalf, -v), spacing) << show(v, kHalf);
  }
  EXPECT_EQ(ulp_in(kHalf, 65530.0), 32.0);  // above the finite range: top binade's spacing
  EXPECT_EQ(ulp_in(kHalf, 1e9), 32.0);
  EXPECT_EQ(ulp_in(kHalf, 0.0), std::ldexp(1.0, -24));
}

TEST(ReferenceHalfRounding, RepresentableRejectsExtraBits) {
  EXPECT_FALSE(representable(1.0 + std::ldexp(1.0, -11), kHalf));
  EXPECT_FALSE(representable(std::ldexp(1.0, -25), kHalf));
  EXPECT_FALSE(representable(65536.0, kHalf));
  EXPECT_THROW(double_to_half_bits(0.1), std::invalid_argument);
}

// binary32 takes a quicker route (a conversion to float); the same edges.
TEST(ReferenceHalfRounding, RepresentableBinary32AtItsEdges) {
  constexpr Format k32 = Format::binary32;
  EXPECT_TRUE(representable(1.0 + std::ldexp(1.0, -23), k32));
  EXPECT_FALSE(representable(1.0 + std::ldexp(1.0, -24), k32));
  EXPECT_TRUE(representable(std::ldexp(1.0, -149), k32));            // smallest subnormal
  EXPECT_FALSE(representable(std::ldexp(1.0, -150), k32));           // half of it
  EXPECT_FALSE(representable(std::ldexp(3.0, -150), k32));           // between two subnormals
  EXPECT_TRUE(representable(-std::ldexp(0x1.fffffep0, 127), k32));   // -max
  EXPECT_FALSE(representable(std::ldexp(1.0, 128), k32));            // past max
  EXPECT_FALSE(representable(std::ldexp(0x1.fffffe8p0, 127), k32));  // max + ulp/4
  EXPECT_TRUE(representable(HUGE_VAL, k32));
}

}  // namespace
}  // namespace bng::ref
