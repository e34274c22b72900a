// The library's build record: what built this binary, kept in the ELF
// section ".bng_build" as "key=value" lines, so that a certificate can name
// the build of the exact file it judged without a new exported symbol (SPEC
// §2 keeps the export list). bngcert reads it back from the file
// (tools/bngcert/src/libraries/library_identity.cpp); docs/certification.md shows the
// format. BNG_TARGET_NAME comes from optimized/CMakeLists.txt.
#include <array>
#include <cstddef>
#include <cstdint>

#include "bng/optimized/isa.hpp"
#include "bng_build_stamp.h"
#include "hwy_targets.hpp"
// clang-format off
#include <hwy/detect_targets.h>
// clang-format on

#define BNG_STRINGIFY_VALUE(x) #x
#define BNG_STRINGIFY(x) BNG_STRINGIFY_VALUE(x)

namespace bng::opt {
namespace {

// The record's text, built at compile time: the stamp's lines, then the
// architecture and the BNG_ISA paths compiled in (the ISA registry's paths of
// this architecture whose Highway target is in HWY_TARGETS), best first.
struct RecordText {
  std::array<char, 4096> c{};
  std::size_t n = 0;
  constexpr void add(const char* s) {
    while (*s != '\0') c[n++] = *s++;
  }
};

constexpr RecordText record_text() {
  RecordText t;
  t.add("bng-build-record 1\n"
        "target=" BNG_TARGET_NAME "\n"
        "version=" BNG_STAMP_VERSION "\n"
        "commit=" BNG_STAMP_COMMIT "\n"
        "dirty=" BNG_STRINGIFY(BNG_STAMP_DIRTY) "\n"
        "compiler=" BNG_STAMP_COMPILER "\n"
        "flags=" BNG_STAMP_FLAGS "\n"
        "build_type=" BNG_STAMP_BUILD_TYPE "\n"
        "architecture=");
  t.add(kArchitecture);
  t.add("\nisa_paths=");
  struct Compiled {
    const char* name;
    std::int64_t target;
  };
#define BNG_ISA_PATH(arch, name, target) BNG_ISA_HERE(arch, Compiled{#name, target}, )
  constexpr Compiled paths[] = {
#include "bng/optimized/isa_paths.inc"
  };
#undef BNG_ISA_PATH
  for (const Compiled& p : paths) {
    if ((HWY_TARGETS & p.target) == 0) continue;
    t.add(" ");
    t.add(p.name);
  }
  t.add("\n");
  return t;
}

constexpr RecordText kText = record_text();
static_assert(kText.n < kText.c.size(), "the build record outgrew its buffer");

constexpr std::array<char, kText.n + 1> record_bytes() {
  std::array<char, kText.n + 1> out{};
  for (std::size_t k = 0; k < kText.n; ++k) out[k] = kText.c[k];
  return out;
}

}  // namespace

// `used`: kept although the program never reads it; in a section of its own,
// so that it is found by name in the file. NUL-terminated, as the reader expects.
[[gnu::used, gnu::section(".bng_build")]] constinit const std::array<char, kText.n + 1>
    kBuildRecord = record_bytes();
}  // namespace bng::opt
