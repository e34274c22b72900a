#include "case_builders.hpp"

#include <cmath>

#include "bng/reference/rounding.hpp"

namespace bng::ktest {

double uniform(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

namespace {

double any_finite(std::mt19937_64& rng, Format f) {
  for (;;) {
    const double v = f == Format::binary16
                         ? ref::half_bits_to_double(static_cast<std::uint16_t>(rng()))
                         : ref::float_bits_to_double(static_cast<std::uint32_t>(rng()));
    if (std::isfinite(v)) return v;
  }
}

double scaled_normal(std::mt19937_64& rng, Format f, int lo_exp, int hi_exp) {
  std::normal_distribution<double> normal(0.0, 1.0);
  const int e = lo_exp + static_cast<int>(rng() % static_cast<std::uint64_t>(hi_exp - lo_exp + 1));
  return ref::round_to(f, std::ldexp(normal(rng), e));
}

double random_value(std::mt19937_64& rng, Format f) {
  const int pick = static_cast<int>(rng() % 100);
  if (pick < 5) return 0.0;
  if (pick < 15) return any_finite(rng, f);
  if (pick < 30) return static_cast<double>(static_cast<int>(rng() % 9) - 4);
  return scaled_normal(rng, f, -6, 6);
}

}  // namespace

const char* hard_name(Hard h) {
  switch (h) {
    case Hard::random:
      return "random";
    case Hard::far_mean:
      return "far_mean";
    case Hard::cancelling_dy:
      return "cancelling_dy";
    case Hard::near_overflow:
      return "near_overflow";
    case Hard::subnormal:
      return "subnormal";
    case Hard::wide_exponents:
      return "wide_exponents";
    case Hard::band_cancelling:
      return "band_cancelling";
  }
  return "?";
}

Case make_case(Combo combo, Hard kind, std::int64_t batch, std::int64_t channel, int is_train,
               std::uint64_t seed, bool plant_specials) {
  std::mt19937_64 rng(seed);
  Case c;
  c.combo = combo;
  c.batch = batch;
  c.channel = channel;
  c.is_train = is_train;
  const Format df = data_format(combo), sf = stats_format(combo);
  const bool half_data = df == Format::binary16;
  const std::int64_t n = batch * channel;
  c.x.resize(static_cast<std::size_t>(n));
  c.dy.resize(static_cast<std::size_t>(n));
  c.mean.resize(static_cast<std::size_t>(channel));
  c.invar.resize(static_cast<std::size_t>(channel));
  c.scale.resize(static_cast<std::size_t>(channel));
  for (std::int64_t ch = 0; ch < channel; ++ch) {
    c.mean[ch] = random_value(rng, sf);
    c.invar[ch] = std::fabs(scaled_normal(rng, sf, -3, 3));
    c.scale[ch] = random_value(rng, sf);
  }
  for (std::int64_t i = 0; i < n; ++i) {
    const auto ch = static_cast<std::size_t>(i % channel);
    double x = random_value(rng, df), dy = random_value(rng, df);
    switch (kind) {
      case Hard::random:
        break;
      case Hard::far_mean: {
        // mean ~ 2^10 (half) or 2^20 (float) times the spread of x around it.
        const double big = half_data ? 1000.0 : 3.0e6;
        c.mean[ch] = ref::round_to(sf, big + 0.25 * static_cast<double>(ch));
        x = ref::round_to(df, c.mean[ch] + std::ldexp(static_cast<double>(rng() % 17) - 8.0,
                                                      half_data ? -1 : -3));
        c.invar[ch] = ref::round_to(sf, half_data ? 4.0 : 64.0);
        break;
      }
      case Hard::cancelling_dy: {
        // Pairs (v, -v) of large values, and a few small ones: sum ~ 0, sum|dy| large.
        const double v = scaled_normal(rng, df, half_data ? 8 : 60, half_data ? 12 : 100);
        dy = (i / channel) % 2 == 0 ? v : -c.dy[static_cast<std::size_t>(i - channel)];
        if (rng() % 16 == 0) dy = scaled_normal(rng, df, -8, 0);
        break;
      }
      case Hard::near_overflow: {
        const double top = half_data ? 65504.0 : 0x1.fffffep127;
        dy = ref::round_to(df, top * (0.25 + 0.75 * static_cast<double>(rng() % 1000) / 1000.0));
        if (rng() % 2 == 0) dy = -dy;
        c.scale[ch] = ref::round_to(sf, 1.0 - std::ldexp(static_cast<double>(rng() % 8), -12));
        c.invar[ch] = 1.0;
        c.mean[ch] = 0.0;
        x = ref::round_to(df, std::ldexp(static_cast<double>(rng() % 9) - 4.0, -3));
        break;
      }
      case Hard::subnormal: {
        const double tiny = half_data ? 0x1p-24 : 0x1p-149;
        x = tiny * static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
        dy = tiny * static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
        c.mean[ch] = 0.0;
        if (sf == Format::binary32 && !half_data)
          c.invar[ch] = std::ldexp(1.0, static_cast<int>(rng() % 40));
        break;
      }
      case Hard::wide_exponents:
        x = any_finite(rng, df);
        dy = any_finite(rng, df);
        break;
      case Hard::band_cancelling: {
        // Blocks of 128 rows (the kernels' block length for unfolded rows):
        // +V, small, -V, small, ... A small total survives only in compensated
        // sums combined in the prescribed order; any other grouping of the
        // parts loses it (binary32 data: V = 2^100, smalls ~ 1).
        const std::int64_t block = (i / channel) / 128;
        const double v = half_data ? 32768.0 : 0x1p100;
        dy = block % 2 == 1 ? scaled_normal(rng, df, -2, 2) : (block % 4 == 0 ? v : -v);
        c.mean[ch] = 0.0;
        x = 1.0;
        break;
      }
    }
    c.x[static_cast<std::size_t>(i)] = x;
    c.dy[static_cast<std::size_t>(i)] = dy;
  }
  if (plant_specials) {
    static constexpr double kSpecials[] = {HUGE_VAL, -HUGE_VAL, NAN};
    for (int k = 0; k < 3; ++k) {
      const auto i = static_cast<std::size_t>(rng() % static_cast<std::uint64_t>(n));
      (rng() % 2 == 0 ? c.x : c.dy)[i] = kSpecials[rng() % 3];
    }
  }
  return c;
}

}  // namespace bng::ktest
