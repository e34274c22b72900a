#include "../batchnorm_driver.hpp"
#include "target.hpp"

namespace bng::opt::ft78ne {
void compute_fp(const Args& a) {
  run_batchnorm<DataType::f32, StatsF32>(a, kModel);
}
}  // namespace bng::opt::ft78ne
