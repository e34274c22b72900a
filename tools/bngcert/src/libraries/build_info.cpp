// bngcert's own build, from the stamp cmake/build_stamp.cmake writes at every build.
#include "build_info.hpp"

#include "bng_build_stamp.h"

namespace bng::cert {
const BuildInfo& build_info() {
  static const BuildInfo info{BNG_STAMP_VERSION,  BNG_STAMP_COMMIT, BNG_STAMP_DIRTY != 0,
                              BNG_STAMP_COMPILER, BNG_STAMP_FLAGS,  BNG_STAMP_BUILD_TYPE};
  return info;
}
}  // namespace bng::cert
