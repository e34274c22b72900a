// What every exported C entry point does: turn its arguments into a Request,
// validate all of it, and only then hand the call to the target's compute
// function. The exports (optimized/exports.cpp) are one line each.
#pragma once

#include <optional>

#include "bng/optimized/compute.hpp"
#include "validate.hpp"

namespace bng::opt {

using ComputeFn = void (*)(const Args&);

// The seed's params form. `core_mask` is present for `_s`, absent for `_p`.
int enter_params(ComputeFn compute, ElementSizes sizes, const void* x, const void* dy, void* dx,
                 const long long* params, std::optional<int> core_mask);

// The vendor's flat form.
struct FlatCall {
  const void* x;
  const void* dy;
  const void* mean;
  const void* invar;
  const void* scale;
  int batch;
  int channel;
  int is_train;
  void* dx;
  void* dbias;
  void* dscale;
  std::optional<int> core_mask;
};
int enter_flat(ComputeFn compute, ElementSizes sizes, const FlatCall& call);

}  // namespace bng::opt
