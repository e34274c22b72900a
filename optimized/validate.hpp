// The checks of SPEC §3, shared by every entry point of both targets. They
// only look at addresses and integers, never at tensor contents, so they cost
// the same for a 4 x 64 call as for a 2^24 x 4096 one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "bng/optimized/compute.hpp"

namespace bng::opt {

// Element sizes of a type combination (SPEC §1 Types): x, dy, dx are `data`;
// mean, invar, scale, dbias, dscale are `stats`. Sizes are also alignments.
struct ElementSizes {
  std::size_t data;
  std::size_t stats;
};
inline constexpr ElementSizes kFpSizes{4, 4};
inline constexpr ElementSizes kHpSizes{2, 2};
inline constexpr ElementSizes kMpSizes{2, 4};

// One call as the caller made it, whichever form (params or flat) it came in.
struct Request {
  std::uintptr_t x, dy, dx;
  std::uintptr_t mean, invar, scale, dbias, dscale;
  long long batch;
  long long channel;
  long long is_train;
  // The params form: the array's read slots are an input like any other, so
  // no output may overlap them. 0 for the flat form.
  std::uintptr_t params;
  // Present for `_s` entry points only.
  std::optional<int> core_mask;
  ElementSizes sizes;
};

// Returns BNG_OK and fills `*args`, or returns the error status and leaves
// `*args` alone. Reads nothing but `r`.
int validate(const Request& r, Args* args);

// The part of the checks on `params` itself that must pass before its slots
// may be read: non-null, aligned, and its read slots inside the address space.
int validate_params_array(const long long* params);

}  // namespace bng::opt
