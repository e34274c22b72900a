// SPEC §5's pass/fail rule and error measures at their boundaries.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "bng/reference/error_measure.hpp"
#include "bng/reference/reference.hpp"

namespace bng {
namespace {

using ref::Expected;
using ref::Kind;
constexpr Format kF = Format::binary32;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

Expected finite(double rounded, long double exact, double ulp, long double magnitude) {
  Expected e;
  e.kind = Kind::finite;
  e.rounded = rounded;
  e.exact = exact;
  e.ulp = ulp;
  e.magnitude = magnitude;
  return e;
}

Expected special(Kind k) {
  Expected e;
  e.kind = k;
  e.rounded = kNan;
  return e;
}

TEST(ReferenceErrorMeasure, UnitRoundoff) {
  EXPECT_EQ(unit_roundoff(Format::binary16), 0x1p-11);
  EXPECT_EQ(unit_roundoff(Format::binary32), 0x1p-24);
}

TEST(ReferenceErrorMeasure, NanReferenceNeedsNan) {
  const Expected e = special(Kind::nan);
  EXPECT_TRUE(measure(kNan, e, kF, 0).pass);
  EXPECT_FALSE(measure(kInf, e, kF, 0).pass);
  EXPECT_FALSE(measure(1.0, e, kF, 1).pass);
  EXPECT_STRNE(measure(1.0, e, kF, 0).reason, "");
}

TEST(ReferenceErrorMeasure, NonfiniteReferenceTakesNanOrInf) {
  const Expected e = special(Kind::nonfinite);
  EXPECT_TRUE(measure(kNan, e, kF, 0).pass);
  EXPECT_TRUE(measure(kInf, e, kF, 0).pass);
  EXPECT_TRUE(measure(-kInf, e, kF, 0).pass);
  EXPECT_FALSE(measure(0x1.fffffep127, e, kF, 1).pass);
  EXPECT_FALSE(measure(0.0, e, kF, 1).pass);
}

TEST(ReferenceErrorMeasure, OneUlpBoundaryIsInclusive) {
  const double ulp = 0x1p-23;
  const Expected e = finite(1.0, 1.0L, ulp, 1.0L);  // y* = 1 exactly
  EXPECT_TRUE(measure(1.0, e, kF, 0).pass);
  const Measure at = measure(1.0 + ulp, e, kF, 0);
  EXPECT_TRUE(at.pass);
  EXPECT_EQ(at.ulp_error, 1.0);
  EXPECT_EQ(at.normalised_error, 2.0);  // 2^-23 / (2^-24 * 1)
  EXPECT_FALSE(measure(1.0 + 2 * ulp, e, kF, 0).pass);
  EXPECT_TRUE(measure(1.0 - ulp / 2, e, kF, 0).pass);
  EXPECT_FALSE(measure(1.0 - 2 * ulp, e, kF, 0).pass);
}

TEST(ReferenceErrorMeasure, AlphaTermAtItsBoundary) {
  // y* = 1 + 2^-25, M = 1: y = 1 + 2^-22 is 2^-22 - 2^-25 = 1.75 ulp away.
  const double ulp = 0x1p-23;
  const Expected e = finite(1.0, 1.0L + 0x1p-25L, ulp, 1.0L);
  const double y = 1.0 + 0x1p-22;
  EXPECT_FALSE(measure(y, e, kF, 0).pass);
  const double alpha = 0.75 * 0x1p-23;  // ulp + alpha*M = 1.75 ulp exactly
  EXPECT_TRUE(measure(y, e, kF, alpha).pass);
  EXPECT_FALSE(measure(y, e, kF, std::nextafter(alpha, 0.0)).pass);
  EXPECT_DOUBLE_EQ(measure(y, e, kF, alpha).ulp_error, 1.75);
}

TEST(ReferenceErrorMeasure, FiniteReferenceRejectsNanAndInf) {
  const Expected e = finite(1.0, 1.0L, 0x1p-23, 1.0L);
  EXPECT_FALSE(measure(kNan, e, kF, 1).pass);
  EXPECT_FALSE(measure(kInf, e, kF, 1e300).pass);  // finite RN(y*) demands a finite y
  EXPECT_FALSE(measure(-kInf, e, kF, 1e300).pass);
}

TEST(ReferenceErrorMeasure, OverflowingReferenceAcceptsInfOrNearbyFinite) {
  // binary16: y* = 65520 rounds to Inf; ulp is the top binade's spacing, 32.
  const Expected e = finite(kInf, 65520.0L, 32.0, 65520.0L);
  const Format h = Format::binary16;
  EXPECT_TRUE(measure(kInf, e, h, 0).pass);
  EXPECT_FALSE(measure(-kInf, e, h, 0).pass);
  EXPECT_TRUE(measure(65504.0, e, h, 0).pass);   // 16 <= 32
  EXPECT_FALSE(measure(65472.0, e, h, 0).pass);  // 48 > 32
  EXPECT_FALSE(measure(kNan, e, h, 0).pass);
}

// A kernel that declares correct rounding (SPEC §5) passes a finite RN(y*)
// only by equality, the sign of a zero aside, and ±Inf where y* rounds to it.
TEST(ReferenceErrorMeasure, CorrectRoundingIsJudgedByEquality) {
  const double ulp = 0x1p-23;
  const Expected e = finite(1.0, 1.0L + 0x1p-26L, ulp, 1.0L);
  EXPECT_TRUE(measure(1.0, e, kF, 0x1p-40, true).pass);
  const Measure neighbour = measure(1.0 + ulp, e, kF, 0x1p-40, true);
  EXPECT_FALSE(neighbour.pass);  // within 1 ulp, so alpha alone passes it:
  EXPECT_TRUE(measure(1.0 + ulp, e, kF, 0x1p-40).pass);
  EXPECT_STREQ(neighbour.reason, "y is not RN(y*), and the kernel declares correct rounding");
  EXPECT_EQ(neighbour.ulp_error, measure(1.0 + ulp, e, kF, 0x1p-40).ulp_error);
  const Expected zero = finite(0.0, 0.0L, 0x1p-149, 1.0L);
  EXPECT_TRUE(measure(-0.0, zero, kF, 0x1p-40, true).pass);
  EXPECT_FALSE(measure(0x1p-149, zero, kF, 0x1p-40, true).pass);
  EXPECT_FALSE(measure(kNan, e, kF, 0x1p-40, true).pass);
  // RN(y*) = +Inf (binary16: MAX = 65504, y* = 65520): only Inf passes the
  // declaration; MAX, within the tolerance, passes without it.
  const Expected over = finite(kInf, 65520.0L, 32.0, 65520.0L);
  EXPECT_TRUE(measure(kInf, over, Format::binary16, 0x1p-21, true).pass);
  const Measure saturated = measure(65504.0, over, Format::binary16, 0x1p-21, true);
  EXPECT_FALSE(saturated.pass);
  EXPECT_STREQ(saturated.reason,
               "y* rounds to ±Inf, y is finite, and the kernel declares correct rounding");
  EXPECT_TRUE(measure(65504.0, over, Format::binary16, 0x1p-21).pass);
  EXPECT_FALSE(measure(-kInf, over, Format::binary16, 0x1p-21, true).pass);
  // Just below the threshold RN(y*) = MAX: Inf fails, with or without it.
  const Expected below = finite(65504.0, 65519.0L, 32.0, 65519.0L);
  EXPECT_TRUE(measure(65504.0, below, Format::binary16, 0x1p-21, true).pass);
  EXPECT_FALSE(measure(kInf, below, Format::binary16, 0x1p-21, true).pass);
  // The non-finite kinds keep their rules.
  EXPECT_TRUE(measure(kNan, special(Kind::nan), kF, 0x1p-40, true).pass);
  EXPECT_TRUE(measure(kInf, special(Kind::nonfinite), kF, 0x1p-40, true).pass);
}

TEST(ReferenceErrorMeasure, KappaAndZeroMagnitude) {
  const Expected cancel = finite(1.0, 1.0L, 0x1p-23, 4.0L);
  EXPECT_EQ(measure(1.0, cancel, kF, 0).kappa, 4.0);
  const Expected zero_exact = finite(0.0, 0.0L, 0x1p-149, 2.0L);
  EXPECT_EQ(measure(0.0, zero_exact, kF, 0).kappa, kInf);
  EXPECT_TRUE(measure(0x1p-149, zero_exact, kF, 0).pass);
  const Expected zero_all = finite(0.0, 0.0L, 0x1p-149, 0.0L);
  const Measure same = measure(0.0, zero_all, kF, 0);
  EXPECT_EQ(same.kappa, 1.0);
  EXPECT_EQ(same.normalised_error, 0.0);
  EXPECT_EQ(measure(0x1p-149, zero_all, kF, 0).normalised_error, kInf);
  EXPECT_TRUE(measure(-0.0, zero_all, kF, 0).pass);  // the sign of zero is not judged
}

// The same rules on the reference's own output for a case that overflows.
TEST(ReferenceErrorMeasure, OnReferenceOutput) {
  Case c;
  c.combo = Combo::hp;
  c.is_train = 0;
  c.x = {0.0};
  c.dy = {4368.0};
  c.mean = {0.0};
  c.invar = {5.0};
  c.scale = {3.0};
  const ref::Result r = ref::compute(c);  // dx* = 65520 -> Inf
  EXPECT_EQ(r.dx[0].rounded, kInf);
  EXPECT_EQ(r.dx[0].ulp, 32.0);
  EXPECT_TRUE(measure(kInf, r.dx[0], Format::binary16, 0).pass);
  EXPECT_TRUE(measure(65504.0, r.dx[0], Format::binary16, 0).pass);  // within alpha = 0's 1 ulp
  EXPECT_FALSE(measure(65504.0, r.dx[0], Format::binary16, 0, true).pass);
  EXPECT_TRUE(measure(r.dbias[0].rounded, r.dbias[0], Format::binary16, 0).pass);
}

// The ULP error is |y - y*| / ulp(y*) as a long double division gives it,
// bit for bit, though measure() multiplies by 2^-k instead: on every ulp of
// binary32 and binary16 (subnormal spacings and the top binades included),
// with y* anywhere within a few ulps of y, and for an ulp that is not a power
// of two (never the reference's, divided all the same).
TEST(ReferenceErrorMeasure, UlpErrorIsTheQuotient) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> offset(-4, 4);
  for (const Format f : {Format::binary32, Format::binary16}) {
    const int low = f == Format::binary32 ? -149 : -24, high = f == Format::binary32 ? 104 : 5;
    for (int k = low; k <= high; ++k) {
      const double ulp = std::ldexp(1.0, k);
      for (int i = 0; i < 50; ++i) {
        const double y = std::ldexp(static_cast<double>(rng() >> 40), k);
        const long double exact = y + static_cast<long double>(offset(rng)) * ulp;
        const Measure m = measure(y, finite(y, exact, ulp, std::fabs(exact)), f, 0);
        const long double want = std::fabs(static_cast<long double>(y) - exact) / ulp;
        ASSERT_EQ(m.ulp_error, static_cast<double>(want)) << "ulp 2^" << k << " y " << y;
      }
    }
  }
  const Measure m = measure(1.0, finite(1.0, 1.5L, 3.0, 1.5L), kF, 0);
  EXPECT_EQ(m.ulp_error, static_cast<double>(0.5L / 3.0L));
}

}  // namespace
}  // namespace bng
