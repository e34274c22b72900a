// The kernels' own binary16 conversions, exhaustively against the reference's
// rounding, and the final rounding of the vector paths: inference dx = a*dy
// with a*dy exact in binary64 must be exactly the rounding rule of
// output_rounding.hpp (nearest-even; ±MAX between MAX and 2^(emax+1)).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "bng/optimized/isa.hpp"
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

TEST(HalfBits, EveryHalfConvertsExactly) {
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

TEST(HalfBits, RoundsToNearestEvenAtEveryMidpoint) {
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

// What output_rounding.hpp promises for an exact t.
double expected_rounding(double t, Format f) {
  const double max = f == Format::binary16 ? 65504.0 : 0x1.fffffep127;
  const double over = f == Format::binary16 ? 65536.0 : 0x1p128;
  if (std::fabs(t) >= over) return std::copysign(HUGE_VAL, t);
  if (std::fabs(t) > max) return std::copysign(max, t);
  return ref::round_to(f, t);
}

TEST(KernelRounding, InferenceDxIsTheRoundingOfAnExactProduct) {
  std::mt19937_64 rng(0xa11ce);
  for (const Combo combo : target_combos()) {
    const Format df = data_format(combo);
    // Multipliers a = scale*invar (invar a power of two) of at most 24
    // significant bits, so a*dy is exact in binary64; they put results at midpoints, in the
    // subnormal range and past the overflow threshold.
    const double scales[] = {1.0 + 0x1p-10, 1.0 + 0x1p-23, 0x1.8p-9, 3.0, 0x1.0001p-3};
    const double invars[] = {1.0, 0x1p-8, 0x1p4};
    const std::int64_t n = df == Format::binary16 ? 0x10000 : 0x20000;
    Case c;
    c.combo = combo;
    c.batch = n;
    c.channel = static_cast<std::int64_t>(std::size(scales) * std::size(invars));
    c.is_train = 0;
    for (const double s : scales) {
      for (const double iv : invars) {
        c.scale.push_back(ref::round_to(stats_format(combo), s));
        c.invar.push_back(iv);
        c.mean.push_back(0.0);
      }
    }
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        double dy = df == Format::binary16
                        ? ref::half_bits_to_double(static_cast<std::uint16_t>(i))
                        : ref::float_bits_to_double(static_cast<std::uint32_t>(rng()));
        if (std::isnan(dy)) dy = 1.0;
        c.dy.push_back(dy);
        c.x.push_back(0.0);
      }
    }
    const Outputs out = decode(c, run_raw(c, 0x3));
    int bad = 0;
    for (std::size_t i = 0; i < out.dx.size() && bad < 5; ++i) {
      const auto ch = i % static_cast<std::size_t>(c.channel);
      const double t = c.scale[ch] * c.invar[ch] * c.dy[i];
      const double want = expected_rounding(t, df);
      if (out.dx[i] != want) {
        ++bad;
        ADD_FAILURE() << combo_name(combo) << " isa " << opt::isa_name() << " dy " << hex_a(c.dy[i])
                      << " a " << hex_a(c.scale[ch] * c.invar[ch]) << " t " << hex_a(t) << ": dx "
                      << hex_a(out.dx[i]) << ", want " << hex_a(want);
      }
    }
  }
}

}  // namespace
}  // namespace bng::ktest
