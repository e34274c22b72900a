// The final rounding of the vector paths: inference dx = a*dy
// with a*dy exact in binary64 must be exactly its rounding to nearest-even,
// ±Inf from MAX + ulp/2 on (SPEC §5: the kernels declare it correctly
// rounded, and RN(y*) is ±Inf where y* rounds to ±Inf).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <random>
#include <vector>

#include "bng/binary16.hpp"
#include "bng/optimized/isa.hpp"
#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"
#include "kernel_runner.hpp"
#include "output_rounding.hpp"

namespace bng::ktest {
namespace {

// RN(t) in format f, ±Inf past the top: what a correctly rounded output of
// exact value t must be.
double expected_rounding(double t, Format f) {
  return ref::round_to(f, t);
}

// dx of inference case c (0 = is_train) must be `expected` bit for bit: the
// case, and its rows repeated to more than 9 MiB (a narrow tensor whose row
// bands, 8, one per modelled core, exceed 1 MiB takes its rows one at a time
// (binary32) or two (binary16) instead of four: rows-inl.h rows_at_once_pay,
// each with its own watch), out of place and in place on dy.
void expect_dx_rounded_once(const Case& c, const std::vector<double>& expected) {
  const std::size_t n = c.dy.size();
  const std::size_t bytes = n * (c.combo == Combo::fp ? 4 : 2);
  const auto copies = static_cast<std::int64_t>((std::size_t{9} << 20) / bytes) + 1;
  Case large = c;
  large.batch = c.batch * copies;
  large.dy.clear();
  large.x.clear();
  for (std::int64_t k = 0; k < copies; ++k) {
    large.dy.insert(large.dy.end(), c.dy.begin(), c.dy.end());
    large.x.insert(large.x.end(), c.x.begin(), c.x.end());
  }
  const Case* const runs[] = {&c, &large};
  for (const Case* run : runs) {
    const Encoded encoded = encode_case(*run);
    // Out of place the kernels watch a group of rows' products and store
    // the group again where one may be a boundary; in place on dy (the rows
    // are gone once stored) they decide each vector before its store.
    for (const InPlace in_place : {InPlace::none, InPlace::dy}) {
      const Outputs out = decode(*run, run_raw(encoded, 0x3, in_place));
      int bad = 0;
      for (std::size_t i = 0; i < out.dx.size() && bad < 5; ++i) {
        const auto ch = i % static_cast<std::size_t>(c.channel);
        if (out.dx[i] != expected[i % n]) {
          ++bad;
          ADD_FAILURE() << combo_name(c.combo) << " batch " << run->batch
                        << (in_place == InPlace::dy ? " in place" : "") << " isa "
                        << opt::isa_name() << " scale " << hex_a(c.scale[ch]) << " invar "
                        << hex_a(c.invar[ch]) << " dy " << hex_a(run->dy[i]) << ": dx "
                        << hex_a(out.dx[i]) << ", want " << hex_a(expected[i % n]);
        }
      }
    }
  }
}

TEST(BNG_KSUITE(KernelRounding), InferenceDxIsTheRoundingOfAnExactProduct) {
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

// Inference dx where a*dy is not exact in the arithmetic's format: dx must be
// the exact product rounded once (a round to odd before the output's
// rounding, lanes-inl.h product_rounded_to_odd), not the output's rounding
// of an already rounded product. Binary32 data: (scale, invar, dy) whose
// product rounds in binary64 to a binary32 midpoint that the exact product
// is not (found by search), each with both signs and scaled by powers of two,
// so that a double rounding goes wrong on about half of them. Binary16 data,
// against every finite binary16 dy of both signs: hp and mp must give
// RN16(y*). mp's binary32 coefficient a32 = RN32(scale*invar) is itself
// rounded, and RN16(a32*dy) differs from RN16(y*) for about 2^-14 of these
// products (half_infer_dx-inl.h watch_rounded_products).
TEST(BNG_KSUITE(KernelRounding), InferenceDxIsRoundedOnceWhereTheProductIsInexact) {
  constexpr double kMidpointTriples[][3] = {
      {0x1.afdc0ap0, 0x1.e5cd9ap0, 0x1.c700b6p0}, {0x1.ba2b16p0, 0x1.0d0e72p0, 0x1.78e7b0p0},
      {0x1.f50deep0, 0x1.52a816p0, 0x1.9d89b6p0}, {0x1.bab18ep0, 0x1.293c4ap0, 0x1.26be8cp0},
      {0x1.742522p0, 0x1.f0ae52p0, 0x1.d48d38p0}, {0x1.074adap0, 0x1.349e8ap0, 0x1.1de572p0},
      {0x1.b5232ep0, 0x1.ea9412p0, 0x1.fb3f3ap0}, {0x1.ebdfa6p0, 0x1.8ea522p0, 0x1.a9b410p0}};
  std::mt19937_64 rng(0x0dd);
  for (const Combo combo : target_combos()) {
    Case c;
    c.combo = combo;
    c.is_train = 0;
    if (combo == Combo::fp) {
      const std::int64_t scalings[] = {0, 7, -9, 40, -60};
      c.channel = static_cast<std::int64_t>(std::size(kMidpointTriples));
      c.batch = 2 * static_cast<std::int64_t>(std::size(scalings));
      for (const auto& t : kMidpointTriples) {
        c.scale.push_back(t[0]);
        c.invar.push_back(t[1]);
        c.mean.push_back(0.0);
      }
      for (const std::int64_t k : scalings) {
        for (const double sign : {1.0, -1.0}) {
          for (const auto& t : kMidpointTriples) c.dy.push_back(sign * std::ldexp(t[2], k));
        }
      }
    } else {
      // mp also: (scale, invar) whose a32 is 1/2 or 1/2 + 2^-12 while a is just
      // above or below it, so that a32*dy is a binary16 midpoint (the
      // subnormal 2^-25 among them) that y* is not; and two (found by
      // search) for which a32*dy is one binary32 ulp above, or below, a
      // midpoint that y* is on the other side of (watch_rounded_products'
      // one-ulp margin).
      constexpr double kMidpointPairs[][2] = {
          {1 - 0x1p-24, 0.5 + 0x1p-24},           {1 + 0x1p-23, 0.5 - 0x1p-24},
          {1 + 0x1p-11 + 0x1p-23, 0.5 - 0x1p-25}, {1 + 0x1p-11 + 0x1p-23, 0.5 - 0x1p-24},
          {0x1.841d12p0, 0x1.000002p-1},          {0x1.7d784ep0, 0x1.000002p-1}};
      constexpr std::int64_t kRandomChannels = 8;
      c.channel = kRandomChannels + (combo == Combo::mp ? std::ssize(kMidpointPairs) : 0);
      c.batch = 0x7c00;  // every finite non-negative binary16 dy, and negated below
      // hp: (scale, invar) pairs for which RN16(RN32(a*dy)) differs from
      // RN16(a*dy) for some dy (found by search; about 2^-14.6 of products
      // of random binary16 values). mp: random full binary32 significands.
      constexpr double kHalfPairs[][2] = {{0x1.c1p+1, 0x1.e78p-1},   {0x1.05p+3, 0x1.4bcp-4},
                                          {0x1.274p-14, 0x1.8fcp+3}, {0x1.b38p+12, 0x1.db4p+0},
                                          {0x1.2ecp+3, 0x1.028p+11}, {0x1.e48p+9, 0x1.ap-1},
                                          {0x1.3fcp-5, 0x1.e6p+10},  {0x1.a94p-4, 0x1.4e8p+0}};
      std::uniform_int_distribution<std::int64_t> significand(std::int64_t{1} << 23,
                                                              (std::int64_t{1} << 24) - 1);
      for (std::int64_t ch = 0; ch < kRandomChannels; ++ch) {
        const auto k = static_cast<std::size_t>(ch);
        c.scale.push_back(combo == Combo::hp
                              ? kHalfPairs[k][0]
                              : std::ldexp(static_cast<double>(significand(rng)), -23));
        c.invar.push_back(combo == Combo::hp
                              ? kHalfPairs[k][1]
                              : std::ldexp(static_cast<double>(significand(rng)), -25));
        c.mean.push_back(0.0);
      }
      for (std::int64_t ch = kRandomChannels; ch < c.channel; ++ch) {
        c.scale.push_back(kMidpointPairs[ch - kRandomChannels][0]);
        c.invar.push_back(kMidpointPairs[ch - kRandomChannels][1]);
        c.mean.push_back(0.0);
      }
      for (std::int64_t i = 0; i < c.batch; ++i) {
        for (std::int64_t ch = 0; ch < c.channel; ++ch) {
          const double dy = ref::half_bits_to_double(static_cast<std::uint16_t>(i));
          c.dy.push_back(ch % 2 == 0 ? dy : -dy);
        }
      }
    }
    c.x.assign(c.dy.size(), 0.0);
    const ref::Result want = ref::compute(c);
    std::vector<double> expected;
    for (const ref::Expected& e : want.dx) expected.push_back(e.rounded);  // RN(y*)
    expect_dx_rounded_once(c, expected);
  }
}

// Inference dx at the overflow threshold MAX + ulp/2 of the output format
// (binary32: 0x1.ffffffp127 = 31 * 601 * 1801 * 2^103; binary16: 65520 =
// 65 * 63 * 2^4), where RN(y*) is ±Inf from the threshold on (ties to even:
// MAX's significand is odd) and ±MAX below it (SPEC §5). Triples (scale,
// invar, dy) whose product is the threshold exactly, and random ones with
// scale = RN(threshold / (invar * dy)), so that y* falls within about an ulp
// of it on either side (invar with a full significand: a*dy is then inexact
// in binary64 for binary32 data); each dy with both signs and one data ulp
// up and down. Both sides must be there, and every dx must be RN(y*).
TEST(BNG_KSUITE(KernelRounding), InferenceDxIsRoundedOnceAtTheOverflowThreshold) {
  std::mt19937_64 rng(0x0f1);
  std::uniform_real_distribution<double> unit(1.0, 2.0);
  for (const Combo combo : target_combos()) {
    const Format df = data_format(combo), sf = stats_format(combo);
    const ref::FormatTraits t = ref::traits(df);
    const double threshold = std::ldexp(2.0 - std::ldexp(1.0, -t.precision), t.emax);
    // (scale, invar, dy) with scale * invar * dy == threshold exactly.
    std::vector<std::array<double, 3>> triples =
        df == Format::binary32
            ? std::vector<std::array<double, 3>>{{18631 * 0x1p-14, 0x1p117, 1801.0},
                                                 {18631 * 0x1p-14, 0x1p107, 1801 * 0x1p10},
                                                 {601 * 0x1p-9, 0x1p72, 31 * 1801 * 0x1p40}}
            : std::vector<std::array<double, 3>>{{65 * 0x1p-6, 0x1p10, 63.0},
                                                 {65 * 0x1p-6, 0x1p14, 63 * 0x1p-4},
                                                 {65.0, 1.0, 1008.0}};
    std::uniform_int_distribution<int> dy_exp(1, df == Format::binary32 ? 20 : 7);
    std::uniform_int_distribution<int> invar_exp(0, df == Format::binary32 ? 90 : 6);
    for (int k = 0; k < 24; ++k) {
      const double dy = ref::round_to(df, std::ldexp(unit(rng), dy_exp(rng)));
      const double invar = ref::round_to(sf, std::ldexp(unit(rng), invar_exp(rng)));
      triples.push_back({ref::round_to(sf, threshold / (invar * dy)), invar, dy});
    }
    Case c;
    c.combo = combo;
    c.is_train = 0;
    c.channel = static_cast<std::int64_t>(triples.size());
    c.batch = 6;
    for (const auto& tr : triples) {
      c.scale.push_back(tr[0]);
      c.invar.push_back(tr[1]);
      c.mean.push_back(0.0);
    }
    // dy, then one data ulp up, then one down (dy > 0, never a power of two
    // below, where the spacing halves, except by chance: then half of it).
    for (const int step : {0, 1, -1}) {
      for (const double sign : {1.0, -1.0}) {
        for (const auto& tr : triples) {
          const double u = ref::ulp_in(df, tr[2]);
          int e = 0;
          const bool power_of_two = std::frexp(tr[2], &e) == 0.5;
          const double down = power_of_two ? u / 2 : u;
          c.dy.push_back(sign * (step > 0 ? tr[2] + u : step < 0 ? tr[2] - down : tr[2]));
        }
      }
    }
    c.x.assign(c.dy.size(), 0.0);
    const ref::Result want = ref::compute(c);
    std::vector<double> expected;
    ASSERT_EQ(ref::round_to(df, threshold), HUGE_VAL) << "the tie rounds to even: Inf";
    const double max = std::ldexp(2.0 - std::ldexp(1.0, 1 - t.precision), t.emax);
    int infinite = 0, top = 0, ties = 0;
    for (const ref::Expected& e : want.dx) {
      expected.push_back(e.rounded);
      infinite += std::isinf(e.rounded) ? 1 : 0;
      top += std::fabs(e.rounded) == max ? 1 : 0;
      ties += std::fabs(e.exact) == threshold ? 1 : 0;
    }
    ASSERT_GE(ties, 6) << combo_name(combo) << ": the three exact ties, both signs";
    ASSERT_GE(infinite, 16) << combo_name(combo) << ": too few y* that round to ±Inf";
    ASSERT_GE(top, 16) << combo_name(combo) << ": too few y* that round to ±MAX";
    expect_dx_rounded_once(c, expected);
  }
}

}  // namespace
}  // namespace bng::ktest
