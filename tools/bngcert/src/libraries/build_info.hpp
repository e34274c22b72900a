// What built this tool: stamped at build time by cmake/build_stamp.cmake.
// The libraries it judges carry their own record (library_identity.hpp).
#pragma once

#include <string_view>

namespace bng::cert {

struct BuildInfo {
  std::string_view library_version;  // the project's version (CMake project())
  std::string_view git_commit;       // "unknown" outside a git checkout
  bool git_dirty;                    // tracked files differ from the commit
  std::string_view compiler;         // id and version
  std::string_view cxx_flags;        // CMAKE_CXX_FLAGS + the build type's flags + warnings
  std::string_view build_type;
};

const BuildInfo& build_info();

}  // namespace bng::cert
