// The tiered path's rounding test: given a fast approximation y of y* and a
// proved bound on |y - y*|, decide RN(y*) in the output format, RN(y*) in the
// 64-bit long double, the binade of y* (for ulp) and RN(M) for the magnitude,
// or say that it cannot. RN and floor(log2 |.|) are monotone, so when both ends
// of [y - r, y + r] give the same results, y* (which lies between them) gives
// them too. The ends are rounded by the exact path's own integer rounding
// (round_integer), so the test adds no rounding code of its own.
#pragma once

#include "bng/reference/exact.hpp"
#include "bng/reference/reference.hpp"
#include "double_word.hpp"

namespace bng::ref {

// Fills e.rounded, e.exact and e.ulp (kind finite) from y and radius and
// returns true, or returns false if [y - radius, y + radius] contains zero, is
// too wide to decide, or straddles a rounding boundary. radius >= 0; y.hi must
// be normal (callers keep it above 2^-900) unless y is zero.
bool decide_value(dw::DoubleWord y, double radius, const FormatTraits& out, Expected& e);

// The same for a magnitude M > 0 into e.magnitude only.
bool decide_magnitude(dw::DoubleWord m, double radius, Expected& e);

// Expected for an exactly zero y* (and M = 0): +0, ulp the subnormal spacing.
Expected exact_zero(const FormatTraits& out);

}  // namespace bng::ref
