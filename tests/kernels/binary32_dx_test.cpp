// dx of binary16 data is computed in binary32 from the binary64 coefficients
// rounded to binary32 (docs/accuracy.md §3.1). A coefficient outside
// binary32's normal range would not be within 2^-24 of its binary64 value,
// so its lane must take the binary64 path (narrow_coefficients). Only mp can
// get there (binary32 statistics), and only with extreme statistics, which
// the random and hard cases of accuracy_test do not build: this test does.
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

constexpr std::int64_t kBatch = 64;     // groups of four rows
constexpr std::int64_t kChannels = 37;  // whole vectors and a scalar tail

// mp, channel by channel (c % 4):
// 0: ordinary statistics (every coefficient in range: the binary32 path);
// 1: mean ~ 2^126, invar ~ 2^-126, scale ~ 2^112: a ~ 2^-14 and b are normal,
//    but c ~ 2^-140 is a binary32 subnormal (relative error up to 2^-9)
//    while d*c ~ 2^-14 is a visible part of dx ~ 2^-14 (ulp 2^-24);
// 2: a ~ 2^140 beyond binary32's range, dy = 0 (every exact output 0);
// 3: a ~ 2^-140 below binary32's normal range.
Case extreme_statistics(int is_train, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const Format df = Format::binary16, sf = Format::binary32;
  Case c;
  c.combo = Combo::mp;
  c.batch = kBatch;
  c.channel = kChannels;
  c.is_train = is_train;
  for (std::int64_t ch = 0; ch < kChannels; ++ch) {
    const double sign = rng() % 2 == 0 ? 1.0 : -1.0;
    double mu = uniform(rng, -1, 1), iv = uniform(rng, 1, 2), scale = uniform(rng, 0.5, 1);
    switch (ch % 4) {
      case 1:
        mu = sign * std::ldexp(uniform(rng, 1, 1.5), 126);
        iv = std::ldexp(uniform(rng, 1, 2), -126);
        scale = std::ldexp(uniform(rng, 1, 2), 112);
        break;
      case 2:
        scale = std::ldexp(uniform(rng, 1, 2), 100);
        iv = std::ldexp(uniform(rng, 1, 2), 40);
        break;
      case 3:
        scale = std::ldexp(uniform(rng, 1, 2), -100);
        iv = std::ldexp(uniform(rng, 1, 2), -40);
        break;
      default:
        break;
    }
    c.mean.push_back(ref::round_to(sf, mu));
    c.invar.push_back(ref::round_to(sf, iv));
    c.scale.push_back(ref::round_to(sf, scale));
  }
  for (std::int64_t n = 0; n < kBatch; ++n) {
    for (std::int64_t ch = 0; ch < kChannels; ++ch) {
      c.x.push_back(ref::round_to(df, uniform(rng, -4, 4)));
      c.dy.push_back(ch % 4 == 2 ? 0.0 : ref::round_to(df, uniform(rng, -4, 4)));
    }
  }
  return c;
}

std::string what(std::uint64_t seed, int train) {
  return "extreme statistics seed " + std::to_string(seed) + " is_train " + std::to_string(train) +
         " isa " + opt::isa_name();
}

TEST(BNG_KSUITE(KernelBinary32Dx), CoefficientsOutsideBinary32TakeTheBinary64Path) {
  for (std::uint64_t seed = 0xe5; seed < 0xe5 + 6; ++seed) {
    for (int train = 0; train <= 1; ++train) {
      expect_same_bits_within_alpha(extreme_statistics(train, seed), what(seed, train));
    }
  }
}

}  // namespace
}  // namespace bng::ktest
#endif  // BNG_TARGET_HAS_MP
