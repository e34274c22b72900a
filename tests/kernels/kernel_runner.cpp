#include "kernel_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "bng/optimized/compute.hpp"
#include "bng/optimized/targets.hpp"
#include "bng/reference/error_measure.hpp"
#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::ktest {
namespace {

std::size_t size_of(Format f) {
  return f == Format::binary16 ? 2 : 4;
}

std::vector<std::uint8_t> encode(const std::vector<double>& v, Format f) {
  std::vector<std::uint8_t> out(v.size() * size_of(f));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (f == Format::binary16) {
      const std::uint16_t h = ref::double_to_half_bits(v[i]);
      std::memcpy(out.data() + 2 * i, &h, 2);
    } else {
      const auto x = static_cast<float>(v[i]);
      std::memcpy(out.data() + 4 * i, &x, 4);
    }
  }
  return out;
}

std::vector<double> decode_values(const std::vector<std::uint8_t>& b, Format f) {
  std::vector<double> out(b.size() / size_of(f));
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (f == Format::binary16) {
      std::uint16_t h;
      std::memcpy(&h, b.data() + 2 * i, 2);
      out[i] = ref::half_bits_to_double(h);
    } else {
      float x;
      std::memcpy(&x, b.data() + 4 * i, 4);
      out[i] = x;
    }
  }
  return out;
}

std::string show_value(double v, Format f) {
  char buf[96];
  if (f == Format::binary16 && !std::isnan(v) && ref::representable(v, f)) {
    std::snprintf(buf, sizeof buf, "0x%04x (%a)", ref::double_to_half_bits(v), v);
  } else if (!std::isnan(v) && ref::representable(v, f)) {
    float x = static_cast<float>(v);
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    std::snprintf(buf, sizeof buf, "0x%08x (%a)", u, v);
  } else {
    return hex_a(v);
  }
  return buf;
}

}  // namespace

