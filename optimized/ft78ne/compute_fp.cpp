#include "../scalar_kernel.hpp"

namespace bng::opt::ft78ne {
void compute_fp(const Args& a) {
  scalar::compute<scalar::F32, scalar::F32>(a);
}
}  // namespace bng::opt::ft78ne
