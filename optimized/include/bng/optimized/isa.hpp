// The vector instruction set the kernels run on (library bng_isa_info, and
// inside each target library).
#pragma once

#include <string>
#include <vector>

namespace bng::opt {

// The architecture this build is for, as the ISA path registry
// (isa_paths.inc) and the build record name it.
#if defined(__x86_64__)
#define BNG_ISA_ARCHITECTURE x86_64
#elif defined(__aarch64__)
#define BNG_ISA_ARCHITECTURE aarch64
#else
#error "bng/optimized/isa.hpp: an architecture without ISA paths in isa_paths.inc"
#endif
// BNG_ISA_HERE(architecture, ...): the tokens after the architecture where
// it is this build's (or "any"), nothing elsewhere; for reading the
// registry's lines of this architecture.
#define BNG_ISA_HERE(arch, ...) BNG_ISA_HERE_##arch(__VA_ARGS__)
#define BNG_ISA_HERE_any(...) __VA_ARGS__
#if defined(__x86_64__)
#define BNG_ISA_HERE_x86_64(...) __VA_ARGS__
#define BNG_ISA_HERE_aarch64(...)
#else
#define BNG_ISA_HERE_x86_64(...)
#define BNG_ISA_HERE_aarch64(...) __VA_ARGS__
#endif
#define BNG_ISA_STRINGIFY_VALUE(x) #x
#define BNG_ISA_STRINGIFY(x) BNG_ISA_STRINGIFY_VALUE(x)
inline constexpr const char* kArchitecture = BNG_ISA_STRINGIFY(BNG_ISA_ARCHITECTURE);

// The paths of this architecture, best first, by the names BNG_ISA takes:
// on x86-64 "avx3", "avx2", "portable"; on aarch64 "sve2_128", "sve_256",
// "sve2", "sve", "neon", "portable".
#define BNG_ISA_PATH(arch, name, target) BNG_ISA_HERE(arch, #name, )
inline constexpr const char* kIsaPaths[] = {
#include "bng/optimized/isa_paths.inc"
};
#undef BNG_ISA_PATH

// "avx3, avx2, portable": kIsaPaths for messages.
std::string isa_path_list();

// Applies BNG_ISA once per process (the first call does; every kernel
// dispatch calls it): BNG_ISA=<a path of kIsaPaths> caps Highway's run-time
// target choice at that path (hwy::DisableTargets, so Highway itself picks
// the best remaining path the processor has). A path the processor lacks
// falls back to the best lower one; that, and a value that is no path name
// (then ignored), is reported once on stderr and by isa_note().
void select_isa();

// Highway's name of the path in use: "AVX3", "AVX2", "NEON", "SCALAR", ...
const char* isa_name();

// BNG_ISA's name of the path in use (one of kIsaPaths).
const char* isa_path();

// The path the next kernel call dispatches to, asked of Highway now: the
// same as isa_path() unless a test switched Highway's targets since.
const char* isa_dispatched_path();

// What BNG_ISA asked for ("" when unset) and, when the path in use is not
// that, why: empty when nothing needs saying.
const std::string& isa_requested();
const std::string& isa_note();

// Highway's target bit (HWY_AVX3, ...) of a path named in kIsaPaths; 0 for
// any other name. For tests that switch paths as Highway's own tests do.
long long isa_highway_target(const std::string& path);

// The BNG_ISA paths this processor (and this build) supports, best first,
// whatever BNG_ISA says. Does not apply BNG_ISA: a tool may still set it.
std::vector<std::string> isa_supported_paths();

}  // namespace bng::opt
