// Identities that hold exactly on constructed inputs. Inputs are small dyadics
// and the batch a power of two, so every y* here has far fewer than 64
// significant bits: Expected::exact is y* itself and sums of them in long
// double are exact, so "= 0" below means exactly zero.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"
#include "case_gen.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

constexpr Combo kCombos[] = {Combo::fp, Combo::hp, Combo::mp};

double small_dyadic(std::mt19937_64& rng, int range, int shift) {
  return std::ldexp(static_cast<double>(static_cast<int>(rng() % (2 * range + 1)) - range), shift);
}

// x whose mean is exactly `mean` (values mean ± d in pairs) and, when
// `exact_invar`, all |x - mean| equal to 2^k so that invar = 2^-k is exactly
// 1/sqrt(var) (eps = 0). dy small dyadics. Channel 2, batch a power of two.
Case constructed(std::mt19937_64& rng, Combo combo, int is_train, bool exact_invar) {
  Case c;
  c.combo = combo;
  c.is_train = is_train;
  c.batch = std::int64_t{2} << (rng() % 4);  // 2 .. 16
  c.channel = 2;
  c.x.resize(static_cast<std::size_t>(c.elements()));
  c.dy.resize(c.x.size());
  for (std::int64_t ch = 0; ch < c.channel; ++ch) {
    const double mean = small_dyadic(rng, 32, -3);
    const int k = static_cast<int>(rng() % 5) - 2;
    c.mean.push_back(mean);
    c.invar.push_back(exact_invar ? std::ldexp(1.0, -k) : std::ldexp(1.0, k));
    c.scale.push_back(small_dyadic(rng, 6, -2));
    for (std::int64_t n = 0; n < c.batch; n += 2) {
      const double d = exact_invar ? std::ldexp(1.0, k) : small_dyadic(rng, 16, -3);
      c.x[n * c.channel + ch] = mean + d;
      c.x[(n + 1) * c.channel + ch] = mean - d;
      c.dy[n * c.channel + ch] = small_dyadic(rng, 16, -4);
      c.dy[(n + 1) * c.channel + ch] = small_dyadic(rng, 16, -4);
    }
  }
  validate(c);
  return c;
}

TEST(ReferenceIdentities, ExactMeanGivesZeroSumOfDx) {
  int nonzero = 0;
  for (const Combo combo : kCombos) {
    for (int trial = 0; trial < 200; ++trial) {
      std::mt19937_64 rng(static_cast<std::uint64_t>(trial) * 31 + static_cast<unsigned>(combo));
      const Case c = constructed(rng, combo, 1, trial % 2 == 0);
      const Result r = compute(c);
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        long double sum = 0, sum_xhat = 0;
        for (std::int64_t n = 0; n < c.batch; ++n) {
          const Expected& e = r.dx[n * c.channel + ch];
          ASSERT_EQ(e.kind, Kind::finite);
          if (e.exact != 0) ++nonzero;
          sum += e.exact;
          const long double xhat =
              (static_cast<long double>(c.x[n * c.channel + ch]) - c.mean[ch]) * c.invar[ch];
          sum_xhat += e.exact * xhat;
        }
        ASSERT_EQ(sum, 0.0L) << "trial " << trial << " channel " << ch << ": sum of dx "
                             << test::show_long(sum) << "\n"
                             << test::describe(c);
        if (trial % 2 == 0) {  // invar exact too: dx is also orthogonal to xhat
          ASSERT_EQ(sum_xhat, 0.0L) << "trial " << trial << " channel " << ch << ": sum dx*xhat "
                                    << test::show_long(sum_xhat) << "\n"
                                    << test::describe(c);
        }
      }
    }
  }
  EXPECT_GT(nonzero, 1000);  // the sums are of non-trivial terms
}

TEST(ReferenceIdentities, DxIsLinearInDy) {
  for (const Combo combo : kCombos) {
    for (int trial = 0; trial < 200; ++trial) {
      std::mt19937_64 rng(static_cast<std::uint64_t>(trial) * 37 + static_cast<unsigned>(combo));
      Case a = constructed(rng, combo, trial % 2, false);
      Case b = a, sum = a;
      for (std::size_t i = 0; i < a.dy.size(); ++i) {
        b.dy[i] = small_dyadic(rng, 16, -4);
        sum.dy[i] = a.dy[i] + b.dy[i];  // 6-bit dyadics: exact in every format
      }
      const Result ra = compute(a), rb = compute(b), rs = compute(sum);
      for (std::size_t i = 0; i < ra.dx.size(); ++i) {
        ASSERT_EQ(rs.dx[i].exact, ra.dx[i].exact + rb.dx[i].exact)
            << "trial " << trial << " dx[" << i << "]: " << test::show_long(rs.dx[i].exact)
            << " vs " << test::show_long(ra.dx[i].exact) << " + " << test::show_long(rb.dx[i].exact)
            << "\n"
            << test::describe(sum);
      }
      for (std::size_t ch = 0; ch < ra.dbias.size(); ++ch) {
        ASSERT_EQ(rs.dbias[ch].exact, ra.dbias[ch].exact + rb.dbias[ch].exact);
        ASSERT_EQ(rs.dscale[ch].exact, ra.dscale[ch].exact + rb.dscale[ch].exact);
      }
    }
  }
}

