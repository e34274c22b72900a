// The tallies' counting (judging/tally.cpp): a density cell is floor(2 log2 v)
// exactly, at the binade and half-binade splits, for subnormals and at the
// ends of the double range, and the logarithm's cell wherever that is safely
// away from a split; and judge()'s per-call counters (call_counts.hpp) give
// the bins and cells of their definitions, added onto what a tally held, a
// table that fills past half (its spill) included; and larger() is std::fmax.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <utility>

#include "call_counts.hpp"
#include "tally.hpp"

namespace {

using bng::Measure;
using bng::cert::Density;
using bng::cert::DensityCounts;
using bng::cert::Histogram;
using bng::cert::HistogramCounts;

constexpr double kRnSqrt2 = 0x1.6a09e667f3bcdp0;  // RN(sqrt(2)), above sqrt(2)

// The tallies' maxima take larger() for std::fmax: the same value, NaN only
// when both are NaN.
TEST(Larger, IsFmax) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double values[] = {nan, -inf, -1.5, 0.0, 0x1p-1074, 1.0, 2.5, inf};
  for (const double a : values) {
    for (const double b : values) {
      const double got = bng::cert::larger(a, b), want = std::fmax(a, b);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got)) << a << " " << b;
      } else {
        EXPECT_EQ(got, want) << a << " " << b;
      }
    }
  }
}

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

TEST(CallCounts, HistogramGetsEachErrorInTheBinOfItsIlogb) {
  Histogram h;
  h.zero = 2;
  h.bins[3] = 5;  // what the tally held before this call
  Histogram want = h;
  HistogramCounts counts;
  std::mt19937_64 rng(41);
  std::uniform_int_distribution<int> exponent(-1074, 1023);
  for (int i = 0; i < 20000; ++i) {
    const double e = i % 97 == 0   ? 0.0
                     : i % 89 == 0 ? std::numeric_limits<double>::infinity()
                     : i % 83 == 0 ? std::numeric_limits<double>::quiet_NaN()
                                   : std::ldexp(1.5, exponent(rng));
    counts.add(e);
    if (e == 0) {
      ++want.zero;
    } else if (!std::isfinite(e)) {
      ++want.infinite;
    } else {
      ++want.bins[std::ilogb(e)];
    }
  }
  counts.add(0x1p-1074);
  ++want.bins[-1074];
  counts.add(std::numeric_limits<double>::max());
  ++want.bins[1023];
  counts.add_to(h);
  EXPECT_EQ(h.zero, want.zero);
  EXPECT_EQ(h.infinite, want.infinite);
  EXPECT_EQ(h.bins, want.bins);
}

TEST(CallCounts, DensityGetsEachOutputInItsCellAcrossASpill) {
  Density d;
  d.cells[{0, 1}] = {3, 1};  // what the tally held before this call
  std::map<std::pair<int, int>, Density::Cell> want = d.cells;
  DensityCounts counts;
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> log_kappa(0, 40), log_error(-60, 10);
  std::int64_t without_error = 0;
  for (int i = 0; i < 30000; ++i) {  // about 80 x 140 cells: the table spills many times
    Measure m;
    m.kappa = i % 101 == 0 ? std::numeric_limits<double>::infinity() : std::exp2(log_kappa(rng));
    m.normalised_error = i % 13 == 0    ? 0.0
                         : i % 103 == 0 ? std::numeric_limits<double>::infinity()
                                        : std::exp2(log_error(rng));
    m.pass = i % 3 != 0;
    counts.add(m);
    if (m.normalised_error == 0) {
      ++without_error;
      continue;
    }
    Density::Cell& c = want[{Density::cell_of(m.kappa), Density::cell_of(m.normalised_error)}];
    (m.pass ? c.pass : c.fail) += 1;
  }
  ASSERT_GT(want.size(), 2000u) << "the table must fill past half several times";
  ASSERT_GT(without_error, 0);
  counts.add_to(d);
  ASSERT_EQ(d.cells.size(), want.size());
  for (const auto& [key, cell] : want) {
    EXPECT_EQ(d.cells[key].pass, cell.pass) << key.first << ", " << key.second;
    EXPECT_EQ(d.cells[key].fail, cell.fail) << key.first << ", " << key.second;
  }
}

}  // namespace
