// RapidCheck generators for the pieces of a case. Values are built from bit
// patterns (RapidCheck's own floating-point generator yields no subnormal, Inf
// or NaN) and every generator shrinks toward small, simple cases: batch and
// channel toward 1, values toward 0 and 1, masks toward 0x1.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "bng/properties/target.hpp"
#include "bng/reference/case.hpp"

namespace bng::prop::gen {

// ---- shapes --------------------------------------------------------------------

struct Shape {
  std::int64_t batch = 1;
  std::int64_t channel = 1;
};

// Keeps a property's reference cost bounded: batch*channel of a generated case
// never exceeds this (skewed shapes reach it with one or two channels).
inline constexpr std::int64_t kMaxElements = 1 << 16;

// One extent, biased to 1, small primes, powers of two ± 1 and the targets'
// vector lengths ± 1 (8 and 16 binary32 lanes, 16 and 32 binary16 lanes),
// growing with RapidCheck's size; shrinks toward 1.
rc::Gen<std::int64_t> extent(std::int64_t max);
// batch × channel: independent extents, or skewed (huge batch × 1..3 channels,
// 1..3 batch × many channels); product ≤ kMaxElements.
rc::Gen<Shape> shape();
rc::Gen<Shape> small_shape();
// Large tall or wide cases, kMaxElements..kLargeElements elements: enough rows
// for a kernel to cut the reduction into several blocks and bands (and so
// for a reduction order that depends on the mask to show). Not size-scaled.
inline constexpr std::int64_t kLargeElements = std::int64_t{1} << 17;
rc::Gen<Shape> large_shape();  // both extents ≤ 17: cheap properties (status, in-place)

// ---- core masks ------------------------------------------------------------------

rc::Gen<unsigned> valid_mask();  // any of the 255 valid masks, shrinks toward 0x1
rc::Gen<int> invalid_mask();     // 0, a bit at 8..31, negative
// A spec for the target and combo: _s (valid mask) or _p, params or flat form.
rc::Gen<CallSpec> call_spec(Target t, Combo c);

// ---- values of one format ----------------------------------------------------------

// Each returns exact values of `f` as doubles.
rc::Gen<double> uniform(Format f, double lo,
                        double hi);     // bit-pattern uniform between representable lo < hi
rc::Gen<double> log_uniform(Format f);  // any finite value: sign, exponent and significand uniform
rc::Gen<double> subnormal(Format f);    // ±subnormal (±0 included as the shrink target)
rc::Gen<double> near_max(Format f);     // within 16 ulp of ±max (65504 for binary16)
rc::Gen<double> signed_zero();          // +0 or -0
rc::Gen<double> non_finite();           // ±Inf or NaN
// A mix of all of the above, weighted toward ordinary values.
rc::Gen<double> any_finite(Format f);

// ---- statistics -------------------------------------------------------------------------

struct Stats {
  std::vector<double> mean, invar, scale;
};
// What a framework would pass: mean and variance of each column of x computed in
// double, invar = 1/sqrt(var + eps) (eps drawn from {1e-5, 1e-3, 1}), each
// rounded to the statistics format; scale drawn from `scale_values`.
Stats consistent_stats(const std::vector<double>& x, std::int64_t batch, std::int64_t channel,
                       Format stats_fmt, double eps, const std::vector<double>& scale);
rc::Gen<double> epsilon();

}  // namespace bng::prop::gen
