// The one place the error formulas of SPEC §5 live: ULP error, normalised
// error, cancellation and the pass/fail rule. Tests and reports both use it.
#pragma once

#include "bng/reference/case.hpp"
#include "bng/reference/reference.hpp"

namespace bng {

struct Measure {
  double ulp_error = 0;  // |y - y*| / ulp(y*)      (0 when both NaN / both non-finite)
  double normalised_error =
      0;  // |y - y*| / (u * M)      (0 when M = 0 and y == y*, +inf if M = 0 and y != y*)
  double kappa = 0;         // M / |y*|                (+inf when y* == 0 and M > 0, 1 when M == 0)
  bool pass = false;        // |y - y*| <= 1 ulp(y*) + alpha*M, with SPEC §5's NaN/Inf rules
  const char* reason = "";  // why it failed, for messages ("" on pass)
};

// Judge the kernel output y (the exact value of its stored bits) against the
// reference entry e of an output of format f, for a kernel that declared alpha.
Measure measure(double y, const ref::Expected& e, Format f, double alpha);

// The same for an output whose kernel declares correct rounding (SPEC §5)
// when correctly_rounded: y passes only as RN(y*), ±Inf included where y*
// rounds to ±Inf (the sign of a zero is not judged).
// The error figures are measure's either way.
Measure measure(double y, const ref::Expected& e, Format f, double alpha, bool correctly_rounded);

// Unit roundoff u = 2^-p of a format.
double unit_roundoff(Format f);

}  // namespace bng
