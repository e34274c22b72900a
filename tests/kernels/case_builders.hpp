// Inputs for the kernel tests: random cases over every exponent, and the hard
// cases of docs/accuracy.md (|mean| >> spread, dy summing to ~0, results near
// overflow, subnormal data). All values exactly representable in their format.
#pragma once

#include <cstdint>
#include <random>

#include "bng/reference/case.hpp"

namespace bng::ktest {

enum class Hard : std::uint8_t {
  random,           // normal-ish values at random scales, bit patterns, zeros, small integers
  far_mean,         // x = mean + small offsets, |mean| >> spread
  cancelling_dy,    // dy in +/- pairs of huge values plus small ones: sums near 0
  near_overflow,    // dx, dbias, dscale near the format's largest finite value
  subnormal,        // x, dy, scale in the subnormal range of the data format
  wide_exponents,   // values spanning the whole exponent range, cancelling sums
  band_cancelling,  // row blocks of +V, small, -V, small (V huge): the small total survives
                    // only if the parts' totals are combined as the partition prescribes
};
inline constexpr Hard kAllHard[] = {Hard::random,         Hard::far_mean,  Hard::cancelling_dy,
                                    Hard::near_overflow,  Hard::subnormal, Hard::wide_exponents,
                                    Hard::band_cancelling};
const char* hard_name(Hard h);

// A uniform draw from [lo, hi).
double uniform(std::mt19937_64& rng, double lo, double hi);

// Builds a case of the given shape; specials (NaN/Inf) only if plant_specials.
Case make_case(Combo combo, Hard kind, std::int64_t batch, std::int64_t channel, int is_train,
               std::uint64_t seed, bool plant_specials = false);

}  // namespace bng::ktest
