// SPEC §1 in exact arithmetic, per channel (docs/reference.md has the proof
// that nothing below rounds before round_exact).
//
// Every finite binary16/binary32 value is sign * odd integer * 2^e. Within one
// channel the column's dy are brought to the common exponent ed (the smallest
// among them) and x - mean to the common exponent ex, so
//   dy[n] = D[n] * 2^ed,   x[n] - mean = X[n] * 2^ex,   invar = V * 2^ev,   scale = S * 2^es
// with integers D, X, V, S. Then, exactly,
//   dbias  = S1 * 2^ed                      with S1 = sum D[n]
//   dscale = V * S2 * 2^(ev+ed+ex)          with S2 = sum D[n] * X[n]
//   training dx[n] = S*V * T[n] * 2^(es+ev+e0) / m, where
//   T[n] * 2^e0 = (m*D[n] - S1) * 2^ed - X[n] * V^2 * S2 * 2^(ed + 2ex + 2ev)
// is an integer at the smaller of the two exponents; the division by m is left
// to the final rounding.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "bng/reference/exact.hpp"
#include "bng/reference/reference.hpp"

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

class Channel {
 public:
  Channel(const Case& cs, std::int64_t c, Result& out)
      : cs_(cs),
        c_(c),
        out_(out),
        m_(static_cast<std::uint64_t>(cs.batch)),
        data_(traits(data_format(cs.combo))),
        stats_(traits(stats_format(cs.combo))) {}

  void run() {
    Taint tx, tdy;
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      tx.add(x(n));
      tdy.add(dy(n));
    }
    const Taint tmean = taint_of(cs_.mean[c_]);
    const Taint tinvar = taint_of(cs_.invar[c_]);
    const Taint tscale = taint_of(cs_.scale[c_]);
    const Kind k_dbias = tdy.kind();
    const Kind k_dscale = (tx | tdy | tmean | tinvar).kind();
    const Kind k_train = (tx | tdy | tmean | tinvar | tscale).kind();

    invar_ = decompose_finite(cs_.invar[c_]);
    scale_ = decompose_finite(cs_.scale[c_]);

