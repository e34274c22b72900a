// The C API of libbatchnormgrad_<target>: the entry points of the kernels the
// target has in the registry (bng/optimized/targets.inc), each one line into
// enter_params/enter_flat with the target's compute function
// (optimized/<target>/compute.cpp). Compiled once per target; CMake
// (bng_target_definitions) sets BNG_TARGET_NAME and BNG_TARGET_HAS_FP/HP/MP
// from its own reading of the registry, checked against C++'s below. The
// generated version script keeps everything else local.
#include "batchnormgrad.h"
#include "bng/optimized/compute.hpp"
#include "bng/optimized/targets.hpp"
#include "entry.hpp"

namespace opt = bng::opt;

namespace {
constexpr const opt::TargetInfo& kThis = opt::target_info(BNG_TARGET_NAME);
static_assert(kThis.has_kernel(0) == (BNG_TARGET_HAS_FP != 0) &&
                  kThis.has_kernel(1) == (BNG_TARGET_HAS_HP != 0) &&
                  kThis.has_kernel(2) == (BNG_TARGET_HAS_MP != 0),
              "cmake/BngTargets.cmake and targets.hpp read the registry differently");
}  // namespace

extern "C" {

#if BNG_TARGET_HAS_FP
// ---- fp32 ----

int fp_batch_norm_grad_s(const float* x, const float* dy, float* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::target::compute_fp, opt::kFpSizes, x, dy, dx, params, core_mask);
}

int fp_batch_norm_grad_p(const float* x, const float* dy, float* dx, const long long* params) {
  return opt::enter_params(opt::target::compute_fp, opt::kFpSizes, x, dy, dx, params, std::nullopt);
}

int fp_batchnormgrad_s(const float* x, const float* dy, const float* mean, const float* invar,
                       const float* scale, int batch, int channel, int is_train, float* dx,
                       float* dbias, float* dscale, int core_mask) {
  return opt::enter_flat(
      opt::target::compute_fp, opt::kFpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, core_mask});
}

int fp_batchnormgrad_p(const float* x, const float* dy, const float* mean, const float* invar,
                       const float* scale, int batch, int channel, int is_train, float* dx,
                       float* dbias, float* dscale) {
  return opt::enter_flat(
      opt::target::compute_fp, opt::kFpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, std::nullopt});
}
#endif  // BNG_TARGET_HAS_FP

#if BNG_TARGET_HAS_HP
// ---- fp16: everything half ----

int hp_batch_norm_grad_s(const half* x, const half* dy, half* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::target::compute_hp, opt::kHpSizes, x, dy, dx, params, core_mask);
}

int hp_batch_norm_grad_p(const half* x, const half* dy, half* dx, const long long* params) {
  return opt::enter_params(opt::target::compute_hp, opt::kHpSizes, x, dy, dx, params, std::nullopt);
}

int hp_batchnormgrad_s(const half* x, const half* dy, const half* mean, const half* invar,
                       const half* scale, int batch, int channel, int is_train, half* dx,
                       half* dbias, half* dscale, int core_mask) {
  return opt::enter_flat(
      opt::target::compute_hp, opt::kHpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, core_mask});
}

int hp_batchnormgrad_p(const half* x, const half* dy, const half* mean, const half* invar,
                       const half* scale, int batch, int channel, int is_train, half* dx,
                       half* dbias, half* dscale) {
  return opt::enter_flat(
      opt::target::compute_hp, opt::kHpSizes,
      {x, dy, mean, invar, scale, batch, channel, is_train, dx, dbias, dscale, std::nullopt});
}
#endif  // BNG_TARGET_HAS_HP

#if BNG_TARGET_HAS_MP
// ---- mixed: half data, float statistics and parameter gradients (params form only) ----

int mp_batch_norm_grad_s(const half* x, const half* dy, half* dx, const long long* params,
                         int core_mask) {
  return opt::enter_params(opt::target::compute_mp, opt::kMpSizes, x, dy, dx, params, core_mask);
}

int mp_batch_norm_grad_p(const half* x, const half* dy, half* dx, const long long* params) {
  return opt::enter_params(opt::target::compute_mp, opt::kMpSizes, x, dy, dx, params, std::nullopt);
}
#endif  // BNG_TARGET_HAS_MP

}  // extern "C"
