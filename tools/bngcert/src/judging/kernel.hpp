// What the tool judges: a kernel is one target's implementation of one type
// combination (SPEC §1), with the α it declares; each has three outputs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bng/properties/target.hpp"
#include "bng/reference/case.hpp"

namespace bng::cert {

struct Kernel {
  prop::Target target{};
  Combo combo = Combo::fp;
  double alpha = 0;  // the declared α (prop::declared_alpha), or what `check --alpha` gives
  std::string name() const;  // "<target>/<combo>", e.g. "mt7004/hp"
};

enum class Output : std::uint8_t { dx, dbias, dscale };
inline constexpr std::array<Output, 3> kOutputs = {Output::dx, Output::dbias, Output::dscale};
std::string_view output_name(Output o);  // "dx", "dbias", "dscale"
// dx is in the data format, the parameter gradients in the statistics format.
Format output_format(Combo c, Output o);

std::string_view mode_name(int is_train);  // "training", "inference"

// Whether k is judged at its declared α (prop::declared_alpha): what a
// release verdict needs, and what the kernel's declared correct rounding
// applies at.
bool judged_at_declared_alpha(const Kernel& k);

// Whether output o of a call with is_train is judged by equality with RN(y*):
// the kernel is judged at its declared α and declares correct rounding for
// that output (SPEC §5; prop::declares_correct_rounding). An investigator's
// other --alpha judges by α alone.
bool judged_correctly_rounded(const Kernel& k, int is_train, Output o);
// Those outputs, as "<mode> <output>" ("inference dx"), for reports and certificates.
std::vector<std::string> correctly_rounded_outputs(const Kernel& k);
// Whether `name` is such a "<mode> <output>" of some call (for reading them back).
bool names_output_class(std::string_view name);

// "0x1p-40": exact, as the declared α is a power of two or a short binary fraction.
std::string hex_double(double v);

}  // namespace bng::cert
