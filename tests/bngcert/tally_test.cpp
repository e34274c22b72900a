// The tallies' counting (judging/tally.cpp): a density cell is floor(2 log2 v)
// exactly, at the binade and half-binade splits, for subnormals and at the
// ends of the double range, and the logarithm's cell wherever that is safely
// away from a split. (That judge()'s per-call counters give the tally that
// adding outputs one by one gives is held end to end: check_cli_test's
// bands, metrics_test and the reports' tests.)
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "tally.hpp"

namespace {

using bng::cert::Density;

constexpr double kRnSqrt2 = 0x1.6a09e667f3bcdp0;  // RN(sqrt(2)), above sqrt(2)

TEST(DensityCell, IsTwiceLog2RoundedDownExactly) {
  EXPECT_EQ(Density::cell_of(1.0), 0);
  EXPECT_EQ(Density::cell_of(std::nextafter(1.0, 0.0)), -1);
  EXPECT_EQ(Density::cell_of(kRnSqrt2), 1);
  EXPECT_EQ(Density::cell_of(std::nextafter(kRnSqrt2, 0.0)), 0);  // below sqrt(2)
  EXPECT_EQ(Density::cell_of(0x1p-20 * kRnSqrt2), -39);
  EXPECT_EQ(Density::cell_of(std::nextafter(0x1p-20 * kRnSqrt2, 0.0)), -40);
  EXPECT_EQ(Density::cell_of(0x1p-1074), -2148);      // the least subnormal
  EXPECT_EQ(Density::cell_of(0x1p-1074 * 3), -2145);  // 1.5 * 2^-1073: the upper half
  EXPECT_EQ(Density::cell_of(std::numeric_limits<double>::max()), 2047);
  EXPECT_EQ(Density::cell_of(std::numeric_limits<double>::infinity()), Density::kInfinite);
  EXPECT_EQ(Density::cell_of(std::numeric_limits<double>::quiet_NaN()), Density::kInfinite);
}

TEST(DensityCell, AgreesWithTheLogarithmAwayFromTheSplits) {
  std::mt19937_64 rng(40);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-1060, 1020);
  for (int i = 0; i < 100000; ++i) {
    const double m = mantissa(rng);
    if (std::fabs(m - kRnSqrt2) < 0x1p-40 || m - 1.0 < 0x1p-40) continue;
    const double v = std::ldexp(m, exponent(rng));
    EXPECT_EQ(Density::cell_of(v), static_cast<int>(std::floor(std::log2(v) * 2))) << v;
  }
}

}  // namespace
