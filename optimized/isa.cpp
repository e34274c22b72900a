// Which vector instruction set the kernels run on: Highway's run-time choice,
// capped by BNG_ISA through Highway's own hwy::DisableTargets.
#include "bng/optimized/isa.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "isa.cpp"
#include "hwy_targets.hpp"
// clang-format off
#include <hwy/foreach_target.h>
// clang-format on
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace bng::opt::HWY_NAMESPACE {
std::int64_t TargetHere() {
  return HWY_TARGET;
}
}  // namespace bng::opt::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bng::opt {
HWY_EXPORT(TargetHere);

namespace {

// Highway's target bit of each BNG_ISA path of this architecture
// (kIsaPaths' order), from the same registry lines.
#define BNG_ISA_PATH(arch, name, target) BNG_ISA_HERE(arch, target, )
constexpr std::int64_t kPathTargets[] = {
#include "bng/optimized/isa_paths.inc"
};
#undef BNG_ISA_PATH
constexpr std::size_t kPathCount = std::size(kIsaPaths);
static_assert(std::size(kPathTargets) == kPathCount);

std::size_t path_of(std::int64_t target) {
  for (std::size_t k = 0; k < kPathCount; ++k) {
    if (kPathTargets[k] == target) return k;
  }
  return kPathCount - 1;  // anything else Highway may run is the portable baseline
}

// The targets processor and build have, before BNG_ISA caps them (the first
// call comes before the cap: selection() makes it first).
std::int64_t uncapped_targets() {
  static const std::int64_t t = hwy::SupportedTargets() & HWY_TARGETS;
  return t;
}

struct Selection {
  std::string requested, note;
  std::int64_t target = 0;  // Highway's target in use
};

Selection apply_bng_isa() {
  uncapped_targets();
  Selection s;
  const char* v = std::getenv("BNG_ISA");
  std::size_t want = kPathCount;
  if (v != nullptr && *v != '\0') {
    s.requested = v;
    for (std::size_t k = 0; k < kPathCount; ++k) {
      if (std::strcmp(v, kIsaPaths[k]) == 0) want = k;
    }
    if (want == kPathCount) {
      s.note = "BNG_ISA=" + s.requested + " is not one of " + isa_path_list() + ": ignored";
    } else {
      hwy::DisableTargets(kPathTargets[want] - 1);
    }
  }
  s.target = HWY_DYNAMIC_DISPATCH(TargetHere)();
  if (want < kPathCount && path_of(s.target) != want) {
    s.note = "BNG_ISA=" + s.requested + ": this processor lacks that path; running " +
             kIsaPaths[path_of(s.target)] + ", the best it has below it";
  }
  if (!s.note.empty()) std::fprintf(stderr, "batchnormgrad: %s\n", s.note.c_str());
  return s;
}

const Selection& selection() {
  static const Selection s = apply_bng_isa();
  return s;
}

}  // namespace

std::string isa_path_list() {
  std::string out;
  for (const char* p : kIsaPaths) out += (out.empty() ? "" : ", ") + std::string(p);
  return out;
}

void select_isa() {
  selection();
}

const char* isa_name() {
  return hwy::TargetName(selection().target);
}

const char* isa_path() {
  return kIsaPaths[path_of(selection().target)];
}

const char* isa_dispatched_path() {
  select_isa();
  return kIsaPaths[path_of(HWY_DYNAMIC_DISPATCH(TargetHere)())];
}

const std::string& isa_requested() {
  return selection().requested;
}

const std::string& isa_note() {
  return selection().note;
}

long long isa_highway_target(const std::string& path) {
  for (std::size_t k = 0; k < kPathCount; ++k) {
    if (path == kIsaPaths[k]) return kPathTargets[k];
  }
  return 0;
}

std::vector<std::string> isa_supported_paths() {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < kPathCount; ++k) {
    if ((uncapped_targets() & kPathTargets[k]) != 0) out.emplace_back(kIsaPaths[k]);
  }
  return out;
}

}  // namespace bng::opt
#endif
