// The exact path for one channel: SPEC §1 in BigInt arithmetic (the original
// reference), and the same formulas for single outputs once the channel's sums
// are known, which is how the tiered path (tiered.cpp) falls back on an output
// its rounding test cannot decide. docs/reference.md has the proof that nothing
// here rounds before round_exact.
//
// Every finite binary16/binary32 value is sign * odd integer * 2^e. Within one
// channel dy is brought to a common exponent ed and x - mean to a common
// exponent ex, each at most the smallest exponent among the values, so
//   dy[n] = D[n] * 2^ed,   x[n] - mean = X[n] * 2^ex,   invar = V * 2^ev,   scale = S * 2^es
// with integers D, X, V, S. Then, exactly,
//   dbias  = S1 * 2^ed                      with S1 = sum D[n]
//   dscale = V * S2 * 2^(ev+ed+ex)          with S2 = sum D[n] * X[n]
//   training dx[n] = S*V * T[n] * 2^(es+ev+e0) / m, where
//   T[n] * 2^e0 = (m*D[n] - S1) * 2^ed - X[n] * V^2 * S2 * 2^(ed + 2ex + 2ev)
// is an integer at the smaller of the two exponents; the division by m is left
// to the final rounding.
#pragma once

#include <cstdint>

#include "bng/reference/exact.hpp"
#include "bng/reference/reference.hpp"

namespace bng::ref {

// The channel's exact sums at the exponents ed (dy) and ex (x - mean).
struct ChannelSums {
  std::int64_t ed = 0, ex = 0;
  BigInt mean_int;   // mean * 2^-ex
  BigInt s1, s1abs;  // sum D, sum |D|
  BigInt s2, s2abs;  // sum D*X, sum |D*X|
};

class ExactChannel {
 public:
  ExactChannel(const Case& cs, std::int64_t c, Result& out);

  // The whole channel on the exact path: special values, sums, every output.
  void run();

  // Single outputs from sums computed elsewhere (the tiered path): the
  // channel's x, dy, mean, invar and scale must all be finite.
  void adopt(ChannelSums sums);
  Expected dbias() const;
  Expected dscale() const;
  Expected training_dx(std::int64_t n);  // prepares the channel's constants on first use
  Expected inference_dx(std::int64_t n) const;

 private:
  std::int64_t index(std::int64_t n) const { return n * cs_.channel + c_; }
  double x(std::int64_t n) const { return cs_.x[static_cast<std::size_t>(index(n))]; }
  double dy(std::int64_t n) const { return cs_.dy[static_cast<std::size_t>(index(n))]; }
  void build_dy();
  void build_x();
  void build_s2();
  void d_at(std::int64_t n, BigInt& out) const;
  void x_at(std::int64_t n, BigInt& out) const;
  void prepare_training();

  const Case& cs_;
  std::int64_t c_;
  Result& out_;
  std::uint64_t m_;
  FormatTraits data_, stats_;
  SmallDyadic invar_, scale_;
  ChannelSums sums_;
  // Training constants (prepare_training): A = V^2*S2 (shifted), its magnitude
  // twin, the shift of the first term, and the product S*V.
  bool prepared_ = false;
  BigInt a_, aabs_, sv_, svabs_;
  unsigned lift_ = 0;
  std::int64_t e_ = 0;
  BigInt dn_, xn_, t_, u_, mag_, magu_;  // scratch, kept to spare allocations
};

}  // namespace bng::ref
