// What built this tool (and, from the same tree and flags, the kernels it
// certifies): stamped at build time by tools/bngcert/build_info.cmake.
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
