#include "entry.hpp"

#include <cstdint>

#include "batchnormgrad.h"
#include "params.hpp"

namespace bng::opt {

namespace {

std::uintptr_t address(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p);
}

int run(ComputeFn compute, const Request& request) {
  Args args{};
  if (int status = validate(request, &args); status != BNG_OK) return status;
  compute(args);
  return BNG_OK;
}

}  // namespace

int enter_params(ComputeFn compute, ElementSizes sizes, const void* x, const void* dy, void* dx,
                 const long long* params, std::optional<int> core_mask) {
  if (int status = validate_params_array(params); status != BNG_OK) return status;
  const RawParams p = decode_params(params);
  return run(compute, Request{
                          .x = address(x),
                          .dy = address(dy),
                          .dx = address(dx),
                          .mean = p.mean,
                          .invar = p.invar,
                          .scale = p.scale,
                          .dbias = p.dbias,
                          .dscale = p.dscale,
                          .batch = p.batch,
                          .channel = p.channel,
                          .is_train = p.is_train,
                          .params = address(params),
                          .core_mask = core_mask,
                          .sizes = sizes,
                      });
}

int enter_flat(ComputeFn compute, ElementSizes sizes, const FlatCall& call) {
  return run(compute, Request{
                          .x = address(call.x),
                          .dy = address(call.dy),
                          .dx = address(call.dx),
                          .mean = address(call.mean),
                          .invar = address(call.invar),
                          .scale = address(call.scale),
                          .dbias = address(call.dbias),
                          .dscale = address(call.dscale),
                          .batch = call.batch,
                          .channel = call.channel,
                          .is_train = call.is_train,
                          .params = 0,
                          .core_mask = call.core_mask,
                          .sizes = sizes,
                      });
}

}  // namespace bng::opt