std::string hex_a(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

constexpr const opt::TargetInfo& kTarget = opt::target_info(BNG_TARGET_NAME);

std::vector<Combo> target_combos() {
  std::vector<Combo> out;
  for (Combo c : {Combo::fp, Combo::hp, Combo::mp}) {
    if (kTarget.has_kernel(static_cast<std::size_t>(c))) out.push_back(c);
  }
  return out;
}

double declared_alpha(Combo c) {
  return kTarget.alpha.at(static_cast<std::size_t>(c));
}

opt::TargetModel target_model() {
  return {kTarget.cores, kTarget.vector_lanes, kTarget.local_memory};
}

Encoded encode_case(const Case& c) {
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  return Encoded{&c,
                 encode(c.x, df),
                 encode(c.dy, df),
                 encode(c.mean, sf),
                 encode(c.invar, sf),
                 encode(c.scale, sf)};
}

RawOutputs run_raw(const Case& c, unsigned core_mask) {
  return run_raw(encode_case(c), core_mask);
}

RawOutputs run_raw(const Encoded& e, unsigned core_mask, InPlace in_place) {
  const Case& c = *e.c;
  const auto &mean = e.mean, &invar = e.invar, &scale = e.scale;
  RawOutputs r;
  r.dbias.assign(mean.size(), 0xa5);  // poison: every byte must be written
  r.dscale.assign(mean.size(), 0xa5);
  const std::uint8_t* x = e.x.data();
  const std::uint8_t* dy = e.dy.data();
  if (in_place == InPlace::none) {
    r.dx.assign(e.x.size(), 0xa5);
  } else {
    r.dx = in_place == InPlace::x ? e.x : e.dy;
    (in_place == InPlace::x ? x : dy) = r.dx.data();
  }
  const opt::Args a{x,
                    dy,
                    r.dx.data(),
                    mean.data(),
                    invar.data(),
                    scale.data(),
                    r.dbias.data(),
                    r.dscale.data(),
                    c.batch,
                    c.channel,
                    c.is_train,
                    core_mask};
  switch (c.combo) {
#if BNG_TARGET_HAS_FP
    case Combo::fp:
      opt::target::compute_fp(a);
      return r;
#endif
#if BNG_TARGET_HAS_HP
    case Combo::hp:
      opt::target::compute_hp(a);
      return r;
#endif
#if BNG_TARGET_HAS_MP
    case Combo::mp:
      opt::target::compute_mp(a);
      return r;
#endif
    default:
      break;
  }
  throw std::invalid_argument(std::string(BNG_TARGET_NAME) + " has no " +
                              std::string(combo_name(c.combo)) + " kernel");
  return r;
}

Outputs decode(const Case& c, const RawOutputs& raw) {
  Outputs o;
  o.dx = decode_values(raw.dx, data_format(c.combo));
  o.dbias = decode_values(raw.dbias, stats_format(c.combo));
  o.dscale = decode_values(raw.dscale, stats_format(c.combo));
  return o;
}

std::string check_against_reference(const Case& c, const Outputs& out, const std::string& what) {
  const ref::Result want = ref::compute(c);
  const double alpha = declared_alpha(c.combo);
  std::ostringstream msg;
  int failures = 0;
  double worst_normalised = 0;
  const auto check = [&](const char* name, const std::vector<double>& got,
                         const std::vector<ref::Expected>& exp, Format f) {
    const bool rounded_once =
        opt::declares_correct_rounding(c.is_train != 0, std::string_view(name) == "dx");
    for (std::size_t i = 0; i < got.size(); ++i) {
      const Measure m = measure(got[i], exp[i], f, alpha, rounded_once);
      if (std::isfinite(m.normalised_error) && m.normalised_error > worst_normalised)
        worst_normalised = m.normalised_error;
      if (m.pass) continue;
      if (++failures > 5) continue;
      const long double tol = exp[i].ulp + static_cast<long double>(alpha) * exp[i].magnitude;
      char line[512];
      std::snprintf(line, sizeof line,
                    "  %s[%zu] (n=%lld c=%lld): kernel %s, reference %s exact %La, ulp err %.3g, "
                    "|y-y*| vs tolerance %La, M %La: %s\n",
                    name, i, static_cast<long long>(i / static_cast<std::size_t>(c.channel)),
                    static_cast<long long>(i % static_cast<std::size_t>(c.channel)),
                    show_value(got[i], f).c_str(), show_value(exp[i].rounded, f).c_str(),
                    exp[i].exact, m.ulp_error, tol, exp[i].magnitude, m.reason);
      msg << line;
    }
  };
  check("dx", out.dx, want.dx, data_format(c.combo));
  check("dbias", out.dbias, want.dbias, stats_format(c.combo));
  check("dscale", out.dscale, want.dscale, stats_format(c.combo));
  if (failures == 0) return "";
  std::ostringstream head;
  head << what << ": " << failures
       << " output(s) outside 1 ulp + alpha*M, or not RN(y*) where declared (alpha = " << alpha
       << "), combo " << combo_name(c.combo) << ", batch " << c.batch << ", channel " << c.channel
       << ", is_train " << c.is_train << "; first ones:\n";
  return head.str() + msg.str();
}

void expect_same_bits_within_alpha(const Case& c, const std::string& what) {
  const Encoded e = encode_case(c);
  const RawOutputs r3 = run_raw(e, 0x3);
  EXPECT_TRUE(run_raw(e, 0x0) == r3) << what << ": outputs differ between core masks 0 and 0x3";
  EXPECT_TRUE(run_raw(e, 0x3, InPlace::x) == r3) << what << ": dx == x differs";
  EXPECT_TRUE(run_raw(e, 0x3, InPlace::dy) == r3) << what << ": dx == dy differs";
  const std::string fail = check_against_reference(c, decode(c, r3), what);
  EXPECT_TRUE(fail.empty()) << fail;
}

}  // namespace bng::ktest
