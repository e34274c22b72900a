#include "../batchnorm_driver.hpp"
#include "target.hpp"

namespace bng::opt::mt7004 {
void compute_fp(const Args& a) {
  run_batchnorm<DataType::f32, StatsF32>(a, kModel);
}
void compute_hp(const Args& a) {
  run_batchnorm<DataType::f16, StatsF16>(a, kModel);
}
void compute_mp(const Args& a) {
  run_batchnorm<DataType::f16, StatsF32>(a, kModel);
}
}  // namespace bng::opt::mt7004
