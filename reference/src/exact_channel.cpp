// The exact path for one channel (see exact_channel.hpp for the formulas).
#include "exact_channel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace bng::ref {
namespace {

// Which special values an output's inputs contain (SPEC §5 dependency sets).
struct Taint {
  bool nan = false;
  bool inf = false;
  void add(double v) {
    nan = nan || std::isnan(v);
    inf = inf || std::isinf(v);
  }
  Taint operator|(const Taint& o) const { return {nan || o.nan, inf || o.inf}; }
  Kind kind() const { return nan ? Kind::nan : (inf ? Kind::nonfinite : Kind::finite); }
};

Taint taint_of(double v) {
  Taint t;
  t.add(v);
  return t;
}

// No real value exists: rounded is NaN for both non-finite kinds (a kernel's
// NaN or ±Inf is judged by kind, see error_measure).
Expected special(Kind k) {
  Expected e;
  e.kind = k;
  e.rounded = std::numeric_limits<double>::quiet_NaN();
  return e;
}

// y* = n * 2^e / m and M = mag * 2^e / m (mag >= 0). n is consumed.
Expected finish(BigInt& n, std::int64_t e, std::uint64_t m, const BigInt& mag,
                const FormatTraits& t) {
  const bool negative = n.sign() < 0;
  if (negative) n = -n;
  const RoundedPair r = round_exact_pair(negative, n, e, m, t);
  Expected out;
  out.kind = Kind::finite;
  out.rounded = to_double(r.out);
  out.exact = to_long_double(r.wide);
  out.ulp = ulp_of(r.out, t);
  out.magnitude = to_long_double(round_exact(false, mag, e, m, kLongDouble));
  return out;
}

BigInt signed_int(const SmallDyadic& d) {
  BigInt v(d.mantissa);
  if (d.negative) v = -v;
  return v;
}

void add_abs(BigInt& acc, const BigInt& v) {
  if (v.sign() < 0) {
    acc -= v;
  } else {
    acc += v;
  }
}

SmallDyadic decompose_finite(double v) {
  return std::isfinite(v) ? decompose(v) : SmallDyadic{};
}

// v as an integer at exponent e (v's own exponent is >= e by the choice of e).
void as_int(const SmallDyadic& v, std::int64_t e, BigInt& out) {
  out = v.mantissa;
  if (v.mantissa == 0) return;
  out <<= static_cast<unsigned>(v.exponent - e);
  if (v.negative) out = -out;
}

}  // namespace

ExactChannel::ExactChannel(const Case& cs, std::int64_t c, Result& out)
    : cs_(cs),
      c_(c),
      out_(out),
      m_(static_cast<std::uint64_t>(cs.batch)),
      data_(traits(data_format(cs.combo))),
      stats_(traits(stats_format(cs.combo))),
      invar_(decompose_finite(cs.invar[static_cast<std::size_t>(c)])),
      scale_(decompose_finite(cs.scale[static_cast<std::size_t>(c)])) {}

void ExactChannel::run() {
  Taint tx, tdy;
  for (std::int64_t n = 0; n < cs_.batch; ++n) {
    tx.add(x(n));
    tdy.add(dy(n));
  }
  const auto ci = static_cast<std::size_t>(c_);
  const Taint tmean = taint_of(cs_.mean[ci]);
  const Taint tinvar = taint_of(cs_.invar[ci]);
  const Taint tscale = taint_of(cs_.scale[ci]);
  const Kind k_dbias = tdy.kind();
  const Kind k_dscale = (tx | tdy | tmean | tinvar).kind();
  const Kind k_train = (tx | tdy | tmean | tinvar | tscale).kind();

  // dscale and training dx depend on dy too, so whenever they are finite
  // build_dy() has run here first.
  if (k_dbias == Kind::finite) {
    build_dy();
    out_.dbias[ci] = dbias();
  } else {
    out_.dbias[ci] = special(k_dbias);
  }
  if (k_dscale == Kind::finite) {
    build_x();
    build_s2();
    out_.dscale[ci] = dscale();
  } else {
    out_.dscale[ci] = special(k_dscale);
  }
  if (cs_.is_train == 1) {
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      out_.dx[static_cast<std::size_t>(index(n))] =
          k_train == Kind::finite ? training_dx(n) : special(k_train);
    }
  } else {
    const Taint stats = tinvar | tscale;
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      const Kind k = (stats | taint_of(dy(n))).kind();
      out_.dx[static_cast<std::size_t>(index(n))] =
          k == Kind::finite ? inference_dx(n) : special(k);
    }
  }
}

void ExactChannel::adopt(ChannelSums sums) {
  sums_ = std::move(sums);
  prepared_ = false;
}

Expected ExactChannel::dbias() const {
  BigInt n = sums_.s1;
  return finish(n, sums_.ed, 1, sums_.s1abs, stats_);
}

