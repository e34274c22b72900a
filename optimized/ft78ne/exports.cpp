// The C API of libbatchnormgrad_ft78ne: the fp_* entry points only (the
// target has fp32 arithmetic alone). exports.map keeps everything else local.
#include "batchnormgrad.h"
#include "bng/optimized/compute.hpp"
#include "entry.hpp"

namespace opt = bng::opt;

extern "C" {

int fp_batch_norm_grad_s(const float* x, const float* dy, float* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::ft78ne::compute_fp, opt::kFpSizes, x, dy, dx, params, core_mask);
}

int fp_batch_norm_grad_p(const float* x, const float* dy, float* dx, const long long* params) {
  return opt::enter_params(opt::ft78ne::compute_fp, opt::kFpSizes, x, dy, dx, params, std::nullopt);
}

int fp_batchnormgrad_s(const float* x, const float* dy, const float* mean, const float* invar,
                       const float* scale, int batch, int channel, int is_train, float* dx,
                       float* dbias, float* dscale, int core_mask) {
  return opt::enter_flat(
      opt::ft78ne::compute_fp, opt::kFpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, core_mask});
}

int fp_batchnormgrad_p(const float* x, const float* dy, const float* mean, const float* invar,
                       const float* scale, int batch, int channel, int is_train, float* dx,
                       float* dbias, float* dscale) {
  return opt::enter_flat(
      opt::ft78ne::compute_fp, opt::kFpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, std::nullopt});
}

}  // extern "C"
