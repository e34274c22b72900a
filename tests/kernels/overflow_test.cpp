// Outputs at the top of the range with a huge magnitude M (docs/accuracy.md
// §4): where the binary64 result t reaches 2^(emax+1) only through its error
// (up to alpha*M/2), y* may still round to a finite value, and then the kernel
// must return a finite value (SPEC §5). Cases: batch 1 with x = mean (dx* = 0
// but fma(a, dy, -a*dy rounded) leaves the product's rounding error), batch 1
// with dx* spread around the threshold, and a dscale whose sum loses a term
// right at a rounding boundary so that t = 2^128 while y* < MAX + ulp/2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "bng/optimized/isa.hpp"
#include "bng/reference/rounding.hpp"
#include "kernel_runner.hpp"
#include "output_rounding.hpp"

namespace bng::ktest {
namespace {

constexpr std::int64_t kChannels = 37;  // whole vectors and a scalar tail

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

// Batch 1, training: |a*dy| ~ 2^g far beyond the output's range, x - mean
// chosen so that dx* = -a*(iv*(x-mean))^2*dy lands near 2^top (every fourth
// channel: x = mean, dx* = 0).
Case batch_one(Combo combo, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Format df = data_format(combo), sf = stats_format(combo);
  const bool half_out = df == Format::binary16;
  const bool half_stats = sf == Format::binary16;
  // a = scale*iv ~ 2^(se + ie); dy ~ 2^[0, 4).
  const int se = half_stats ? 8 : (half_out ? 30 : 100);
  const int ie = half_stats ? 8 : (half_out ? 40 : 90);
  const double top = half_out ? 16 : 128;
  Case c;
  c.combo = combo;
  c.batch = 1;
  c.channel = kChannels;
  c.is_train = 1;
  for (std::int64_t ch = 0; ch < kChannels; ++ch) {
    const double scale = ref::round_to(sf, std::ldexp(uniform(rng, 1, 2), se));
    const double iv = ref::round_to(sf, std::ldexp(uniform(rng, 1, 2), ie));
    const double dy =
        ref::round_to(df, std::ldexp(uniform(rng, 1, 2), static_cast<int>(rng() % 4)));
    const double sign = rng() % 2 == 0 ? 1.0 : -1.0;
    c.scale.push_back(scale);
    c.invar.push_back(iv);
    c.x.push_back(0.0);
    c.dy.push_back(sign * dy);
    if (ch % 4 == 0) {
      c.mean.push_back(0.0);
      continue;
    }
    // |dx*| = a*iv^2*mean^2*|dy| = 2^(top + w), w in [-1, 1].
    const double want = std::exp2(top + uniform(rng, -1, 1));
    const double mu = std::sqrt(want / (scale * iv * dy)) / iv;
    c.mean.push_back(ref::round_to(sf, rng() % 2 == 0 ? mu : -mu));
  }
  return c;
}

// fp's dscale: rows (V, s, -V) with x = (X, x1, X), V = X = 2^127, mean 0:
// the block sum fma(dy, x, .) rounds 2^254 + s*x1 to 2^254 + 2^202 when
// s*x1 > 2^201, so the pass-1 sum is 2^202 while the exact one is s*x1 in
// (2^201, 2^202); iv = 2^-74 makes t = 2^128 and y* in (2^127, 2^128).
// 263 channels: no folding (the three rows share one lane), and a tail.
constexpr std::int64_t kWideChannels = 263;
Case rounding_boundary_dscale(int is_train, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Format f = Format::binary32;
  Case c;
  c.combo = Combo::fp;
  c.batch = 3;
  c.channel = kWideChannels;
  c.is_train = is_train;
  for (std::int64_t ch = 0; ch < kWideChannels; ++ch) {
    c.mean.push_back(0.0);
    c.scale.push_back(ref::round_to(f, uniform(rng, 0.5, 1)));
    c.invar.push_back(0x1p-74);
  }
  for (int row = 0; row < 3; ++row) {
    for (std::int64_t ch = 0; ch < kWideChannels; ++ch) {
      if (row == 1) {
        // s*x1 = 2^201 * r1*r2, each r in [1, sqrt 2).
        c.dy.push_back(ref::round_to(f, std::ldexp(uniform(rng, 1, 1.4142), 100)));
        c.x.push_back(ref::round_to(f, std::ldexp(uniform(rng, 1, 1.4142), 101)));
      } else {
        c.dy.push_back(row == 0 ? 0x1p127 : -0x1p127);
        c.x.push_back(0x1p127);
      }
    }
  }
  return c;
}

std::string what(const char* kind, std::uint64_t seed, unsigned mask) {
  return std::string(kind) + " seed " + std::to_string(seed) + " mask 0x" + std::to_string(mask) +
         " isa " + opt::isa_name();
}

// In place, pass 1 sums the magnitudes the guard needs (the inputs will be
// overwritten); otherwise they are recomputed on demand: same bits.
void check_case(const Case& c, const char* kind, std::uint64_t seed) {
  expect_same_bits_within_alpha(c, what(kind, seed, 3));
}

TEST(BNG_KSUITE(KernelOverflow), BatchOneHugeMagnitudeStaysFiniteWhereExactIsFinite) {
  for (const Combo combo : target_combos()) {
    for (std::uint64_t seed = 0xb1; seed < 0xb1 + 24; ++seed) {
      check_case(batch_one(combo, seed), "batch_one", seed);
    }
  }
}

TEST(BNG_KSUITE(KernelOverflow), DscaleAtARoundingBoundaryStaysFinite) {
  // Only binary32 data reach it: with binary16 data (and binary32 statistics)
  // iv would have to exceed binary32's range to lift the lost term to 2^128.
  for (std::uint64_t seed = 0xd5; seed < 0xd5 + 4; ++seed) {
    for (int train = 0; train <= 1; ++train) {
      const Case c = rounding_boundary_dscale(train, seed);
      // The construction must put exact values just below the threshold.
      int finite_near_top = 0;
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        const double ys = c.dy[c.channel + ch] * c.x[c.channel + ch] * 0x1p-74;
        if (ys > 0x1p127 && ys < 0x1.ffffffp127) ++finite_near_top;
      }
      EXPECT_GT(finite_near_top, c.channel / 4) << "seed " << seed;
      check_case(c, "rounding_boundary_dscale", seed);
    }
  }
}

// The rule itself, at the edges: Inf only when |t| - e > MAX + ulp_top/2.
TEST(BNG_KSUITE(KernelOverflow), GuardReturnsInfOnlyWhenTheExactValueMustOverflow) {
  using opt::F16Limits;
  using opt::F32Limits;
  using opt::guard_overflow;
  // y* may be 65520 (rounds to Inf): MAX is then within ulp_top/2, passes.
  EXPECT_EQ(guard_overflow<F16Limits>(65536.0, 16.0), 65504.0);
  EXPECT_EQ(guard_overflow<F16Limits>(65536.0, 15.0), 65536.0);  // y* > 65520: Inf is right
  EXPECT_EQ(guard_overflow<F16Limits>(-65536.0, 17.0), -65504.0);
  EXPECT_EQ(guard_overflow<F16Limits>(0x1p40, 0x1p41), 65504.0);  // y* may be 0
  EXPECT_EQ(guard_overflow<F16Limits>(65520.0, 1e9), 65520.0);    // below 2^16: the usual rule
  EXPECT_EQ(guard_overflow<F32Limits>(0x1p128, 0x1p103), 0x1.fffffep127);
  EXPECT_EQ(guard_overflow<F32Limits>(-0x1p200, 0x1p150), -0x1p200);
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(guard_overflow<F32Limits>(inf, 1.0), inf);
  EXPECT_EQ(guard_overflow<F32Limits>(0x1p128, std::nan("")), 0x1p128);
  EXPECT_TRUE(std::isnan(guard_overflow<F16Limits>(std::nan(""), 1.0)));
}

}  // namespace
}  // namespace bng::ktest
