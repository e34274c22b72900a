// The Highway targets the kernels are compiled for, included before any
// Highway header in every kernel translation unit so that all of them (and
// the ISA report) agree: the paths of the ISA registry
// (bng/optimized/isa_paths.inc). On x86-64: AVX-512 (AVX3), AVX2 (+FMA+F16C)
// and the portable baseline (EMU128, or SCALAR with g++ < 12.3). On aarch64:
// NEON, SVE, SVE2, SVE_256, SVE2_128 and the same portable baseline.
// SSSE3/SSE4 and AVX3_DL would only add compile time: SSSE3/SSE4 machines
// take the portable path.
#pragma once

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4 | HWY_AVX3_DL)
#endif
// Every attainable target, the portable baseline included: by default
// Highway leaves out the targets worse than the compiler's baseline. On
// aarch64 that baseline is NEON, so the portable path (EMU128/SCALAR) would
// be dropped; on x86-64 the baseline is the portable path itself.
#ifndef HWY_COMPILE_ALL_ATTAINABLE
#define HWY_COMPILE_ALL_ATTAINABLE
#endif