    // dscale and training dx depend on dy too, so whenever they are finite
    // build_dy() has run here first.
    if (k_dbias == Kind::finite) {
      build_dy();
      out_.dbias[c_] = finish_copy(s1_, ed_, 1, s1abs_, stats_);
    } else {
      out_.dbias[c_] = special(k_dbias);
    }
    if (k_dscale == Kind::finite) {
      build_x();
      build_s2();
      BigInt n = s2_ * signed_int(invar_);
      const BigInt mag = s2abs_ * BigInt(invar_.mantissa);
      out_.dscale[c_] = finish(n, invar_.exponent + ed_ + ex_, 1, mag, stats_);
    } else {
      out_.dscale[c_] = special(k_dscale);
    }
    if (cs_.is_train == 1) {
      if (k_train == Kind::finite) {
        training_dx();
      } else {
        for (std::int64_t n = 0; n < cs_.batch; ++n) out_.dx[index(n)] = special(k_train);
      }
    } else {
      inference_dx(tinvar | tscale);
    }
  }

 private:
  std::int64_t index(std::int64_t n) const { return n * cs_.channel + c_; }
  double x(std::int64_t n) const { return cs_.x[static_cast<std::size_t>(index(n))]; }
  double dy(std::int64_t n) const { return cs_.dy[static_cast<std::size_t>(index(n))]; }
  static SmallDyadic decompose_finite(double v) {
    return std::isfinite(v) ? decompose(v) : SmallDyadic{};
  }

  Expected finish_copy(const BigInt& n, std::int64_t e, std::uint64_t m, const BigInt& mag,
                       const FormatTraits& t) {
    BigInt copy = n;
    return finish(copy, e, m, mag, t);
  }

  // The column's dy at the smallest exponent ed among them: D[n] = dy[n] * 2^-ed.
  // S1 = sum D, S1abs = sum |D|. D[n] is recomputed where needed instead of
  // stored, so memory stays O(1) per channel even for batch 2^24.
  void build_dy() {
    std::int64_t ed = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      const SmallDyadic p = decompose(dy(n));
      if (p.mantissa != 0) ed = std::min(ed, p.exponent);
    }
    ed_ = ed == std::numeric_limits<std::int64_t>::max() ? 0 : ed;
    BigInt d;
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      d_at(n, d);
      s1_ += d;
      add_abs(s1abs_, d);
    }
  }

  void d_at(std::int64_t n, BigInt& out) const { as_int(decompose(dy(n)), ed_, out); }

  // X[n] = (x[n] - mean) * 2^-ex at the smallest exponent ex among the column's x and mean.
  void build_x() {
    const SmallDyadic mean = decompose(cs_.mean[c_]);
    std::int64_t ex = mean.mantissa != 0 ? mean.exponent : std::numeric_limits<std::int64_t>::max();
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      const SmallDyadic p = decompose(x(n));
      if (p.mantissa != 0) ex = std::min(ex, p.exponent);
    }
    ex_ = ex == std::numeric_limits<std::int64_t>::max() ? 0 : ex;
    as_int(mean, ex_, mean_int_);
  }

  void x_at(std::int64_t n, BigInt& out) const {
    as_int(decompose(x(n)), ex_, out);
    out -= mean_int_;
  }

  // v as an integer at exponent e (v's own exponent is >= e by the choice of e).
  static void as_int(const SmallDyadic& v, std::int64_t e, BigInt& out) {
    out = v.mantissa;
    if (v.mantissa == 0) return;
    out <<= static_cast<unsigned>(v.exponent - e);
    if (v.negative) out = -out;
  }

  void build_s2() {
    BigInt d, xn, prod;
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      d_at(n, d);
      x_at(n, xn);
      prod = d * xn;
      s2_ += prod;
      add_abs(s2abs_, prod);
    }
  }

  void training_dx() {
    // A = V^2 * S2 carries exponent ed + 2ex + 2ev = ed + k relative to T's first term.
    const BigInt v2 = BigInt(invar_.mantissa) * invar_.mantissa;
    BigInt a = s2_ * v2;
    BigInt aabs = s2abs_ * v2;
    const std::int64_t k = 2 * ex_ + 2 * invar_.exponent;
    if (k > 0) {
      a <<= static_cast<unsigned>(k);
      aabs <<= static_cast<unsigned>(k);
    }
    const unsigned lift = k < 0 ? static_cast<unsigned>(-k) : 0u;  // shift of the first term
    const std::int64_t e0 = k < 0 ? ed_ + k : ed_;
    const BigInt sv = signed_int(scale_) * signed_int(invar_);
    const BigInt svabs = BigInt(scale_.mantissa) * invar_.mantissa;
    const std::int64_t e = scale_.exponent + invar_.exponent + e0;
    BigInt dn, xn, t, u, mag, magu;
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      d_at(n, dn);
      x_at(n, xn);
      t = dn * m_;
      t -= s1_;
      t <<= lift;
      u = xn * a;
      t -= u;
      t *= sv;
      // Magnitude: m|D| + S1abs + |X| * V^2 * S2abs, same exponents.
      mag = dn * m_;
      if (mag.sign() < 0) mag = -mag;
      mag += s1abs_;
      mag <<= lift;
      magu = xn * aabs;
      add_abs(mag, magu);
      mag *= svabs;
      out_.dx[index(n)] = finish(t, e, m_, mag, data_);
    }
  }

  void inference_dx(const Taint& stats) {
    const BigInt sv = signed_int(scale_) * signed_int(invar_);
    const BigInt svabs = BigInt(scale_.mantissa) * invar_.mantissa;
    BigInt n_int, mag;
    for (std::int64_t n = 0; n < cs_.batch; ++n) {
      const Kind k = (stats | taint_of(dy(n))).kind();
      if (k != Kind::finite) {
        out_.dx[index(n)] = special(k);
        continue;
      }
      const SmallDyadic d = decompose(dy(n));
      n_int = sv * d.mantissa;
      if (d.negative) n_int = -n_int;
      mag = svabs * d.mantissa;
      out_.dx[index(n)] =
          finish(n_int, scale_.exponent + invar_.exponent + d.exponent, 1, mag, data_);
    }
  }

  const Case& cs_;
  std::int64_t c_;
  Result& out_;
  std::uint64_t m_;
  FormatTraits data_, stats_;
  SmallDyadic invar_, scale_;
  std::int64_t ed_ = 0, ex_ = 0;
  BigInt mean_int_;
  BigInt s1_, s1abs_, s2_, s2abs_;
};

}  // namespace

std::string_view path_name(Path p) {
  return p == Path::tiered ? "tiered" : "exact";
}

std::optional<Path> parse_path(std::string_view name) {
  if (name == "tiered") return Path::tiered;
  if (name == "exact") return Path::exact;
  return std::nullopt;
}

Result compute_channels(const Case& c, std::int64_t c_begin, std::int64_t c_end, Path path) {
  (void)path;  // the tiered path is not built yet: both run the exact one
  validate(c);
  if (c_begin < 0 || c_end > c.channel || c_begin > c_end) {
    throw std::invalid_argument("compute_channels: range [" + std::to_string(c_begin) + ", " +
                                std::to_string(c_end) + ") outside [0, " +
                                std::to_string(c.channel) + ")");
  }
  Result r;
  r.dx.resize(static_cast<std::size_t>(c.elements()));
  r.dbias.resize(static_cast<std::size_t>(c.channel));
  r.dscale.resize(static_cast<std::size_t>(c.channel));
  for (std::int64_t ch = c_begin; ch < c_end; ++ch) Channel(c, ch, r).run();
  return r;
}

Result compute(const Case& c, Path path) {
  return compute_channels(c, 0, c.channel, path);
}

}  // namespace bng::ref
