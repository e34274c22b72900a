// The reference against a second, deliberately naive exact formulation:
// Boost cpp_rational transliterating SPEC §1 line by line, with its own
// rounding (powers-of-two search and a rational fraction compared to 1/2),
// its own ulp and its own reading of SPEC §5's dependency sets. Compared bit
// for bit: kind, RN(y*), y* and M to long double, ulp(y*).
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"
#include "case_gen.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

using boost::multiprecision::cpp_int;
using boost::multiprecision::cpp_rational;
using test::show;

cpp_rational pow2(std::int64_t e) {
  const cpp_int p = cpp_int(1) << static_cast<unsigned>(e < 0 ? -e : e);
  return e < 0 ? cpp_rational(cpp_int(1), p) : cpp_rational(p);
}

// A double's exact value, from its 53-bit significand.
cpp_rational exact(double v) {
  int e = 0;
  const double f = std::frexp(v, &e);
  const auto mant = static_cast<std::int64_t>(std::ldexp(f, 53));
  return cpp_rational(mant) * pow2(e - 53);
}

struct NaiveRounded {
  long double value;  // ±Inf on overflow
  double ulp;
};

// RN(q) with precision p and exponents [emin, emax]: find the binade by
// comparison with powers of two, count whole quanta, compare the rest to 1/2.
NaiveRounded naive_round(const cpp_rational& q, int p, int emin, int emax) {
  if (q == 0) return {0.0L, std::ldexp(1.0, emin - p + 1)};
  const bool negative = q < 0;
  const cpp_rational a = negative ? cpp_rational(-q) : q;
  std::int64_t e =
      static_cast<std::int64_t>(msb(numerator(a))) - static_cast<std::int64_t>(msb(denominator(a)));
  while (pow2(e) > a) --e;
  while (pow2(e + 1) <= a) ++e;
  const std::int64_t quantum = std::max<std::int64_t>(e, emin) - p + 1;
  const cpp_rational scaled = a * pow2(-quantum);
  cpp_int whole = numerator(scaled) / denominator(scaled);
  const cpp_rational rest = scaled - cpp_rational(whole);
  const cpp_rational half(1, 2);
  if (rest > half || (rest == half && (whole & 1) == 1)) whole += 1;
  const double ulp = std::ldexp(
      1.0, static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(e, emin), emax) - p + 1));
  if (cpp_rational(whole) * pow2(quantum) >= pow2(emax + 1)) {
    return {negative ? -HUGE_VALL : HUGE_VALL, ulp};
  }
  const long double v = std::ldexp(whole.convert_to<long double>(),
                                   static_cast<int>(quantum));  // whole <= 2^p: exact
  return {negative ? -v : v, ulp};
}

Expected naive_expected(const cpp_rational& y, const cpp_rational& mag, Format f) {
  const FormatTraits t = traits(f);
  const NaiveRounded out = naive_round(y, t.precision, t.emin, t.emax);
  Expected e;
  e.kind = Kind::finite;
  e.rounded = static_cast<double>(out.value);
  e.ulp = out.ulp;
  e.exact = naive_round(y, 64, -16382, 16383).value;
  e.magnitude = naive_round(mag, 64, -16382, 16383).value;
  return e;
}

Expected naive_special(bool any_nan, bool any_inf) {
  Expected e;
  e.kind = any_nan ? Kind::nan : (any_inf ? Kind::nonfinite : Kind::finite);
  e.rounded = NAN;
  return e;
}

bool is_nan_in(const std::vector<double>& v) {
  for (const double d : v)
    if (std::isnan(d)) return true;
  return false;
}
bool is_inf_in(const std::vector<double>& v) {
  for (const double d : v)
    if (std::isinf(d)) return true;
  return false;
}

