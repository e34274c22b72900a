// The one place the error formulas of SPEC §5 live: ULP error, normalised
// error, cancellation and the pass/fail rule. Tests and reports both use it,
// inline: the judge calls it for every output it judges.
//
// Arithmetic is in long double: y is a binary16/binary32 value (exact in a
// double) and y* is held rounded to 64 significant bits, so the computed
// |y - y*| is within 2^-64 |y*| of the true one (the subtraction itself is exact
// whenever |y - y*| is within a few ulps). A verdict can therefore differ from
// the exact one only when the true |y - y*| lies within 2^-64 |y*| of the
// tolerance — within 2^-40 ulp for binary32, 2^-53 ulp for binary16.
#pragma once

#include <cmath>
#include <limits>

#include "bng/reference/binade.hpp"
#include "bng/reference/case.hpp"
#include "bng/reference/power_of_two.hpp"
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

namespace error_measure_detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// v / ulp: ulp(y*) is a power of two (a normal double), so the quotient is v
// times the exact 2^-k, without the long double division (x87's takes 15-20
// cycles, and every judged output has one); anything else is divided.
inline long double in_ulps(long double v, double ulp) {
  const int k = ref::binade(ulp);
  if (ref::significand(ulp) != 1 || k <= -1022 || k >= 1022) return v / ulp;
  return v * static_cast<long double>(ref::power_of_two(-k));
}

inline Measure verdict(bool pass, const char* why) {
  Measure m;
  m.pass = pass;
  m.ulp_error = pass ? 0 : kInf;
  m.normalised_error = pass ? 0 : kInf;
  m.kappa = std::numeric_limits<double>::quiet_NaN();  // no real y*, no cancellation
  m.reason = pass ? "" : why;
  return m;
}

}  // namespace error_measure_detail

// Unit roundoff u = 2^-p of a format.
inline double unit_roundoff(Format f) {
  return f == Format::binary16 ? 0x1p-11 : 0x1p-24;
}

// Judge the kernel output y (the exact value of its stored bits) against the
// reference entry e of an output of format f, for a kernel that declared alpha.
inline Measure measure(double y, const ref::Expected& e, Format f, double alpha) {
  using namespace error_measure_detail;
  switch (e.kind) {
    case ref::Kind::nan:
      return verdict(std::isnan(y), "reference is NaN (a NaN input), kernel returned a number");
    case ref::Kind::nonfinite:
      return verdict(!std::isfinite(y),
                     "reference is non-finite (an Inf input), kernel returned a finite value");
    case ref::Kind::finite:
      break;
  }
  if (std::isnan(y)) return verdict(false, "reference is finite, kernel returned NaN");

  Measure m;
  const long double exact = e.exact;
  const long double mag = e.magnitude;
  const long double diff = std::isinf(y) ? std::numeric_limits<long double>::infinity()
                                         : std::fabs(static_cast<long double>(y) - exact);
  m.ulp_error = static_cast<double>(in_ulps(diff, e.ulp));
  if (mag == 0) {
    m.normalised_error = diff == 0 ? 0 : kInf;
    m.kappa = 1;
  } else {
    m.normalised_error =
        static_cast<double>(diff / (static_cast<long double>(unit_roundoff(f)) * mag));
    m.kappa = exact == 0 ? kInf : static_cast<double>(mag / std::fabs(exact));
  }

  if (std::isinf(e.rounded)) {
    // y* rounds to ±Inf: that Inf passes, and so does a finite y within tolerance.
    if (std::isinf(y)) {
      m.pass = y == e.rounded;
      m.reason = m.pass ? "" : "reference overflows to Inf of the other sign";
      if (m.pass) m.ulp_error = m.normalised_error = 0;
      return m;
    }
  } else if (std::isinf(y)) {
    m.pass = false;
    m.reason = "reference rounds to a finite value, kernel returned Inf";
    return m;
  }
  const long double tolerance =
      static_cast<long double>(e.ulp) + static_cast<long double>(alpha) * mag;
  m.pass = diff <= tolerance;
  m.reason = m.pass ? "" : "|y - y*| > ulp(y*) + alpha*M";
  return m;
}

// The same for an output whose kernel declares correct rounding (SPEC §5)
// when correctly_rounded: y passes only as RN(y*), ±Inf included where y*
// rounds to ±Inf (the sign of a zero is not judged).
// The error figures are measure's either way.
inline Measure measure(double y, const ref::Expected& e, Format f, double alpha,
                       bool correctly_rounded) {
  Measure m = measure(y, e, f, alpha);
  // RN(y*) includes ±Inf where y* rounds to ±Inf (SPEC §5): ±MAX is then not
  // RN(y*), however close to y* it is.
  if (correctly_rounded && e.kind == ref::Kind::finite && !std::isnan(y)) {
    m.pass = y == e.rounded;  // +0 == -0: the sign of a zero is not judged
    m.reason = m.pass                  ? ""
               : std::isinf(e.rounded) ? "y* rounds to ±Inf, y is finite, and the kernel "
                                         "declares correct rounding"
                                       : "y is not RN(y*), and the kernel declares correct "
                                         "rounding";
  }
  return m;
}

}  // namespace bng
