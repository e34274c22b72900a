// The tiered path's rounding test: given a fast approximation y of y* and a
// proved bound on |y - y*|, decide RN(y*) in the output format, RN(y*) in the
// 64-bit long double, the binade of y* (for ulp) and RN(M) for the magnitude,
// or say that it cannot. RN and floor(log2 |.|) are monotone, so when both ends
// of [y - r, y + r] give the same results, y* (which lies between them) gives
// them too. The ends are rounded by the exact path's own integer rounding
// (round_integer), so the test adds no rounding code of its own.
//
// Two tiers: a quick test in binary64 arithmetic (quick_rounding_test.hpp,
// inline) decides nearly every output; the rest go to an integer test on the
// ends (rounding_test.cpp), and what that cannot decide to the exact path.
#pragma once

#include "bng/reference/exact.hpp"
#include "bng/reference/reference.hpp"
#include "double_word.hpp"
#include "quick_rounding_test.hpp"

namespace bng::ref {

// The integer tier alone: what the quick test leaves (rounding_test.cpp).
bool decide_value_by_integers(dw::DoubleWord y, double radius, const FormatTraits& out,
                              Expected& e);
bool decide_magnitude_by_integers(dw::DoubleWord m, double radius, Expected& e);

// Fills e.rounded, e.exact and e.ulp (kind finite) from y and radius and
// returns true, or returns false if [y - radius, y + radius] contains zero, is
// too wide to decide, or straddles a rounding boundary. radius >= 0; y.hi must
// be normal (callers keep it above 2^-900) unless y is zero.
inline bool decide_value(dw::DoubleWord y, double radius, const FormatTraits& out, Expected& e) {
  return quick::decide_value_quickly(y, radius, out, e) ||
         decide_value_by_integers(y, radius, out, e);
}

// The same for a magnitude M > 0 into e.magnitude only.
inline bool decide_magnitude(dw::DoubleWord m, double radius, Expected& e) {
  return quick::decide_magnitude_quickly(m, radius, e) ||
         decide_magnitude_by_integers(m, radius, e);
}

// Expected for an exactly zero y* (and M = 0): +0, ulp the subnormal spacing.
Expected exact_zero(const FormatTraits& out);

}  // namespace bng::ref