// SPEC §1, one line per formula, for every channel.
Result naive(const Case& c) {
  Result r;
  r.dx.resize(static_cast<std::size_t>(c.elements()));
  r.dbias.resize(static_cast<std::size_t>(c.channel));
  r.dscale.resize(static_cast<std::size_t>(c.channel));
  const Format df = data_format(c.combo);
  const Format sf = stats_format(c.combo);
  const cpp_rational m(c.batch);
  for (std::int64_t ch = 0; ch < c.channel; ++ch) {
    std::vector<double> xs, dys;
    for (std::int64_t n = 0; n < c.batch; ++n) {
      xs.push_back(c.x[n * c.channel + ch]);
      dys.push_back(c.dy[n * c.channel + ch]);
    }
    const std::vector<double> mean{c.mean[ch]}, invar{c.invar[ch]}, scale{c.scale[ch]};
    // SPEC §5: dbias depends on dy[:,c]; dscale on x, dy, mean, invar; training dx
    // on those and scale; inference dx[n] on dy[n], invar, scale.
    const bool dbias_nan = is_nan_in(dys), dbias_inf = is_inf_in(dys);
    const bool dscale_nan = dbias_nan || is_nan_in(xs) || is_nan_in(mean) || is_nan_in(invar);
    const bool dscale_inf = dbias_inf || is_inf_in(xs) || is_inf_in(mean) || is_inf_in(invar);
    const bool train_nan = dscale_nan || is_nan_in(scale);
    const bool train_inf = dscale_inf || is_inf_in(scale);

    cpp_rational dbias = 0, dbias_mag = 0, dscale = 0, dscale_mag = 0;
    std::vector<cpp_rational> xhat(xs.size());
    if (!dbias_nan && !dbias_inf) {
      for (const double d : dys) dbias += exact(d);  // dbias = Σ dy
      for (const double d : dys) dbias_mag += abs(exact(d));
      r.dbias[ch] = naive_expected(dbias, dbias_mag, sf);
    } else {
      r.dbias[ch] = naive_special(dbias_nan, dbias_inf);
    }
    if (!dscale_nan && !dscale_inf) {
      for (std::size_t n = 0; n < xs.size(); ++n) {
        xhat[n] = (exact(xs[n]) - exact(mean[0])) * exact(invar[0]);  // xhat = (x - mean) * invar
        dscale += exact(dys[n]) * xhat[n];                            // dscale = Σ dy * xhat
        dscale_mag += abs(exact(dys[n]) * xhat[n]);
      }
      r.dscale[ch] = naive_expected(dscale, dscale_mag, sf);
    } else {
      r.dscale[ch] = naive_special(dscale_nan, dscale_inf);
    }
    for (std::int64_t n = 0; n < c.batch; ++n) {
      Expected& out = r.dx[n * c.channel + ch];
      const double dy = dys[n];
      if (c.is_train == 1) {
        if (train_nan || train_inf) {
          out = naive_special(train_nan, train_inf);
          continue;
        }
        const cpp_rational s = exact(scale[0]), v = exact(invar[0]), d = exact(dy);
        // dx = scale * invar / m * (m * dy - dbias - xhat * dscale)
        const cpp_rational dx = s * v / m * (m * d - dbias - xhat[n] * dscale);
        const cpp_rational mag =
            abs(s * v) / m * (m * abs(d) + dbias_mag + abs(xhat[n]) * dscale_mag);
        out = naive_expected(dx, mag, df);
      } else {
        const bool nan = std::isnan(dy) || std::isnan(invar[0]) || std::isnan(scale[0]);
        const bool inf = std::isinf(dy) || std::isinf(invar[0]) || std::isinf(scale[0]);
        if (nan || inf) {
          out = naive_special(nan, inf);
          continue;
        }
        // dx = scale * invar * dy
        const cpp_rational dx = exact(scale[0]) * exact(invar[0]) * exact(dy);
        out = naive_expected(dx, abs(dx), df);
      }
    }
  }
  return r;
}

// What the generated cases exercised, so that the test can insist on coverage.
struct Coverage {
  int finite = 0, nan = 0, nonfinite = 0, overflow = 0, zero = 0, subnormal = 0, inexact = 0;
  void add(const Expected& e, Format f) {
    if (e.kind == Kind::nan) ++nan;
    if (e.kind == Kind::nonfinite) ++nonfinite;
    if (e.kind != Kind::finite) return;
    ++finite;
    if (std::isinf(e.rounded)) ++overflow;
    if (e.exact == 0) ++zero;
    const double min_normal = std::ldexp(1.0, traits(f).emin);
    if (e.rounded != 0 && std::fabs(e.rounded) < min_normal) ++subnormal;
    if (static_cast<long double>(e.rounded) != e.exact) ++inexact;
  }
};

