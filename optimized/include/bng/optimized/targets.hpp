// The targets, as C++ sees the registry (targets.inc): kTargets, one
// TargetInfo per target in the registry's order, and lookups by name. Every
// C++ user of "which targets exist" iterates kTargets; none names a target.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "bng/optimized/alpha.hpp"

namespace bng::opt {

// The kernels a target may have, in the order of bng::Combo (the reference's
// enum; the kernels do not depend on the reference): fp, hp, mp.
inline constexpr std::size_t kKernelKinds = 3;
inline constexpr std::array<std::string_view, kKernelKinds> kKernelPrefixes = {"fp", "hp", "mp"};

struct TargetInfo {
  std::string_view name;
  int cores;                               // core_mask bits (SPEC §2)
  int vector_lanes;                        // binary32 lanes of the vector unit
  std::int64_t local_memory;               // bytes per core
  std::array<double, kKernelKinds> alpha;  // per kernel (fp, hp, mp); kNoKernel: none

  constexpr bool has_kernel(std::size_t kind) const { return alpha[kind] != kNoKernel; }
};

inline constexpr std::array kTargets = {
#define BNG_TARGET(name, cores, lanes, memory, fp, hp, mp) \
  TargetInfo{#name, cores, lanes, memory, {fp, hp, mp}},
#include "bng/optimized/targets.inc"
#undef BNG_TARGET
};

inline constexpr std::size_t kTargetCount = kTargets.size();

// The index of the target called `name` in kTargets, if there is one.
constexpr std::optional<std::size_t> target_index(std::string_view name) {
  for (std::size_t i = 0; i < kTargets.size(); ++i) {
    if (kTargets[i].name == name) return i;
  }
  return std::nullopt;
}

// The target called `name`; in a constant expression, an unknown name does
// not compile.
constexpr const TargetInfo& target_info(std::string_view name) {
  const auto i = target_index(name);
  if (!i) throw std::invalid_argument("no target of that name in the registry");
  return kTargets[*i];
}

// What the registry may say, checked where it is compiled.
constexpr bool registry_is_valid() {
  for (std::size_t i = 0; i < kTargets.size(); ++i) {
    const TargetInfo& t = kTargets[i];
    if (t.name.empty() || t.cores < 1 || t.cores > 8 || t.vector_lanes < 1 || t.local_memory < 1)
      return false;
    for (std::size_t j = 0; j < i; ++j) {
      if (kTargets[j].name == t.name) return false;
    }
    bool any = false;
    for (std::size_t k = 0; k < kKernelKinds; ++k) {
      if (!t.has_kernel(k)) continue;
      any = true;
      // Never tighter than what proofs/ proves for the kernel's arithmetic.
      const double proven = k == 0 ? kAlphaBinary64 : kAlphaBinary16Data;
      if (!(t.alpha[k] >= proven)) return false;
    }
    if (!any) return false;
  }
  return !kTargets.empty();
}
static_assert(registry_is_valid(),
              "targets.inc: unique names, 1..8 cores, an alpha no tighter than proven, a kernel");

}  // namespace bng::opt
