// SPEC §4's bit-identity guarantees: masks, _s/_p, forms, repeat calls,
// channel isolation, power-of-two scaling, in-place forms.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "bng/properties/checks.hpp"
#include "bng/properties/reproducer.hpp"
#include "bng/reference/error_measure.hpp"
#include "bng/reference/rounding.hpp"
#include "values.hpp"

namespace bng::prop {
namespace {

// First difference between two runs' bits, restricted to channels `keep`
// accepts; empty when identical.
template <typename Keep>
std::string diff_bits(const Case& c, const RunResult& a, const RunResult& b, Keep keep,
                      std::int64_t* where) {
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  std::ostringstream os;
  if (a.status != b.status) {
    os << "status " << a.status << " vs " << b.status;
    return os.str();
  }
  if (a.clobbered || b.clobbered) return "a call wrote outside dx, dbias and dscale";
  for (std::size_t i = 0; i < a.dx_bits.size(); ++i) {
    const auto k = static_cast<std::int64_t>(i) % c.channel;
    if (keep(k) && a.dx_bits[i] != b.dx_bits[i]) {
      *where = k;
      os << "dx[n=" << static_cast<std::int64_t>(i) / c.channel << ",c=" << k
         << "]: " << hex_bits(a.dx_bits[i], df) << " vs " << hex_bits(b.dx_bits[i], df);
      return os.str();
    }
  }
  for (std::size_t k = 0; k < a.dbias_bits.size(); ++k) {
    const auto kk = static_cast<std::int64_t>(k);
    if (keep(kk) && a.dbias_bits[k] != b.dbias_bits[k]) {
      *where = kk;
      os << "dbias[c=" << k << "]: " << hex_bits(a.dbias_bits[k], sf) << " vs "
         << hex_bits(b.dbias_bits[k], sf);
      return os.str();
    }
    if (keep(kk) && a.dscale_bits[k] != b.dscale_bits[k]) {
      *where = kk;
      os << "dscale[c=" << k << "]: " << hex_bits(a.dscale_bits[k], sf) << " vs "
         << hex_bits(b.dscale_bits[k], sf);
      return os.str();
    }
  }
  return {};
}

std::string compare(const Case& c, const CallSpec& sa, const RunResult& a, const CallSpec& sb,
                    const RunResult& b) {
  std::int64_t where = -1;
  const std::string d = diff_bits(
      c, a, b, [](std::int64_t) { return true; }, &where);
  if (d.empty()) return {};
  return reproducer(c, sa, describe(sa) + " and " + describe(sb) + " differ: " + d, where);
}

double normal_min(Format f) {
  return std::ldexp(1.0, ref::traits(f).emin);
}

}  // namespace

std::string check_reproducible(const Case& c, const CallSpec& base,
                               const std::vector<CallSpec>& others) {
  const RunResult first = run(c, base);
  if (std::string d = compare(c, base, first, base, run(c, base)); !d.empty())
    return "repeat call: " + d;
  for (const CallSpec& o : others) {
    if (std::string d = compare(c, base, first, o, run(c, o)); !d.empty()) return d;
  }
  return {};
}

std::string check_forms_identical(const Case& c, const CallSpec& spec) {
  CallSpec params = spec, flat = spec;
  params.form = Form::params;
  flat.form = Form::flat;
  if (!exists(flat)) throw std::invalid_argument(describe(flat) + " does not exist");
  return compare(c, params, run(c, params), flat, run(c, flat));
}

std::string check_channel_isolation(const Case& c, const CallSpec& spec, std::int64_t channel,
                                    const Case& poisoned) {
  if (poisoned.batch != c.batch || poisoned.channel != c.channel ||
      poisoned.is_train != c.is_train) {
    throw std::invalid_argument(
        "check_channel_isolation: the poisoned case must have the same shape");
  }
  const RunResult a = run(c, spec), b = run(poisoned, spec);
  std::int64_t where = -1;
  const std::string d = diff_bits(
      c, a, b, [channel](std::int64_t k) { return k != channel; }, &where);
  if (d.empty()) return {};
  std::ostringstream os;
  os << "changing channel " << channel << " changed another channel's output: " << d
     << "\nthe poisoned call:\n"
     << describe_case(poisoned, spec, channel);
  return reproducer(c, spec, os.str(), where);
}

bool scaling_applies(const Case& c, int k) {
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  const double s = std::ldexp(1.0, k), grow = std::max(1.0, s), shrink = std::min(1.0, s);
  // Factors of every product a kernel forms stay in [2^-24, 2^24] (m ≤ 2^16):
  // a product of four of them and 1/m stays normal and finite in binary32.
  auto moderate = [&](double v) {
    return v == 0 || (std::fabs(v) >= 0x1p-24 && std::fabs(v) <= 0x1p24);
  };
  if (c.batch > (1 << 16)) return false;
  for (std::size_t i = 0; i < c.dy.size(); ++i) {
    const double dy = c.dy[i], scaled = std::ldexp(dy, k);
    if (!std::isfinite(dy) || !std::isfinite(c.x[i])) return false;
    if (round_to(df, scaled) != scaled) return false;
    if (dy != 0 && std::min(std::fabs(dy), std::fabs(scaled)) < normal_min(df)) return false;
    if (!moderate(dy) || !moderate(scaled)) return false;
    const auto ch = static_cast<std::size_t>(c.channel);
    const std::size_t col = i % ch;
    const double xhat = (c.x[i] - c.mean[col]) * c.invar[col];
    if (!moderate(xhat)) return false;
  }
  for (std::size_t k2 = 0; k2 < c.mean.size(); ++k2) {
    if (!std::isfinite(c.mean[k2]) || !std::isfinite(c.invar[k2]) || !std::isfinite(c.scale[k2]))
      return false;
    if (!moderate(c.scale[k2] * c.invar[k2] / static_cast<double>(c.batch))) return false;
  }
  // Every output surely normal (or exactly zero with M = 0) before and after
  // scaling, and far from overflow, so its rounding commutes with ·2^k.
  const ref::Result r = ref::compute(c);
  const double alpha_max = 0x1p-20;  // the loosest α SPEC §5 allows any kernel
  auto output_ok = [&](const ref::Expected& e, Format f) {
    if (e.kind != ref::Kind::finite) return false;
    const double m = static_cast<double>(e.magnitude), y = std::fabs(static_cast<double>(e.exact));
    if (m == 0) return true;
    if (m * grow > max_finite(f) / 4) return false;
    return (y - e.ulp - alpha_max * m) * shrink >= normal_min(f);
  };
  for (const auto& e : r.dx) {
    if (!output_ok(e, df)) return false;
  }
  for (std::size_t i = 0; i < r.dbias.size(); ++i) {
    if (!output_ok(r.dbias[i], sf) || !output_ok(r.dscale[i], sf)) return false;
  }
  return true;
}

std::string check_pow2_scaling(const Case& c, const CallSpec& spec, int k) {
  Case scaled = c;
  for (double& v : scaled.dy) v = std::ldexp(v, k);
  const RunResult a = run(c, spec), b = run(scaled, spec);
  if (a.status != 0 || b.status != 0) {
    return reproducer(c, spec,
                      "status " + std::to_string(a.status) + " / " + std::to_string(b.status) +
                          " on valid calls");
  }
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  auto same = [k](double y, double ys) {
    if (std::isnan(y) || std::isnan(ys))
      return false;  // scaling_applies excludes non-finite outputs
    return std::ldexp(y, k) == ys && std::signbit(y) == std::signbit(ys);
  };
  std::ostringstream os;
  auto fail = [&](const char* name, std::size_t i, std::uint32_t b1, std::uint32_t b2, Format f) {
    os << "dy*2^" << k << " did not scale " << name << "[" << i << "] exactly: " << hex_bits(b1, f)
       << " became " << hex_bits(b2, f);
  };
  for (std::size_t i = 0; i < a.values.dx.size() && os.tellp() == 0; ++i) {
    if (!same(a.values.dx[i], b.values.dx[i])) fail("dx", i, a.dx_bits[i], b.dx_bits[i], df);
  }
  for (std::size_t i = 0; i < a.values.dbias.size() && os.tellp() == 0; ++i) {
    if (!same(a.values.dbias[i], b.values.dbias[i]))
      fail("dbias", i, a.dbias_bits[i], b.dbias_bits[i], sf);
    else if (!same(a.values.dscale[i], b.values.dscale[i]))
      fail("dscale", i, a.dscale_bits[i], b.dscale_bits[i], sf);
  }
  if (os.tellp() == 0) return {};
  return reproducer(c, spec, os.str());
}

std::string check_in_place(const Case& c, const CallSpec& spec, InPlace where) {
  if (where == InPlace::none)
    throw std::invalid_argument("check_in_place: choose dx_is_x or dx_is_dy");
  CallSpec s = spec;
  const RunResult out = run(c, s), in = run(c, s, where);
  std::int64_t ch = -1;
  const std::string d = diff_bits(
      c, out, in, [](std::int64_t) { return true; }, &ch);
  if (d.empty()) return {};
  return reproducer(c, spec,
                    std::string(where == InPlace::dx_is_x ? "dx == x" : "dx == dy") +
                        " differs from out of place: " + d,
                    ch);
}

std::string check_canonical_nans(const Case& c, const CallSpec& spec) {
  const RunResult got = run(c, spec);
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  const auto canonical = [](Format f) { return f == Format::binary32 ? 0x7fc00000u : 0x7e00u; };
  const auto first_other = [&](const std::vector<std::uint32_t>& bits, const std::vector<double>& v,
                               Format f) -> std::int64_t {
    for (std::size_t i = 0; i < bits.size(); ++i) {
      if (std::isnan(v[i]) && bits[i] != canonical(f)) return static_cast<std::int64_t>(i);
    }
    return -1;
  };
  std::ostringstream os;
  std::int64_t ch = -1;
  if (const auto i = first_other(got.dx_bits, got.values.dx, df); i >= 0) {
    ch = i % c.channel;
    os << "dx[n=" << i / c.channel << ",c=" << ch << "] is " << hex_bits(got.dx_bits[i], df);
  } else if (const auto k = first_other(got.dbias_bits, got.values.dbias, sf); k >= 0) {
    ch = k;
    os << "dbias[c=" << k << "] is " << hex_bits(got.dbias_bits[k], sf);
  } else if (const auto j = first_other(got.dscale_bits, got.values.dscale, sf); j >= 0) {
    ch = j;
    os << "dscale[c=" << j << "] is " << hex_bits(got.dscale_bits[j], sf);
  } else {
    return {};
  }
  return reproducer(c, spec, os.str() + ", not the canonical NaN (docs/spec-notes.md #12)", ch);
}

std::string check_overlapping_inputs(const Case& c, const CallSpec& spec) {
  Case same = c;
  same.dy = same.x;
  same.invar = same.mean;
  same.scale = same.mean;
  Buffers b = lay_out(same);
  RawCall r = b.raw();
  r.dy = r.x;
  r.invar = r.mean;
  r.scale = r.mean;
  const RunResult got = read_outputs(b, same.combo, invoke(spec, r));
  const std::string why =
      check_accuracy(same, spec, ref::compute(same), got, declared_alpha(spec.target, spec.combo));
  return why.empty() ? why : "inputs passed overlapping (dy == x, invar == scale == mean): " + why;
}

}  // namespace bng::prop
