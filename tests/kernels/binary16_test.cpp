// The one binary16 module (common/include/bng/binary16.hpp), exhaustively
// against the format's definition and the reference's exact rounding, and the
// overflow rule of output_rounding.hpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "bng/binary16.hpp"
#include "bng/reference/rounding.hpp"
#include "kernel_runner.hpp"
#include "output_rounding.hpp"

namespace bng::ktest {
namespace {

// The value of a binary16 pattern from the format's definition, as the oracle
// (the reference's own half_bits_to_double is this module too).
double defined_value(std::uint32_t h) {
  const double sign = (h & 0x8000u) != 0 ? -1.0 : 1.0;
  const int exponent = static_cast<int>((h >> 10) & 0x1fu);
  const int fraction = static_cast<int>(h & 0x3ffu);
  if (exponent == 0x1f) return fraction != 0 ? std::copysign(NAN, sign) : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(fraction, -24);
  return sign * std::ldexp(fraction + 1024, exponent - 25);
}

TEST(BNG_KSUITE(Binary16), EveryHalfConvertsExactly) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    const double want = defined_value(h);
    const double got = binary16::to_float(bits);
    const double value = binary16::to_double(bits);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << "half 0x" << std::hex << h;
      ASSERT_TRUE(std::isnan(value)) << "half 0x" << std::hex << h;
      ASSERT_EQ(std::signbit(value), std::signbit(want)) << "half 0x" << std::hex << h;
      // A NaN's value is the default quiet NaN; its encoding too.
      ASSERT_EQ(binary16::exact_from_double(value), (h & 0x8000u) | 0x7e00u);
    } else {
      ASSERT_EQ(got, want) << "half 0x" << std::hex << h << " -> " << hex_a(got);
      ASSERT_EQ(std::signbit(got), std::signbit(want)) << "half 0x" << std::hex << h;
      ASSERT_EQ(value, want) << "half 0x" << std::hex << h;
      ASSERT_EQ(binary16::exact_from_double(value), h) << "half 0x" << std::hex << h;
    }
  }
}

TEST(BNG_KSUITE(Binary16), ExactEncodingRefusesExactlyWhatTheReferenceCannotRepresent) {
  for (std::uint32_t h = 0; h < 0x7bff; h += 7) {
    const double a = defined_value(h), b = defined_value(h + 1);
    for (const double v : {(a + b) / 2, std::nextafter(a, 1e9), std::nextafter(b, 0.0)}) {
      for (const double s : {v, -v}) {
        ASSERT_EQ(binary16::exact_from_double(s).has_value(),
                  ref::representable(s, Format::binary16))
            << "double " << hex_a(s);
      }
    }
  }
  for (const double v : {65504.0, 65505.0, 65520.0, 1e300, 0x1p-24, 0x1p-25, 0x1p-1074}) {
    EXPECT_EQ(binary16::exact_from_double(v).has_value(), ref::representable(v, Format::binary16))
        << hex_a(v);
  }
}

TEST(BNG_KSUITE(Binary16), RoundsToNearestEvenAtEveryMidpoint) {
  // Between consecutive non-negative halves a < b: the midpoint (ties to even)
  // and its two double neighbours, both signs; then past the top.
  for (std::uint32_t h = 0; h < 0x7bff; ++h) {
    const double a = defined_value(h);
    const double b = defined_value(h + 1);
    const double mid = (a + b) / 2;
    for (const double v : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e9), a, b}) {
      for (const double s : {v, -v}) {
        const double want = ref::round_to(Format::binary16, s);
        const double got = binary16::to_double(binary16::round_from_double(s));
        ASSERT_EQ(got, want) << "double " << hex_a(s) << " (half 0x" << std::hex << h << ")";
      }
    }
  }
  EXPECT_EQ(binary16::round_from_double(65519.99), 0x7bff);
  EXPECT_EQ(binary16::round_from_double(65520.0), 0x7c00);
  EXPECT_EQ(binary16::round_from_double(-1e300), 0xfc00);
  EXPECT_EQ(binary16::round_from_double(0x1p-25), 0x0000);
  EXPECT_EQ(binary16::round_from_double(std::nextafter(0x1p-25, 1.0)), 0x0001);
  EXPECT_EQ(binary16::round_from_double(0x1p-1070), 0x0000);
  EXPECT_EQ(binary16::round_from_double(NAN) & 0x7c00, 0x7c00);
  EXPECT_NE(binary16::round_from_double(NAN) & 0x03ff, 0);
  // The overflow rule of output_rounding.hpp.
  EXPECT_EQ(opt::round_to_half(65535.0), 0x7bff);
  EXPECT_EQ(opt::round_to_half(65536.0), 0x7c00);
  EXPECT_EQ(opt::round_to_float(0x1.ffffffp127), 0x1.fffffep127f);
  EXPECT_TRUE(std::isinf(opt::round_to_float(0x1p128)));
}

}  // namespace
}  // namespace bng::ktest
