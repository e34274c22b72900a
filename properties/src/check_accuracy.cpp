// SPEC §5: every output within 1·ulp(y*) + α·M of the exact reference, and
// RN(y*) itself where the kernel declares correct rounding.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "bng/properties/checks.hpp"
#include "bng/properties/reproducer.hpp"
#include "bng/reference/error_measure.hpp"

namespace bng::prop {
namespace {

// The runner's pre-call fill (all-ones bits): no arithmetic produces it.
bool sentinel(std::uint32_t bits, Format f) {
  return bits == (f == Format::binary32 ? 0xFFFFFFFFu : 0xFFFFu);
}

const char* kind_name(ref::Kind k) {
  switch (k) {
    case ref::Kind::finite:
      return "finite";
    case ref::Kind::nonfinite:
      return "non-finite";
    case ref::Kind::nan:
      return "NaN";
  }
  return "?";
}

struct Judge {
  double alpha;
  bool nan_inputs;
  std::ostringstream os;
  int failures = 0;
  std::int64_t first_channel = -1;

  // rounded_once: the kernel declares correct rounding for this output.
  void output(const char* name, std::int64_t n, std::int64_t c, std::uint32_t bits, double y,
              const ref::Expected& e, Format f, bool rounded_once) {
    // With a NaN among the inputs the kernel may legitimately return the
    // sentinel's bits (a propagated payload): then only the NaN rule judges.
    const bool unwritten = sentinel(bits, f) && !nan_inputs;
    const Measure m = measure(y, e, f, alpha, rounded_once);
    if (m.pass && !unwritten) return;
    if (failures == 0) first_channel = c;
    if (++failures > 4) return;  // the first few say enough; the count says the rest
    char line[512];
    std::snprintf(line, sizeof line,
                  "  %s[n=%lld,c=%lld]: got %s, expected %s (%s), exact %La, M %La, ulp %a; "
                  "ulp error %.3g, normalised error %.3g, kappa %.3g: %s\n",
                  name, static_cast<long long>(n), static_cast<long long>(c),
                  hex_bits(bits, f).c_str(), hex_value(e.rounded, f).c_str(), kind_name(e.kind),
                  e.exact, e.magnitude, e.ulp, m.ulp_error, m.normalised_error, m.kappa,
                  unwritten ? "output never written" : m.reason);
    os << line;
  }
};

}  // namespace

std::string check_accuracy(const Case& c, const CallSpec& spec, const ref::Result& expected,
                           const RunResult& got, double alpha) {
  if (alpha > declared_alpha(spec.target, spec.combo)) {
    throw std::invalid_argument("check_accuracy: alpha looser than the kernel's declared one");
  }
  if (got.status != 0) {
    return reproducer(
        c, spec,
        "valid call returned status " + std::to_string(got.status) + ", expected 0 (BNG_OK)");
  }
  if (got.clobbered) return reproducer(c, spec, "the call wrote outside dx, dbias and dscale");
  auto has_nan = [](const std::vector<double>& v) {
    return std::any_of(v.begin(), v.end(), [](double d) { return std::isnan(d); });
  };
  const bool nan_inputs =
      has_nan(c.x) || has_nan(c.dy) || has_nan(c.mean) || has_nan(c.invar) || has_nan(c.scale);
  Judge j{alpha, nan_inputs, {}, 0, -1};
  const bool dx_rounded_once =
      declares_correct_rounding(spec.target, spec.combo, c.is_train, /*dx=*/true);
  const bool stats_rounded_once =
      declares_correct_rounding(spec.target, spec.combo, c.is_train, /*dx=*/false);
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t k = 0; k < c.channel; ++k) {
      const auto i = static_cast<std::size_t>(n * c.channel + k);
      j.output("dx", n, k, got.dx_bits[i], got.values.dx[i], expected.dx[i], df, dx_rounded_once);
    }
  }
  for (std::int64_t k = 0; k < c.channel; ++k) {
    const auto i = static_cast<std::size_t>(k);
    j.output("dbias", 0, k, got.dbias_bits[i], got.values.dbias[i], expected.dbias[i], sf,
             stats_rounded_once);
    j.output("dscale", 0, k, got.dscale_bits[i], got.values.dscale[i], expected.dscale[i], sf,
             stats_rounded_once);
  }
  if (j.failures == 0) return {};
  char head[160];
  std::snprintf(head, sizeof head,
                "%d output(s) outside 1 ulp + alpha*M, alpha = %a (declared), or not RN(y*) "
                "where the kernel declares correct rounding:\n",
                j.failures, alpha);
  return reproducer(c, spec, head + j.os.str(), j.first_channel);
}

std::string check_accuracy(const Case& c, const CallSpec& spec) {
  const ref::Result expected = ref::compute(c);
  return check_accuracy(c, spec, expected, run(c, spec), declared_alpha(spec.target, spec.combo));
}

}  // namespace bng::prop