void compare(const Case& c, const std::string& repro, Coverage& cover) {
  const Result got = compute(c);
  const Result want = naive(c);
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  for (std::size_t i = 0; i < want.dx.size(); ++i) {
    ASSERT_TRUE(test::same(got.dx[i], want.dx[i]))
        << repro << "\ndx[" << i << "]\n  reference: " << show(got.dx[i], df)
        << "\n  naive:     " << show(want.dx[i], df) << "\ncase: " << test::describe(c);
  }
  for (const Expected& e : want.dx) cover.add(e, df);
  for (const Expected& e : want.dbias) cover.add(e, sf);
  for (const Expected& e : want.dscale) cover.add(e, sf);
  for (std::size_t i = 0; i < want.dbias.size(); ++i) {
    ASSERT_TRUE(test::same(got.dbias[i], want.dbias[i]))
        << repro << "\ndbias[" << i << "]\n  reference: " << show(got.dbias[i], sf)
        << "\n  naive:     " << show(want.dbias[i], sf) << "\ncase: " << test::describe(c);
    ASSERT_TRUE(test::same(got.dscale[i], want.dscale[i]))
        << repro << "\ndscale[" << i << "]\n  reference: " << show(got.dscale[i], sf)
        << "\n  naive:     " << show(want.dscale[i], sf) << "\ncase: " << test::describe(c);
  }
}

struct Param {
  Combo combo;
  int is_train;
};

class NaiveAgreement : public ::testing::TestWithParam<Param> {};

TEST_P(NaiveAgreement, RandomSmallCasesBitForBit) {
  const Param p = GetParam();
  constexpr int kCases = 400;
  Coverage cover;
  for (int i = 0; i < kCases; ++i) {
    // One seed per case, so a failure names the single case that reproduces it.
    const std::uint64_t seed = 1000003u * static_cast<std::uint64_t>(i) +
                               17u * static_cast<std::uint64_t>(p.combo) +
                               static_cast<std::uint64_t>(p.is_train);
    std::mt19937_64 rng(seed);
    const bool specials = i % 3 == 0;
    const Case c = test::random_case(rng, p.combo, p.is_train, specials);
    compare(c, "seed " + std::to_string(seed) + (specials ? " (NaN/Inf planted)" : ""), cover);
    if (HasFatalFailure()) return;
  }
  std::printf(
      "outputs: %d finite (%d inexact, %d exact zeros, %d subnormal, %d overflow), "
      "%d NaN, %d non-finite\n",
      cover.finite, cover.inexact, cover.zero, cover.subnormal, cover.overflow, cover.nan,
      cover.nonfinite);
  EXPECT_GT(cover.inexact, 100);
  EXPECT_GT(cover.zero, 10);
  EXPECT_GT(cover.subnormal, 0);
  EXPECT_GT(cover.overflow, 0);
  EXPECT_GT(cover.nan, 10);
  EXPECT_GT(cover.nonfinite, 10);
}

// Longer columns (batch 40-300): the common exponents, the sums S1, S2 and the
// division by a non-power-of-two m meet many more distinct values.
TEST_P(NaiveAgreement, LongerColumnsBitForBit) {
  const Param p = GetParam();
  Coverage cover;
  for (int i = 0; i < 6; ++i) {
    const std::uint64_t seed = 7777u * static_cast<std::uint64_t>(i + 1) +
                               17u * static_cast<std::uint64_t>(p.combo) +
                               static_cast<std::uint64_t>(p.is_train);
    std::mt19937_64 rng(seed);
    Case c = test::random_case(rng, p.combo, p.is_train, false);
    c.batch = 40 + static_cast<std::int64_t>(rng() % 261);
    c.x.clear();
    c.dy.clear();
    for (std::int64_t k = 0; k < c.elements(); ++k) {
      c.x.push_back(test::random_value(rng, data_format(p.combo), false));
      c.dy.push_back(test::random_value(rng, data_format(p.combo), false));
    }
    compare(c, "seed " + std::to_string(seed) + " (longer columns)", cover);
    if (HasFatalFailure()) return;
  }
  EXPECT_GT(cover.inexact, 100);
}

INSTANTIATE_TEST_SUITE_P(Reference, NaiveAgreement,
                         ::testing::Values(Param{Combo::fp, 1}, Param{Combo::fp, 0},
                                           Param{Combo::hp, 1}, Param{Combo::hp, 0},
                                           Param{Combo::mp, 1}, Param{Combo::mp, 0}),
                         [](const ::testing::TestParamInfo<Param>& info) {
                           return std::string(combo_name(info.param.combo)) +
                                  (info.param.is_train ? "_train" : "_inference");
                         });

}  // namespace
}  // namespace bng::ref
