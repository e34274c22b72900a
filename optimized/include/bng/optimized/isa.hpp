// The vector instruction set the kernels run on (library bng_isa_info, and
// inside each target library).
#pragma once

#include <string>
#include <vector>

namespace bng::opt {

// The paths the kernels are compiled for, best first, by the names BNG_ISA
// takes: "avx3" (AVX-512), "avx2" (AVX2+FMA+F16C), "portable" (plain x86-64:
// Highway's baseline target, SCALAR in Debian's Highway 1.0.3).
inline constexpr const char* kIsaPaths[] = {"avx3", "avx2", "portable"};

// Applies BNG_ISA once per process (the first call does; every kernel
// dispatch calls it): BNG_ISA=avx3|avx2|portable caps Highway's run-time
// target choice at that path (hwy::DisableTargets, so Highway itself picks
// the best remaining path the processor has). A path the processor lacks
// falls back to the best lower one; that, and a value that is no path name
// (then ignored), is reported once on stderr and by isa_note().
void select_isa();

// Highway's name of the path in use: "AVX3", "AVX2" or "SCALAR".
const char* isa_name();

// BNG_ISA's name of the path in use: "avx3", "avx2" or "portable".
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
