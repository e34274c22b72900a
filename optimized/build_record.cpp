// The library's build record: what built this binary, kept in the ELF
// section ".bng_build" as "key=value" lines, so that a certificate can name
// the build of the exact file it judged without a new exported symbol (SPEC
// §2 keeps the export list). bngcert reads it back from the file
// (tools/bngcert/src/libraries/library_identity.cpp); docs/certification.md shows the
// format. BNG_TARGET_NAME comes from optimized/CMakeLists.txt.
#include "bng_build_stamp.h"
#include "hwy_targets.hpp"
// clang-format off
#include <hwy/detect_targets.h>
// clang-format on

// The BNG_ISA paths compiled in (bng/optimized/isa.hpp's names), best first.
#if (HWY_TARGETS & HWY_AVX3) != 0
#define BNG_RECORD_AVX3 " avx3"
#else
#define BNG_RECORD_AVX3 ""
#endif
#if (HWY_TARGETS & HWY_AVX2) != 0
#define BNG_RECORD_AVX2 " avx2"
#else
#define BNG_RECORD_AVX2 ""
#endif
// The portable path is Highway's baseline target, always compiled.
#define BNG_RECORD_PORTABLE " portable"

#define BNG_STRINGIFY_VALUE(x) #x
#define BNG_STRINGIFY(x) BNG_STRINGIFY_VALUE(x)

namespace bng::opt {
// `used`: kept although the program never reads it; in a section of its own,
// so that it is found by name in the file.
// clang-format off
[[gnu::used, gnu::section(".bng_build")]] static const char kBuildRecord[] =
    "bng-build-record 1\n"
    "target=" BNG_TARGET_NAME "\n"
    "version=" BNG_STAMP_VERSION "\n"
    "commit=" BNG_STAMP_COMMIT "\n"
    "dirty=" BNG_STRINGIFY(BNG_STAMP_DIRTY) "\n"
    "compiler=" BNG_STAMP_COMPILER "\n"
    "flags=" BNG_STAMP_FLAGS "\n"
    "build_type=" BNG_STAMP_BUILD_TYPE "\n"
    "isa_paths=" BNG_RECORD_AVX3 BNG_RECORD_AVX2 BNG_RECORD_PORTABLE "\n";
// clang-format on
}  // namespace bng::opt
