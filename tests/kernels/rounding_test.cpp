// The final rounding of the vector paths: inference dx = a*dy
// with a*dy exact in binary64 must be exactly the rounding rule of
// output_rounding.hpp (nearest-even; ±MAX between MAX and 2^(emax+1)).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>

#include "bng/binary16.hpp"
#include "bng/optimized/isa.hpp"
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

}  // namespace
}  // namespace bng::ktest
