// The Highway targets the kernels are compiled for, included before any
// Highway header in every kernel translation unit so that all of them (and
// the ISA report) agree. Built: AVX-512 (AVX3), AVX2 (+FMA+F16C) and the
// portable baseline (plain x86-64: EMU128, or SCALAR with g++ < 12.3).
// SSSE3/SSE4 and AVX3_DL would only add compile time: SSSE3/SSE4 machines
// take the portable path.
#pragma once

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4 | HWY_AVX3_DL)
#endif
