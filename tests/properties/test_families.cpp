// The generators themselves: every family is generated, cases are well
// formed and representable, sampling is deterministic, and the special
// values the issue asks for actually occur.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "bng/properties/properties.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::prop {
namespace {

bool representable_or_special(double v, Format f) {
  return std::isnan(v) || ref::representable(v, f);
}

void well_formed(const Case& c) {
  const auto n = static_cast<std::size_t>(c.elements()), ch = static_cast<std::size_t>(c.channel);
  ASSERT_GE(c.batch, 1);
  ASSERT_GE(c.channel, 1);
  ASSERT_LE(c.elements(), gen::kLargeElements);
  ASSERT_EQ(c.x.size(), n);
  ASSERT_EQ(c.dy.size(), n);
  ASSERT_EQ(c.mean.size(), ch);
  ASSERT_EQ(c.invar.size(), ch);
  ASSERT_EQ(c.scale.size(), ch);
  for (double v : c.x) ASSERT_TRUE(representable_or_special(v, data_format(c.combo))) << v;
  for (double v : c.dy) ASSERT_TRUE(representable_or_special(v, data_format(c.combo))) << v;
  for (const auto* s : {&c.mean, &c.invar, &c.scale}) {
    for (double v : *s) ASSERT_TRUE(representable_or_special(v, stats_format(c.combo))) << v;
  }
}

TEST(Families, every_family_is_generated_and_well_formed) {
  for (Combo combo : {Combo::fp, Combo::hp, Combo::mp}) {
    std::map<std::string_view, int> seen;
    for (std::uint64_t seed = 0; seed < 250; ++seed) {
      const NamedCase nc =
          any_family(combo, false, true)(rc::Random(seed), static_cast<int>(seed % 60)).value();
      ++seen[nc.family];
      well_formed(nc.c);
    }
    for (const Family& f : families())
      EXPECT_GT(seen[f.name], 0) << f.name << " never drawn for " << combo_name(combo);
  }
}

TEST(Families, sampling_is_deterministic) {
  for (const Family& f : families()) {
    const Case a = sample(f, Combo::hp, 42, 50), b = sample(f, Combo::hp, 42, 50);
    EXPECT_EQ(a.batch, b.batch);
    EXPECT_EQ(a.channel, b.channel);
    ASSERT_EQ(a.x.size(), b.x.size());
    for (std::size_t i = 0; i < a.x.size(); ++i) {
      EXPECT_EQ(std::signbit(a.x[i]), std::signbit(b.x[i]));
      if (!std::isnan(a.x[i])) {
        EXPECT_EQ(a.x[i], b.x[i]);
      }
    }
  }
}

// A failing property must report in bounded time: a long case may not offer
// RapidCheck one shrink per element (each try rebuilds the whole vector, so a
// 65536-element case would take hours to shrink), only shrinks of its shape.
// A small case keeps its element shrinks.
std::size_t shrinks_up_to(const rc::Shrinkable<Case>& s, std::size_t cap) {
  std::size_t n = 0;
  auto seq = s.shrinks();
  while (n <= cap && seq.next()) ++n;
  return n;
}

TEST(Families, long_cases_shrink_by_shape_not_element_by_element) {
  constexpr std::size_t kCap = 1000;
  const rc::Shrinkable<Case> large =
      find_family("large_cancel")->gen(Combo::fp)(rc::Random(7), 100);
  ASSERT_GT(large.value().elements(), 65535);
  EXPECT_LE(shrinks_up_to(large, kCap), kCap)
      << "a " << large.value().elements() << "-element case shrinks element by element";
  // The first "ordinary" case of 16 to 1024 elements (seeds in order: deterministic).
  std::uint64_t seed = 0;
  auto small = find_family("ordinary")->gen(Combo::fp)(rc::Random(seed), 20);
  while (small.value().elements() < 16 || small.value().elements() > 1024) {
    small = find_family("ordinary")->gen(Combo::fp)(rc::Random(++seed), 20);
  }
  EXPECT_GT(shrinks_up_to(small, kCap), static_cast<std::size_t>(small.value().elements()))
      << "a small case lost its element shrinks";
}

// Each value generator yields what its name promises.
TEST(Generators, special_values_occur) {
  for (Format f : {Format::binary16, Format::binary32}) {
    const double tiny = std::ldexp(1.0, ref::traits(f).emin);
    const double top = f == Format::binary16 ? 65504.0 : 0x1.fffffep127;
    bool subnormal = false, max = false, neg_zero = false;
    std::set<int> exponents;
    for (std::uint64_t seed = 0; seed < 2000; ++seed) {
      const double s = gen::subnormal(f)(rc::Random(seed), 50).value();
      subnormal |= s != 0 && std::fabs(s) < tiny;
      EXPECT_LT(std::fabs(s), tiny);
      max |= std::fabs(gen::near_max(f)(rc::Random(seed), 50).value()) == top;
      const double z = gen::signed_zero()(rc::Random(seed), 50).value();
      neg_zero |= z == 0 && std::signbit(z);
      const double l = gen::log_uniform(f)(rc::Random(seed), 50).value();
      EXPECT_TRUE(ref::representable(l, f)) << l;
      exponents.insert(std::ilogb(l));
    }
    EXPECT_TRUE(subnormal);
    EXPECT_TRUE(max);
    EXPECT_TRUE(neg_zero);
    // log-uniform covers the whole exponent range, not a band around 1.
    EXPECT_GT(exponents.size(), static_cast<std::size_t>(f == Format::binary16 ? 28 : 200));
  }
}

TEST(Generators, shapes_reach_the_interesting_extents) {
  std::set<std::int64_t> batches;
  bool tall = false, wide = false;
  for (std::uint64_t seed = 0; seed < 3000; ++seed) {
    const gen::Shape s = gen::shape()(rc::Random(seed), 100).value();
    batches.insert(s.batch);
    tall |= s.batch >= 4096 && s.channel <= 3;
    wide |= s.channel >= 2048 && s.batch <= 3;
  }
  for (std::int64_t e : {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65})
    EXPECT_TRUE(batches.count(e)) << e;
  EXPECT_TRUE(tall);
  EXPECT_TRUE(wide);
}

TEST(Generators, masks) {
  std::set<unsigned> valid;
  for (std::uint64_t seed = 0; seed < 5000; ++seed) {
    const unsigned m = gen::valid_mask()(rc::Random(seed), 50).value();
    ASSERT_GE(m, 1u);
    ASSERT_LE(m, kAllCores);
    valid.insert(m);
    const int bad = gen::invalid_mask()(rc::Random(seed), 50).value();
    ASSERT_TRUE(bad == 0 || (static_cast<unsigned>(bad) & ~kAllCores) != 0) << bad;
  }
  EXPECT_EQ(valid.size(), 255u);
}

}  // namespace
}  // namespace bng::prop
