// The constants of the tiered path's error bound, in one header that both
// tiered.cpp and the Gappa proof's constant generator (proofs/gappa_constants.cpp)
// read, so the proof checks the values the code runs with.
#pragma once

namespace bng::ref::tiered_bound {

// radius = kRelative * mag.hi * (1 + kMagnitudeSlack) (+ the underflow terms):
// proofs/tiered_bound.g proves |y - y*| <= 2^-101 M for the double-word
// evaluation and that this radius covers it; 2^-100 keeps one bit in hand.
inline constexpr int kRelativeLog2 = -100;
inline constexpr double kRelative = 0x1p-100;
inline constexpr double kMagnitudeSlack = 0x1p-50;
static_assert(kRelative == 0x1p-100 && kRelativeLog2 == -100, "change both together");

// The evaluation's products stay above the underflow threshold when |z| does
// (docs/reference.md, "The tiered path"); below it the exact path decides.
inline constexpr double kSmallestEvaluated = 0x1p-600;

}  // namespace bng::ref::tiered_bound