// SPEC §4: multiplying dy by 2^k multiplies every output by 2^k exactly, for
// general (not constructed) inputs, wherever neither result leaves the normal range.
TEST(ReferenceIdentities, PowerOfTwoScalingOfDyIsExact) {
  int checked = 0;
  for (const Combo combo : kCombos) {
    const Format df = data_format(combo), sf = stats_format(combo);
    for (int trial = 0; trial < 300; ++trial) {
      const std::uint64_t seed =
          static_cast<std::uint64_t>(trial) * 41 + static_cast<unsigned>(combo);
      std::mt19937_64 rng(seed);
      Case c = test::random_case(rng, combo, trial % 2, false);
      const int k = static_cast<int>(rng() % 7) - 3;
      Case scaled = c;
      bool ok = true;
      for (double& d : scaled.dy) {
        d = std::ldexp(d, k);
        ok = ok && representable(d, df) &&
             (d == 0 || std::fabs(d) >= std::ldexp(1.0, traits(df).emin));
      }
      if (!ok) continue;
      const Result r = compute(c), rs = compute(scaled);
      auto check = [&](const Expected& e, const Expected& es, Format f, const char* what) {
        if (e.kind != Kind::finite) return;
        const double lo = std::ldexp(1.0, traits(f).emin), hi = std::ldexp(1.0, traits(f).emax);
        const double a = std::fabs(e.rounded), b = std::fabs(es.rounded);
        if (a < lo || b < lo || a >= hi || b >= hi) return;  // subnormal, zero or overflow
        ++checked;
        ASSERT_EQ(es.rounded, std::ldexp(e.rounded, k))
            << "seed " << seed << " k=" << k << " " << what << ": " << test::show(e.rounded, f)
            << " scaled to " << test::show(es.rounded, f) << "\n"
            << test::describe(c);
        ASSERT_EQ(es.exact, std::ldexp(e.exact, k)) << "seed " << seed << " " << what;
        ASSERT_EQ(es.ulp, std::ldexp(e.ulp, k)) << "seed " << seed << " " << what;
      };
      for (std::size_t i = 0; i < r.dx.size(); ++i) check(r.dx[i], rs.dx[i], df, "dx");
      for (std::size_t i = 0; i < r.dbias.size(); ++i) {
        check(r.dbias[i], rs.dbias[i], sf, "dbias");
        check(r.dscale[i], rs.dscale[i], sf, "dscale");
      }
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(checked, 1000);  // the filters above must leave most outputs in
}

// Inference dx = scale * invar * dy, independent of x and mean (even NaN ones).
TEST(ReferenceIdentities, InferenceDxIsScaleTimesInvarTimesDy) {
  for (const Combo combo : kCombos) {
    const Format df = data_format(combo), sf = stats_format(combo);
    for (int trial = 0; trial < 300; ++trial) {
      const std::uint64_t seed =
          static_cast<std::uint64_t>(trial) * 43 + static_cast<unsigned>(combo);
      std::mt19937_64 rng(seed);
      Case c = test::random_case(rng, combo, 0, false);
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        // At most 5 significant bits in scale, so scale*invar*dy (<= 53 bits) is exact in double.
        int e = 0;
        const double f = std::frexp(c.scale[ch], &e);
        c.scale[ch] = std::ldexp(std::round(std::ldexp(f, 5)), e - 5);
        if (!representable(c.scale[ch], sf)) c.scale[ch] = 1.0;
      }
      Case poisoned = c;
      for (double& x : poisoned.x) x = NAN;
      for (double& m : poisoned.mean) m = HUGE_VAL;
      const Result r = compute(c), rp = compute(poisoned);
      for (std::int64_t n = 0; n < c.batch; ++n) {
        for (std::int64_t ch = 0; ch < c.channel; ++ch) {
          const std::size_t i = static_cast<std::size_t>(n * c.channel + ch);
          const double product = c.scale[ch] * c.invar[ch] * c.dy[i];
          ASSERT_EQ(r.dx[i].exact, static_cast<long double>(product))
              << "seed " << seed << " dx[" << i << "]";
          ASSERT_EQ(r.dx[i].rounded, round_to(df, product))
              << "seed " << seed << " dx[" << i << "] = " << test::show(r.dx[i].rounded, df)
              << ", scale*invar*dy = " << test::show_double(product);
          ASSERT_EQ(r.dx[i].magnitude, std::fabs(static_cast<long double>(product)));
          ASSERT_TRUE(test::same(r.dx[i], rp.dx[i]))
              << "seed " << seed << ": inference dx read x or mean";
        }
      }
    }
  }
}

// Batch 1 with mean = x (the exact statistics of one sample): training dx is exactly 0.
TEST(ReferenceIdentities, BatchOneTrainingDxIsZero) {
  for (const Combo combo : kCombos) {
    for (int trial = 0; trial < 300; ++trial) {
      const std::uint64_t seed =
          static_cast<std::uint64_t>(trial) * 47 + static_cast<unsigned>(combo);
      std::mt19937_64 rng(seed);
      Case c = test::random_case(rng, combo, 1, false);
      c.batch = 1;
      c.x.resize(static_cast<std::size_t>(c.channel));
      c.dy.resize(c.x.size());
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        // mean is in the statistics format, which for hp is the data format and
        // for fp/mp holds every data value: mean = x is always possible.
        c.mean[ch] = c.x[ch];
      }
      const Result r = compute(c);
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        const Expected& e = r.dx[static_cast<std::size_t>(ch)];
        ASSERT_EQ(e.kind, Kind::finite);
        ASSERT_EQ(e.exact, 0.0L) << "seed " << seed << "\n" << test::describe(c);
        ASSERT_EQ(e.rounded, 0.0) << "seed " << seed << "\n" << test::describe(c);
      }
    }
  }
}

}  // namespace
}  // namespace bng::ref
