#include "../scalar_kernel.hpp"

namespace bng::opt::mt7004 {
void compute_fp(const Args& a) {
  scalar::compute<scalar::F32, scalar::F32>(a);
}
void compute_hp(const Args& a) {
  scalar::compute<scalar::F16, scalar::F16>(a);
}
void compute_mp(const Args& a) {
  scalar::compute<scalar::F16, scalar::F32>(a);
}
}  // namespace bng::opt::mt7004
