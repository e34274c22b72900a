#include "params.hpp"

#include "batchnormgrad.h"

namespace bng::opt {

static_assert(BNG_PARAM_MEAN < kParamsSlotsRead && BNG_PARAM_INVAR < kParamsSlotsRead &&
                  BNG_PARAM_SCALE < kParamsSlotsRead && BNG_PARAM_DBIAS < kParamsSlotsRead &&
                  BNG_PARAM_DSCALE < kParamsSlotsRead && BNG_PARAM_BATCH < kParamsSlotsRead &&
                  BNG_PARAM_CHANNEL < kParamsSlotsRead && BNG_PARAM_IS_TRAIN < kParamsSlotsRead,
              "every slot decoded must lie in the range validation treats as read");

namespace {
// The seed stores a pointer as `(long long)p`; the round trip through
// uintptr_t is the implementation-defined conversion back that every
// compiler for these targets defines as the identity.
std::uintptr_t address_in(long long slot) {
  return static_cast<std::uintptr_t>(slot);
}
}  // namespace

RawParams decode_params(const long long* params) {
  return RawParams{
      .mean = address_in(params[BNG_PARAM_MEAN]),
      .invar = address_in(params[BNG_PARAM_INVAR]),
      .scale = address_in(params[BNG_PARAM_SCALE]),
      .dbias = address_in(params[BNG_PARAM_DBIAS]),
      .dscale = address_in(params[BNG_PARAM_DSCALE]),
      .batch = params[BNG_PARAM_BATCH],
      .channel = params[BNG_PARAM_CHANNEL],
      .is_train = params[BNG_PARAM_IS_TRAIN],
  };
}

}  // namespace bng::opt
