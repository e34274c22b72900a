// The kernels' scalar binary16 conversions, exhaustively against the
// reference's rounding, and the overflow rule of output_rounding.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "bng/reference/rounding.hpp"
#include "half_bits.hpp"
#include "kernel_runner.hpp"
#include "output_rounding.hpp"

namespace bng::ktest {
namespace {

std::string hex_a(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

TEST(BNG_KSUITE(HalfBits), EveryHalfConvertsExactly) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const double want = ref::half_bits_to_double(static_cast<std::uint16_t>(h));
    const double got = opt::half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << "half 0x" << std::hex << h;
    } else {
      ASSERT_EQ(got, want) << "half 0x" << std::hex << h << " -> " << hex_a(got);
      ASSERT_EQ(std::signbit(got), std::signbit(want)) << "half 0x" << std::hex << h;
    }
  }
}

TEST(BNG_KSUITE(HalfBits), RoundsToNearestEvenAtEveryMidpoint) {
  // Between consecutive non-negative halves a < b: the midpoint (ties to even)
  // and its two double neighbours, both signs; then past the top.
  for (std::uint32_t h = 0; h < 0x7bff; ++h) {
    const double a = ref::half_bits_to_double(static_cast<std::uint16_t>(h));
    const double b = ref::half_bits_to_double(static_cast<std::uint16_t>(h + 1));
    const double mid = (a + b) / 2;
    for (const double v : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9), a, b}) {
      for (const double s : {v, -v}) {
        const double want = ref::round_to(Format::binary16, s);
        const double got = ref::half_bits_to_double(opt::double_to_half_rn(s));
        ASSERT_EQ(got, want) << "double " << hex_a(s) << " (half 0x" << std::hex << h << ")";
      }
    }
  }
  EXPECT_EQ(opt::double_to_half_rn(65519.99), 0x7bff);
  EXPECT_EQ(opt::double_to_half_rn(65520.0), 0x7c00);
  EXPECT_EQ(opt::double_to_half_rn(-1e300), 0xfc00);
  EXPECT_EQ(opt::double_to_half_rn(0x1p-25), 0x0000);
  EXPECT_EQ(opt::double_to_half_rn(std::nextafter(0x1p-25, 1.0)), 0x0001);
  EXPECT_EQ(opt::double_to_half_rn(0x1p-1070), 0x0000);
  EXPECT_EQ(opt::double_to_half_rn(NAN) & 0x7c00, 0x7c00);
  EXPECT_NE(opt::double_to_half_rn(NAN) & 0x03ff, 0);
  // The overflow rule of output_rounding.hpp.
  EXPECT_EQ(opt::round_to_half(65535.0), 0x7bff);
  EXPECT_EQ(opt::round_to_half(65536.0), 0x7c00);
  EXPECT_EQ(opt::round_to_float(0x1.ffffffp127), 0x1.fffffep127f);
  EXPECT_TRUE(std::isinf(opt::round_to_float(0x1p128)));
}

}  // namespace
}  // namespace bng::ktest
