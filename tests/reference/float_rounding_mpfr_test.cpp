// Rounding into binary32 against an independent method: MPFR (through Boost's
// mpfr_float) with binary32's exponent range and mpfr_subnormalize, the idiom
// MPFR documents for emulating IEEE subnormals.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <boost/multiprecision/mpfr.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bng/reference/exact.hpp"
#include "bng/reference/rounding.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

using boost::multiprecision::mpfr_float;
using test::show;
constexpr Format kFloat = Format::binary32;
constexpr std::uint64_t kSeed = 20261129;

// binary32's range in MPFR's convention (x = 0.1b... * 2^e): values in
// [2^-149, 2^128) have e in [-148, 128]. Restores the previous range.
class Binary32Range {
 public:
  Binary32Range() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
  }
  ~Binary32Range() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  Binary32Range(const Binary32Range&) = delete;
  Binary32Range& operator=(const Binary32Range&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

mpfr_float with_precision(unsigned bits) {
  mpfr_float v;
  mpfr_set_prec(v.backend().data(), bits);
  return v;
}

double mpfr_round_double(double v) {
  const Binary32Range range;
  mpfr_float y = with_precision(24);
  int t = mpfr_set_d(y.backend().data(), v, MPFR_RNDN);
  t = mpfr_subnormalize(y.backend().data(), t, MPFR_RNDN);
  return mpfr_get_d(y.backend().data(), MPFR_RNDN);
}

// RN(n * 2^e / m) by MPFR: n * 2^e is set exactly (it must lie in binary32's
// exponent range), then one correctly rounded division.
double mpfr_round_quotient(const BigInt& n, std::int64_t e, std::uint64_t m) {
  const Binary32Range range;
  const std::string digits = n.str(0, std::ios_base::hex);
  mpfr_float x = with_precision(static_cast<unsigned>(boost::multiprecision::msb(n)) + 2);
  EXPECT_EQ(mpfr_set_str(x.backend().data(), digits.c_str(), 16, MPFR_RNDN), 0);
  EXPECT_EQ(mpfr_mul_2si(x.backend().data(), x.backend().data(), e, MPFR_RNDN), 0)
      << "input out of binary32's exponent range";
  mpfr_float y = with_precision(24);
  int t =
      mpfr_div_ui(y.backend().data(), x.backend().data(), static_cast<unsigned long>(m), MPFR_RNDN);
  t = mpfr_subnormalize(y.backend().data(), t, MPFR_RNDN);
  return mpfr_get_d(y.backend().data(), MPFR_RNDN);
}

void expect_same_as_mpfr(double v) {
  const double ours = round_to(kFloat, v);
  const double theirs = mpfr_round_double(v);
  ASSERT_EQ(ours, theirs) << "round_to(binary32, " << test::show_double(v)
                          << ") = " << show(ours, kFloat) << ", MPFR gives "
                          << show(theirs, kFloat);
}

// A double with a random 53-bit significand and binary exponent in [lo, hi].
double random_double(std::mt19937_64& rng, int lo, int hi) {
  const std::uint64_t mant = (rng() >> 11) | (std::uint64_t{1} << 52);
  const int e = std::uniform_int_distribution<int>(lo, hi)(rng);
  const double v = std::ldexp(static_cast<double>(mant), e - 52);
  return (rng() & 1) ? -v : v;
}

TEST(ReferenceFloatRoundingVsMpfr, MillionRandomDoubles) {
  std::mt19937_64 rng(kSeed);
  SCOPED_TRACE("seed " + std::to_string(kSeed));
  for (int i = 0; i < 1'000'000; ++i) {
    // Binary exponents from far below the subnormals to past the overflow
    // threshold; every fourth value is a binary32 midpoint, nudged or not.
    double v = random_double(rng, -160, 130);
    if (i % 4 == 1) {
      const double f = round_to(kFloat, v);
      if (std::isfinite(f)) {
        const double mid = f + std::copysign(ulp_in(kFloat, f), f) / 2;
        v = (i % 3 == 0) ? mid : std::nextafter(mid, (i % 3 == 1) ? HUGE_VAL : -HUGE_VAL);
      }
    }
    expect_same_as_mpfr(v);
  }
}

TEST(ReferenceFloatRoundingVsMpfr, EveryExponentBoundary) {
  for (int e = -155; e <= 130; ++e) {
    const double p = std::ldexp(1.0, e);
    // The power of two, the binary32 midpoints just below and above it (spacing
    // 2^(e-24) below, 2^(e-23) above in the normal range), the next values
    // either side, and the nearest doubles to each.
    const std::vector<double> anchors = {p,
                                         p - std::ldexp(1.0, e - 25),
                                         p - std::ldexp(1.0, e - 24),
                                         p + std::ldexp(1.0, e - 24),
                                         p + std::ldexp(1.0, e - 23),
                                         p + std::ldexp(3.0, e - 24)};
    for (const double a : anchors) {
      for (const double v : {a, std::nextafter(a, 0.0), std::nextafter(a, HUGE_VAL)}) {
        expect_same_as_mpfr(v);
        expect_same_as_mpfr(-v);
      }
    }
  }
}

TEST(ReferenceFloatRoundingVsMpfr, SubnormalsAndOverflowThreshold) {
  const double half_quantum = std::ldexp(1.0, -150);
  for (int k = 0; k <= 4096; ++k) expect_same_as_mpfr(k * half_quantum);
  // Every half-quantum step around the subnormal/normal boundary, and random ones.
  for (int k = (1 << 24) - 4096; k <= (1 << 24) + 4096; ++k) expect_same_as_mpfr(k * half_quantum);
  std::mt19937_64 rng(kSeed + 1);
  for (int i = 0; i < 100'000; ++i) {
    const double v = static_cast<double>(rng() % (std::uint64_t{1} << 25)) * half_quantum;
    expect_same_as_mpfr(v);
    expect_same_as_mpfr(std::nextafter(v, 0.0));
    expect_same_as_mpfr(std::nextafter(v, 1.0));
  }
  const double max_float = 0x1.fffffep127;
  const double threshold = 0x1.ffffffp127;  // max + half the top spacing: ties to 2^128 = Inf
  EXPECT_EQ(round_to(kFloat, max_float), max_float);
  EXPECT_EQ(round_to(kFloat, threshold), HUGE_VAL);
  EXPECT_EQ(round_to(kFloat, std::nextafter(threshold, 0.0)), max_float);
  for (const double v : {max_float, threshold, std::nextafter(threshold, 0.0),
                         std::nextafter(threshold, HUGE_VAL), 0x1p128, 0x1p200}) {
    expect_same_as_mpfr(v);
    expect_same_as_mpfr(-v);
  }
}

// Quotients n * 2^e / m as the training dx produces them: the remainder of the
// division by m must decide the rounding exactly as MPFR's correctly rounded division.
TEST(ReferenceFloatRoundingVsMpfr, RandomQuotients) {
  std::mt19937_64 rng(kSeed + 2);
  SCOPED_TRACE("seed " + std::to_string(kSeed + 2));
  for (int i = 0; i < 200'000; ++i) {
    const int bits = std::uniform_int_distribution<int>(1, 120)(rng);
    BigInt n = 0;
    for (int b = 0; b < bits; b += 64) n = (n << 64) | BigInt(rng());
    n >>= static_cast<unsigned>((bits + 63) / 64 * 64 - bits);
    n |= BigInt(1) << (bits - 1);
    // n * 2^e in [2^-149, 2^128): its top bit lies in [-149, 127].
    const int top = std::uniform_int_distribution<int>(-149, 127)(rng);
    const std::int64_t e = top - (bits - 1);
    std::uint64_t m =
        1 + rng() % (std::uint64_t{1} << std::uniform_int_distribution<int>(0, 24)(rng));
    if (i % 10 == 0) m = 3;
    const bool negative = false;
    const double ours = to_double(round_exact(negative, n, e, m, traits(kFloat)));
    const double theirs = mpfr_round_quotient(n, e, m);
    ASSERT_EQ(ours, theirs) << "n=0x" << n.str(0, std::ios_base::hex) << " e=" << e << " m=" << m
                            << ": ours " << show(ours, kFloat) << ", MPFR " << show(theirs, kFloat);
  }
}

}  // namespace
}  // namespace bng::ref
