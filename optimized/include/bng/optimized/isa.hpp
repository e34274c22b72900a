// The vector instruction set the kernels run on (library bng_isa_info, and
// inside each target library).
#pragma once

namespace bng::opt {

// Highway's name of the path in use: "AVX3" (AVX-512), "AVX2" (AVX2+FMA+F16C)
// or "EMU128" (portable x86-64). Chosen once per process from the processor,
// unless the environment variable BNG_ISA=portable forces the portable path.
const char* isa_name();

// True when BNG_ISA=portable was set when the process first asked.
bool isa_forced_portable();

}  // namespace bng::opt
