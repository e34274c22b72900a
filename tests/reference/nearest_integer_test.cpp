// quick::nearest_integer (reference/src/quick_rounding_test.hpp), which the
// quick rounding test takes instead of std::nearbyint, against nearbyint on
// the range it is used on (|v| < 2^51): random values at every scale, every
// tie k + 1/2 near the scales' edges, and the values next to them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "quick_rounding_test.hpp"

namespace bng::ref::quick {
namespace {

void expect_as_nearbyint(double v) {
  // == : nearest_integer may give +0 where nearbyint gives -0 (its callers
  // take only |k| and v - k).
  ASSERT_EQ(nearest_integer(v), std::nearbyint(v)) << std::hexfloat << v;
}

TEST(NearestInteger, AsNearbyintAtEveryScale) {
  std::mt19937_64 rng(51);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int e = -60; e <= 50; ++e) {
    for (int i = 0; i < 4000; ++i) expect_as_nearbyint(std::ldexp(unit(rng), e));
  }
}

TEST(NearestInteger, AsNearbyintAtTiesAndTheirNeighbours) {
  for (int e = 0; e <= 50; ++e) {
    for (const double base :
         {std::ldexp(1.0, e), std::ldexp(1.0, e) - 1, 3.0 * std::ldexp(1.0, e - 1)}) {
      for (const double k : {base, base + 1, base + 2}) {
        const double tie = k + 0.5;
        if (!(std::fabs(tie) < 0x1p51)) continue;
        for (const double v : {tie, std::nextafter(tie, 0.0), std::nextafter(tie, 0x1p60)}) {
          expect_as_nearbyint(v);
          expect_as_nearbyint(-v);
        }
      }
    }
  }
  for (const double v : {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0x1p-1074, 0x1p51 - 0.5}) {
    expect_as_nearbyint(v);
  }
}

}  // namespace
}  // namespace bng::ref::quick
