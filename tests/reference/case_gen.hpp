// Random small cases for the reference's self-checks: values built from bit
// patterns and from scaled normals so that zeros, subnormals, huge values,
// exact cancellations and (optionally) NaN/Inf all occur.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "bng/reference/case.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::test {

inline double random_value(std::mt19937_64& rng, Format f, bool plant_specials) {
  const int pick = static_cast<int>(rng() % 100);
  if (plant_specials && pick < 4) {
    static constexpr double kSpecials[] = {HUGE_VAL, -HUGE_VAL, NAN};
    return kSpecials[rng() % 3];
  }
  if (pick < 8) return 0.0;
  if (pick < 30) {  // any finite bit pattern: every exponent, subnormals included
    for (;;) {
      const double v = f == Format::binary16
                           ? ref::half_bits_to_double(static_cast<std::uint16_t>(rng()))
                           : ref::float_bits_to_double(static_cast<std::uint32_t>(rng()));
      if (std::isfinite(v)) return v;
    }
  }
  if (pick < 45) {  // small integers: exact zeros and ties in the results
    return static_cast<double>(static_cast<int>(rng() % 9) - 4);
  }
  std::normal_distribution<double> normal(0.0, 1.0);
  const int scale = static_cast<int>(rng() % 21) - 10;
  return ref::round_to(f, std::ldexp(normal(rng), scale));
}

// A case of the given shape, its values drawn as random_case draws them.
inline Case random_case_of_shape(std::mt19937_64& rng, Combo combo, int is_train,
                                 std::int64_t batch, std::int64_t channel, bool plant_specials) {
  Case c;
  c.combo = combo;
  c.is_train = is_train;
  c.batch = batch;
  c.channel = channel;
  const Format df = data_format(combo);
  const Format sf = stats_format(combo);
  for (std::int64_t i = 0; i < c.elements(); ++i) {
    c.x.push_back(random_value(rng, df, plant_specials));
    c.dy.push_back(random_value(rng, df, plant_specials));
  }
  for (std::int64_t ch = 0; ch < c.channel; ++ch) {
    c.mean.push_back(random_value(rng, sf, plant_specials));
    c.invar.push_back(random_value(rng, sf, plant_specials));
    c.scale.push_back(random_value(rng, sf, plant_specials));
    if (rng() % 5 == 0) {  // results near the data format's subnormal range
      std::normal_distribution<double> normal(0.0, 1.0);
      c.scale.back() = ref::round_to(sf, std::ldexp(normal(rng), ref::traits(df).emin - 2));
    }
  }
  return c;
}

inline Case random_case(std::mt19937_64& rng, Combo combo, int is_train, bool plant_specials) {
  const auto batch = 1 + static_cast<std::int64_t>(rng() % 7);
  const auto channel = 1 + static_cast<std::int64_t>(rng() % 3);
  return random_case_of_shape(rng, combo, is_train, batch, channel, plant_specials);
}

// The whole case, every value in %a, for failure messages.
inline std::string describe(const Case& c) {
  std::ostringstream out;
  out << combo_name(c.combo) << " is_train=" << c.is_train << " batch=" << c.batch
      << " channel=" << c.channel;
  auto list = [&out](const char* name, const std::vector<double>& v) {
    out << "\n  " << name << ":";
    char buf[40];
    for (const double d : v) {
      std::snprintf(buf, sizeof buf, " %a", d);
      out << buf;
    }
  };
  list("x", c.x);
  list("dy", c.dy);
  list("mean", c.mean);
  list("invar", c.invar);
  list("scale", c.scale);
  return out.str();
}

}  // namespace bng::test
