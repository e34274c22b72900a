// The C API of libbatchnormgrad_mt7004: fp_*, hp_* and mp_* (the target has
// fp16 and fp32 arithmetic). exports.map keeps everything else local.
#include "batchnormgrad.h"
#include "bng/optimized/compute.hpp"
#include "entry.hpp"

namespace opt = bng::opt;

extern "C" {

// ---- fp32 ----

int fp_batch_norm_grad_s(const float* x, const float* dy, float* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::mt7004::compute_fp, opt::kFpSizes, x, dy, dx, params, core_mask);
}

int fp_batch_norm_grad_p(const float* x, const float* dy, float* dx, const long long* params) {
  return opt::enter_params(opt::mt7004::compute_fp, opt::kFpSizes, x, dy, dx, params, std::nullopt);
}

int fp_batchnormgrad_s(const float* x, const float* dy, const float* mean, const float* invar,
                       const float* scale, int batch, int channel, int is_train, float* dx,
                       float* dbias, float* dscale, int core_mask) {
  return opt::enter_flat(
      opt::mt7004::compute_fp, opt::kFpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, core_mask});
}

int fp_batchnormgrad_p(const float* x, const float* dy, const float* mean, const float* invar,
                       const float* scale, int batch, int channel, int is_train, float* dx,
                       float* dbias, float* dscale) {
  return opt::enter_flat(
      opt::mt7004::compute_fp, opt::kFpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, std::nullopt});
}

// ---- fp16: everything half ----

int hp_batch_norm_grad_s(const half* x, const half* dy, half* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::mt7004::compute_hp, opt::kHpSizes, x, dy, dx, params, core_mask);
}

int hp_batch_norm_grad_p(const half* x, const half* dy, half* dx, const long long* params) {
  return opt::enter_params(opt::mt7004::compute_hp, opt::kHpSizes, x, dy, dx, params, std::nullopt);
}

int hp_batchnormgrad_s(const half* x, const half* dy, const half* mean, const half* invar,
                       const half* scale, int batch, int channel, int is_train, half* dx,
                       half* dbias, half* dscale, int core_mask) {
  return opt::enter_flat(
      opt::mt7004::compute_hp, opt::kHpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, core_mask});
}

int hp_batchnormgrad_p(const half* x, const half* dy, const half* mean, const half* invar,
                       const half* scale, int batch, int channel, int is_train, half* dx,
                       half* dbias, half* dscale) {
  return opt::enter_flat(
      opt::mt7004::compute_hp, opt::kHpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, std::nullopt});
}

// ---- mixed: half data, float statistics and parameter gradients ----

int mp_batch_norm_grad_s(const half* x, const half* dy, half* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::mt7004::compute_mp, opt::kMpSizes, x, dy, dx, params, core_mask);
}

int mp_batch_norm_grad_p(const half* x, const half* dy, half* dx, const long long* params) {
  return opt::enter_params(opt::mt7004::compute_mp, opt::kMpSizes, x, dy, dx, params, std::nullopt);
}

}  // extern "C"
