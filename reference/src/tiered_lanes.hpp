// The tiered dx loop's quick tier four outputs at a time (x86 with AVX2 and
// FMA): the double-word evaluation of tiered.cpp and the quick rounding test
// of quick_rounding_test.hpp, the same operations in the same order on four
// channels of one row, so that every output it decides has the bits the
// scalar loop gives it. What it does not decide (a lane outside the quick
// test's reach, or whose interval holds a rounding boundary) is left to the
// scalar loop, which takes it through every tier.
#pragma once

#include <cstdint>

#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"

namespace bng::ref {

inline constexpr int kLanes = 4;

// The per-channel constants of four channels (tiered.cpp's DxChannel), one
// array entry a lane.
struct DxLanes {
  double a_hi[kLanes], a_lo[kLanes];          // S1/m
  double b_hi[kLanes], b_lo[kLanes];          // invar^2 * S2/m
  double a_abs_hi[kLanes], a_abs_lo[kLanes];  // S1abs/m
  double b_abs_hi[kLanes], b_abs_lo[kLanes];  // invar^2 * S2abs/m
  double sv[kLanes], sv_abs[kLanes], mean[kLanes], underflow[kLanes];
};

// Training dx of the four channels from x[0..3] and dy[0..3] into e[0..3]:
// returns a bit a lane for the outputs decided (their Expected written in
// full), the others untouched. Only where tiered_uses_lanes() (reference.hpp).
unsigned training_dx_lanes(const DxLanes& k, const double* x, const double* dy,
                           const FormatTraits& out, Expected* e);

// Inference dx = sv * dy of the four channels, the same way.
unsigned inference_dx_lanes(const double* sv, const double* dy, const FormatTraits& out,
                            Expected* e);

}  // namespace bng::ref
