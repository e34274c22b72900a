// Which vector instruction set the kernels run on: Highway's run-time choice,
// or its portable baseline when BNG_ISA=portable (read once per process).
#include "bng/optimized/isa.hpp"

#include <cstdlib>
#include <cstring>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "isa.cpp"
#include "hwy_targets.hpp"
// clang-format off
#include <hwy/foreach_target.h>
// clang-format on
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {
const char* TargetNameHere() {
  return hwy::TargetName(HWY_TARGET);
}
}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bng::opt {
HWY_EXPORT(TargetNameHere);

bool isa_forced_portable() {
  static const bool forced = [] {
    const char* v = std::getenv("BNG_ISA");
    return v != nullptr && std::strcmp(v, "portable") == 0;
  }();
  return forced;
}

const char* isa_name() {
  if (isa_forced_portable()) return HWY_STATIC_DISPATCH(TargetNameHere)();
  return HWY_DYNAMIC_DISPATCH(TargetNameHere)();
}
}  // namespace bng::opt
#endif
