#include "bng/properties/reproducer.hpp"

#include <rapidcheck/detail/Configuration.h>

#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "bng/reference/rounding.hpp"

namespace bng::prop {
namespace {

void column(std::ostringstream& os, const char* name, const std::vector<double>& v, const Case& c,
            std::int64_t col, Format f) {
  os << "  " << name << "[:," << col << "] =";
  for (std::int64_t n = 0; n < c.batch; ++n) {
    os << (n % 4 == 0 ? "\n    " : "  ")
       << hex_value(v[static_cast<std::size_t>(n * c.channel + col)], f);
  }
  os << "\n";
}

void all(std::ostringstream& os, const char* name, const std::vector<double>& v, Format f) {
  os << "  " << name << " =";
  for (std::size_t i = 0; i < v.size(); ++i)
    os << (i % 4 == 0 ? "\n    " : "  ") << hex_value(v[i], f);
  os << "\n";
}

}  // namespace

std::string describe_case(const Case& c, const CallSpec& spec, std::int64_t focus_channel,
                          std::int64_t max_elements) {
  std::ostringstream os;
  os << describe(spec) << "  batch=" << c.batch << " channel=" << c.channel
     << " is_train=" << c.is_train << "\n";
  const Format df = data_format(c.combo), sf = stats_format(c.combo);
  if (c.elements() <= max_elements) {
    all(os, "x", c.x, df);
    all(os, "dy", c.dy, df);
    all(os, "mean", c.mean, sf);
    all(os, "invar", c.invar, sf);
    all(os, "scale", c.scale, sf);
    return os.str();
  }
  const std::int64_t col = focus_channel >= 0 && focus_channel < c.channel ? focus_channel : 0;
  os << "  (" << c.elements() << " elements: column " << col << " only)\n";
  if (c.batch <= 4 * max_elements) {
    column(os, "x", c.x, c, col, df);
    column(os, "dy", c.dy, c, col, df);
  }
  const auto k = static_cast<std::size_t>(col);
  os << "  mean[" << col << "] = " << hex_value(c.mean[k], sf) << "  invar[" << col
     << "] = " << hex_value(c.invar[k], sf) << "  scale[" << col
     << "] = " << hex_value(c.scale[k], sf) << "\n";
  return os.str();
}

std::string rc_params_line() {
  std::ostringstream os;
  os << "rerun with RC_PARAMS=\"seed=" << rc::detail::configuration().testParams.seed
     << "\" and the same --gtest_filter (inside a property RapidCheck also prints "
        "RC_PARAMS=\"reproduce=...\" "
        "for the shrunk case)";
  return os.str();
}

std::string reproducer(const Case& c, const CallSpec& spec, const std::string& reason,
                       std::int64_t focus_channel) {
  return reason + "\n" + describe_case(c, spec, focus_channel) + rc_params_line();
}

}  // namespace bng::prop

namespace bng {
void showValue(const Case& c, std::ostream& os) {
  // Described as a call of the first target that has the combo (any would do).
  const auto targets = prop::targets_with(c.combo);
  prop::CallSpec none{targets.empty() ? prop::Target{} : targets.front(), c.combo,
                      prop::Storage::private_, prop::Form::params, 0};
  os << "Case{" << combo_name(c.combo) << "} " << prop::describe_case(c, none, -1, 64);
}
}  // namespace bng
