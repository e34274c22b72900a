// FT78NE's kernels: fp only (the target has fp32 arithmetic alone), the
// generic driver and lane kernels instantiated with the target's model from
// the registry (bng/optimized/targets.inc). On this host build that is all
// that is per target; a port to the device puts its own kernels here
// (docs/targets.md).
#include "../batchnorm_driver.hpp"
#include "bng/optimized/targets.hpp"

namespace bng::opt::target {
namespace {
constexpr const TargetInfo& kInfo = target_info("ft78ne");
constexpr TargetModel kModel = target_model(kInfo);
}  // namespace

void compute_fp(const Args& a) {
  run_batchnorm<DataType::f32, StatsF32>(a, kModel);
}
}  // namespace bng::opt::target
