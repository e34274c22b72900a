// Double-word ("double-double") arithmetic for the tiered path's fast
// evaluation: a value is hi + lo with |lo| <= ulp(hi)/2. The algorithms and
// their relative error bounds (u = 2^-53) are those proved by Joldes, Muller
// and Popescu, "Tight and rigorous error bounds for basic building blocks of
// double-word arithmetic", ACM TOMS 44(2), 2017; the name of each function
// below gives the algorithm it implements. proofs/tiered_bound.g composes
// these bounds into the bound the rounding test uses (docs/reference.md, "The tiered path").
//
// Every error-free transformation here needs round-to-nearest binary64 with
// no contraction of a*b+c (the build passes -ffp-contract=off; the fused
// products are explicit std::fma) and, for two_prod, no underflow: the
// caller keeps products above 2^-969 (docs/reference.md, "The tiered path").
#pragma once

#include <cmath>

namespace bng::ref::dw {

struct DoubleWord {
  double hi = 0, lo = 0;
};

// s + e == a + b exactly (Knuth's 2Sum).
inline DoubleWord two_sum(double a, double b) {
  const double s = a + b;
  const double bb = s - a;
  const double e = (a - (s - bb)) + (b - bb);
  return {s, e};
}

// The same when |a| >= |b| or a == 0 (Dekker's Fast2Sum).
inline DoubleWord fast_two_sum(double a, double b) {
  const double s = a + b;
  return {s, b - (s - a)};
}

// p + e == a * b exactly, barring underflow (2Prod with an FMA).
inline DoubleWord two_prod(double a, double b) {
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

// x + y, x double-word, y double (DWPlusFP, Algorithm 4): relative error <= 2u^2.
inline DoubleWord plus_fp(DoubleWord x, double y) {
  const DoubleWord s = two_sum(x.hi, y);
  const double v = x.lo + s.lo;
  return fast_two_sum(s.hi, v);
}

// x + y, both double-word (AccurateDWPlusDW, Algorithm 6): relative error
// <= 3u^2 + 13u^3, relative to |x + y| even under cancellation.
inline DoubleWord plus_dw(DoubleWord x, DoubleWord y) {
  const DoubleWord s = two_sum(x.hi, y.hi);
  const DoubleWord t = two_sum(x.lo, y.lo);
  const double c = s.lo + t.hi;
  const DoubleWord v = fast_two_sum(s.hi, c);
  const double w = t.lo + v.lo;
  return fast_two_sum(v.hi, w);
}

// x * y, x double-word, y double (DWTimesFP3, Algorithm 9): relative error <= 2u^2.
inline DoubleWord times_fp(DoubleWord x, double y) {
  const DoubleWord c = two_prod(x.hi, y);
  const double cl3 = std::fma(x.lo, y, c.lo);
  return fast_two_sum(c.hi, cl3);
}

// x * y, both double-word (DWTimesDW3, Algorithm 12): relative error <= 4u^2;
// the bound used downstream is 5u^2 (the paper's conservative form).
inline DoubleWord times_dw(DoubleWord x, DoubleWord y) {
  const DoubleWord c = two_prod(x.hi, y.hi);
  const double tl0 = x.lo * y.lo;
  const double tl1 = std::fma(x.hi, y.lo, tl0);
  const double cl2 = std::fma(x.lo, y.hi, tl1);
  const double cl3 = c.lo + cl2;
  return fast_two_sum(c.hi, cl3);
}

inline DoubleWord negate(DoubleWord x) {
  return {-x.hi, -x.lo};
}

}  // namespace bng::ref::dw
