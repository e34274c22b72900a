// Inference on binary16 data sums pairs of rows in binary32 before binary64
// (docs/accuracy.md §2.1). That is within 3 * 2^-24 of the exact sums only
// where no product or pair sum underflows or overflows binary32, which
// sum_mean guarantees for a mean of 0 or of magnitude in [2^-77, 2^100]; a
// lane with any other mean keeps the binary64 sums. Only mp can get outside
// (binary32 statistics), and only with extreme means, which the random and
// hard cases of accuracy_test do not build: this test does, on both sides of
// each limit, mixed within one vector of channels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "bng/optimized/isa.hpp"
#include "bng/reference/rounding.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"

// The mp kernel's: the test exists for the targets that have it.
#if BNG_TARGET_HAS_MP
namespace bng::ktest {
namespace {

constexpr std::int64_t kBatch = 131;    // a whole block of 128 rows and an odd remainder
constexpr std::int64_t kChannels = 37;  // whole vectors and a scalar tail
constexpr int kKinds = 5;

// mp inference, channel by channel (c % 5), x = 0 except in kind 0:
// 0: ordinary statistics (binary32 sums);
// 1: mean ~ 2^-140, a binary32 subnormal, invar ~ 2^100: in binary32 every
//    product dy * (0 - mean) would be subnormal (relative error up to 2^-9)
//    while dscale ~ 2^-33 is a normal binary32 value (binary64 sums);
// 2: mean in [2^-77, 2^-76), the smallest kept for binary32 sums;
// 3: mean in [2^99, 2^100], the largest kept, with |dy| up to 65504;
// 4: mean ~ 2^120, invar ~ 2^-120: products ~ 2^136 would overflow binary32
//    while dscale ~ 2^24 is finite (binary64 sums).
Case extreme_means(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Format df = Format::binary16, sf = Format::binary32;
  Case c;
  c.combo = Combo::mp;
  c.batch = kBatch;
  c.channel = kChannels;
  c.is_train = 0;
  for (std::int64_t ch = 0; ch < kChannels; ++ch) {
    const double sign = rng() % 2 == 0 ? 1.0 : -1.0;
    double mu = uniform(rng, -1, 1), iv = uniform(rng, 1, 2);
    switch (ch % kKinds) {
      case 1:
        mu = sign * std::ldexp(uniform(rng, 1, 2), -140);
        iv = std::ldexp(uniform(rng, 1, 2), 100);
        break;
      case 2:
        mu = sign * std::ldexp(uniform(rng, 1, 2), -77);
        iv = std::ldexp(uniform(rng, 1, 2), 70);
        break;
      case 3:
        mu = sign * std::ldexp(uniform(rng, 1, 2), 99);
        iv = std::ldexp(uniform(rng, 1, 2), -100);
        break;
      case 4:
        mu = sign * std::ldexp(uniform(rng, 1, 2), 120);
        iv = std::ldexp(uniform(rng, 1, 2), -120);
        break;
      default:
        break;
    }
    c.mean.push_back(ref::round_to(sf, mu));
    c.invar.push_back(ref::round_to(sf, iv));
    c.scale.push_back(ref::round_to(sf, uniform(rng, 0.5, 1) / iv));  // dx ~ dy, finite
  }
  for (std::int64_t n = 0; n < kBatch; ++n) {
    for (std::int64_t ch = 0; ch < kChannels; ++ch) {
      const int kind = static_cast<int>(ch % kKinds);
      const double dy_range = kind == 3 || kind == 4 ? 65504 : 4;
      c.x.push_back(kind == 0 ? ref::round_to(df, uniform(rng, -4, 4)) : 0.0);
      c.dy.push_back(ref::round_to(df, uniform(rng, -dy_range, dy_range)));
    }
  }
  return c;
}

std::string what(std::uint64_t seed) {
  return "extreme means seed " + std::to_string(seed) + " isa " + opt::isa_name();
}

TEST(BNG_KSUITE(KernelBinary32Sums), MeansOutsideTheirRangeKeepBinary64Sums) {
  for (std::uint64_t seed = 0x5a; seed < 0x5a + 6; ++seed) {
    expect_same_bits_within_alpha(extreme_means(seed), what(seed));
  }
}

}  // namespace
}  // namespace bng::ktest
#endif  // BNG_TARGET_HAS_MP
