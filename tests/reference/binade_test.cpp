// binade() and significand() (bng/reference/binade.hpp) against libm's
// std::ilogb and std::scalbn, on both signs of every kind of finite non-zero
// double: random bit patterns, subnormals, the ends of the range, powers of
// two and their neighbours.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "bng/reference/binade.hpp"

namespace bng::ref {
namespace {

void expect_as_libm(double v) {
  ASSERT_EQ(binade(v), std::ilogb(v)) << v;
  const double want = std::scalbn(std::fabs(v), -std::ilogb(v));
  ASSERT_EQ(std::bit_cast<std::uint64_t>(significand(v)), std::bit_cast<std::uint64_t>(want)) << v;
}

TEST(Binade, AsIlogbAndScalbnOnRandomBitPatterns) {
  std::mt19937_64 rng(40);
  for (int i = 0; i < 200000; ++i) {
    std::uint64_t bits = rng();
    if (i % 4 == 0) bits &= 0x800fffffffffffffu;  // a subnormal (or zero)
    const double v = std::bit_cast<double>(bits);
    if (!std::isfinite(v) || v == 0) continue;
    expect_as_libm(v);
  }
}

TEST(Binade, AsIlogbAndScalbnAtTheEdges) {
  const double max = std::numeric_limits<double>::max();
  const double min_normal = std::numeric_limits<double>::min();
  std::vector<double> edges = {0x1p-1074,
                               0x1p-1073 * 3,
                               min_normal,
                               std::nextafter(min_normal, 0),
                               std::nextafter(min_normal, 1),
                               max,
                               1.0,
                               std::nextafter(1.0, 0),
                               std::nextafter(1.0, 2)};
  for (int k = -1074; k <= 1023; ++k) edges.push_back(std::ldexp(1.0, k));
  for (const double v : edges) {
    expect_as_libm(v);
    expect_as_libm(-v);
  }
}

}  // namespace
}  // namespace bng::ref
