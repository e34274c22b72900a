#include "kernel.hpp"

#include <fmt/format.h>

namespace bng::cert {

std::string Kernel::name() const {
  return fmt::format("{}/{}", prop::target_name(target), combo_name(combo));
}

std::string_view output_name(Output o) {
  switch (o) {
    case Output::dx:
      return "dx";
    case Output::dbias:
      return "dbias";
    case Output::dscale:
      return "dscale";
  }
  return "?";
}

Format output_format(Combo c, Output o) {
  return o == Output::dx ? data_format(c) : stats_format(c);
}

std::string_view mode_name(int is_train) {
  return is_train ? "training" : "inference";
}

std::string hex_double(double v) {
  return fmt::format("{:a}", v);
}

}  // namespace bng::cert
