// The final rounding of the vector paths: inference dx = a*dy
// with a*dy exact in binary64 must be exactly the rounding rule of
// output_rounding.hpp (nearest-even; ±MAX between MAX and 2^(emax+1)).
#include <gtest/gtest.h>

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

// What output_rounding.hpp promises for an exact t.
double expected_rounding(double t, Format f) {
  const double max = f == Format::binary16 ? 65504.0 : 0x1.fffffep127;
  const double over = f == Format::binary16 ? 65536.0 : 0x1p128;
  if (std::fabs(t) >= over) return std::copysign(HUGE_VAL, t);
  if (std::fabs(t) > max) return std::copysign(max, t);
  return ref::round_to(f, t);
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
// products (reduce_half_infer-inl.h watch_rounded_products).
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
    const std::size_t n = c.dy.size();
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto ch = i % static_cast<std::size_t>(c.channel);
      // hp: a*dy (22 + 11 bits) is exact in binary64, and goes through
      // output_rounding.hpp's rule at the overflow threshold (±MAX below
      // 2^16), which the reference does not have. fp and mp (|y*| < 2^16
      // here): the reference's RN(y*).
      expected[i] = combo == Combo::hp
                        ? expected_rounding(c.scale[ch] * c.invar[ch] * c.dy[i], Format::binary16)
                        : want.dx[i].rounded;
    }
    // The case, and its rows repeated to more than 9 MiB: a narrow tensor
    // whose row bands (8, one per modelled core) exceed 1 MiB takes its rows
    // one at a time (binary32) or two (binary16) instead of four (rows-inl.h
    // rows_at_once_pay), each with its own watch.
    const std::size_t bytes = n * (combo == Combo::fp ? 4 : 2);
    const auto copies = static_cast<std::int64_t>((std::size_t{9} << 20) / bytes) + 1;
    Case large = c;
    large.batch = c.batch * copies;
    large.dy.clear();
    for (std::int64_t k = 0; k < copies; ++k)
      large.dy.insert(large.dy.end(), c.dy.begin(), c.dy.end());
    large.x.assign(large.dy.size(), 0.0);
    for (const Case* run : {&c, &large}) {
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
            ADD_FAILURE() << combo_name(combo) << " batch " << run->batch
                          << (in_place == InPlace::dy ? " in place" : "") << " isa "
                          << opt::isa_name() << " scale " << hex_a(c.scale[ch]) << " invar "
                          << hex_a(c.invar[ch]) << " dy " << hex_a(run->dy[i]) << ": dx "
                          << hex_a(out.dx[i]) << ", want " << hex_a(expected[i % n]);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace bng::ktest
