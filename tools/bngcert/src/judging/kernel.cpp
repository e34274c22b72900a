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

bool judged_at_declared_alpha(const Kernel& k) {
  return k.alpha == prop::declared_alpha(k.target, k.combo);
}

bool judged_correctly_rounded(const Kernel& k, int is_train, Output o) {
  return judged_at_declared_alpha(k) &&
         prop::declares_correct_rounding(k.target, k.combo, is_train, o == Output::dx);
}

namespace {

std::string output_class(int is_train, Output o) {
  return fmt::format("{} {}", mode_name(is_train), output_name(o));
}

}  // namespace

std::vector<std::string> correctly_rounded_outputs(const Kernel& k) {
  std::vector<std::string> out;
  for (const int is_train : {0, 1}) {
    for (const Output o : kOutputs) {
      if (judged_correctly_rounded(k, is_train, o)) {
        out.push_back(output_class(is_train, o));
      }
    }
  }
  return out;
}

bool names_output_class(std::string_view name) {
  for (const int is_train : {0, 1}) {
    for (const Output o : kOutputs) {
      if (name == output_class(is_train, o)) return true;
    }
  }
  return false;
}

std::string hex_double(double v) {
  return fmt::format("{:a}", v);
}

}  // namespace bng::cert