Expected ExactChannel::dscale() const {
  BigInt n = sums_.s2 * signed_int(invar_);
  const BigInt mag = sums_.s2abs * BigInt(invar_.mantissa);
  return finish(n, invar_.exponent + sums_.ed + sums_.ex, 1, mag, stats_);
}

// The column's dy at the smallest exponent ed among them: D[n] = dy[n] * 2^-ed.
// S1 = sum D, S1abs = sum |D|. D[n] is recomputed where needed instead of
// stored, so memory stays O(1) per channel even for batch 2^24.
void ExactChannel::build_dy() {
  std::int64_t ed = std::numeric_limits<std::int64_t>::max();
  for (std::int64_t n = 0; n < cs_.batch; ++n) {
    const SmallDyadic p = decompose(dy(n));
    if (p.mantissa != 0) ed = std::min(ed, p.exponent);
  }
  sums_.ed = ed == std::numeric_limits<std::int64_t>::max() ? 0 : ed;
  BigInt d;
  for (std::int64_t n = 0; n < cs_.batch; ++n) {
    d_at(n, d);
    sums_.s1 += d;
    add_abs(sums_.s1abs, d);
  }
}

void ExactChannel::d_at(std::int64_t n, BigInt& out) const {
  as_int(decompose(dy(n)), sums_.ed, out);
}

// X[n] = (x[n] - mean) * 2^-ex at the smallest exponent ex among the column's x and mean.
void ExactChannel::build_x() {
  const SmallDyadic mean = decompose(cs_.mean[static_cast<std::size_t>(c_)]);
  std::int64_t ex = mean.mantissa != 0 ? mean.exponent : std::numeric_limits<std::int64_t>::max();
  for (std::int64_t n = 0; n < cs_.batch; ++n) {
    const SmallDyadic p = decompose(x(n));
    if (p.mantissa != 0) ex = std::min(ex, p.exponent);
  }
  sums_.ex = ex == std::numeric_limits<std::int64_t>::max() ? 0 : ex;
  as_int(mean, sums_.ex, sums_.mean_int);
}

void ExactChannel::x_at(std::int64_t n, BigInt& out) const {
  as_int(decompose(x(n)), sums_.ex, out);
  out -= sums_.mean_int;
}

void ExactChannel::build_s2() {
  BigInt d, xn, prod;
  for (std::int64_t n = 0; n < cs_.batch; ++n) {
    d_at(n, d);
    x_at(n, xn);
    prod = d * xn;
    sums_.s2 += prod;
    add_abs(sums_.s2abs, prod);
  }
}

void ExactChannel::prepare_training() {
  // A = V^2 * S2 carries exponent ed + 2ex + 2ev = ed + k relative to T's first term.
  const BigInt v2 = BigInt(invar_.mantissa) * invar_.mantissa;
  a_ = sums_.s2 * v2;
  aabs_ = sums_.s2abs * v2;
  const std::int64_t k = 2 * sums_.ex + 2 * invar_.exponent;
  if (k > 0) {
    a_ <<= static_cast<unsigned>(k);
    aabs_ <<= static_cast<unsigned>(k);
  }
  lift_ = k < 0 ? static_cast<unsigned>(-k) : 0u;  // shift of the first term
  const std::int64_t e0 = k < 0 ? sums_.ed + k : sums_.ed;
  sv_ = signed_int(scale_) * signed_int(invar_);
  svabs_ = BigInt(scale_.mantissa) * invar_.mantissa;
  e_ = scale_.exponent + invar_.exponent + e0;
  prepared_ = true;
}

Expected ExactChannel::training_dx(std::int64_t n) {
  if (!prepared_) prepare_training();
  d_at(n, dn_);
  x_at(n, xn_);
  t_ = dn_ * m_;
  t_ -= sums_.s1;
  t_ <<= lift_;
  u_ = xn_ * a_;
  t_ -= u_;
  t_ *= sv_;
  // Magnitude: m|D| + S1abs + |X| * V^2 * S2abs, same exponents.
  mag_ = dn_ * m_;
  if (mag_.sign() < 0) mag_ = -mag_;
  mag_ += sums_.s1abs;
  mag_ <<= lift_;
  magu_ = xn_ * aabs_;
  add_abs(mag_, magu_);
  mag_ *= svabs_;
  return finish(t_, e_, m_, mag_, data_);
}

Expected ExactChannel::inference_dx(std::int64_t n) const {
  const BigInt sv = signed_int(scale_) * signed_int(invar_);
  const BigInt svabs = BigInt(scale_.mantissa) * invar_.mantissa;
  const SmallDyadic d = decompose(dy(n));
  BigInt n_int = sv * d.mantissa;
  if (d.negative) n_int = -n_int;
  const BigInt mag = svabs * d.mantissa;
  return finish(n_int, scale_.exponent + invar_.exponent + d.exponent, 1, mag, data_);
}

}  // namespace bng::ref
