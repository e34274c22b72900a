// The final rounding of a double result t into an output format. Two rules:
//
// round_nearest_to_*: round to nearest-even, ±Inf from MAX + ulp/2 on, as
// IEEE 754: for the outputs a kernel declares correctly rounded (inference
// dx, alpha.hpp), whose t already rounds as y* does (SPEC §5: RN(y*) is ±Inf
// where y* rounds to ±Inf, and ±MAX is then wrong).
//
// round_to_*: the overflow rule of docs/accuracy.md §4 for the outputs
// judged by alpha: t rounds to nearest-even, except that
// a t between the largest finite value MAX and 2^(emax+1) gives ±MAX, so
// that an error in t smaller than half an ulp of the top binade can never turn
// an output whose exact value rounds to a finite number into ±Inf. A finite
// |t| >= 2^(emax+1) first goes through guard_overflow with a run-time bound
// e on |t - y*| (docs/accuracy.md §4): ±Inf only if y* certainly rounds to
// ±Inf, else ±MAX. Every NaN is stored as the one canonical NaN below. The
// vector forms in lane_kernels/store-inl.h (try_store) produce the same bits (a vector holding a
// NaN comes here).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "bng/binary16.hpp"

namespace bng::opt {

inline constexpr double kFloatMax = 0x1.fffffep127;
inline constexpr double kFloatOverflow = 0x1p128;
inline constexpr double kHalfMax = 65504.0;
inline constexpr double kHalfOverflow = 65536.0;

// 140 * 2^-53: times the run-time magnitude bound M_upper, an upper bound on
// |t - y*| for every output (at most (L + 9) * 2^-53 * M * (1 + 2^-40), L = 128,
// and M_upper is within a factor 1 +- 2^-22 of M), and at most alpha * M / 2.
inline constexpr double kErrorPerMagnitude = 140.0 * 0x1p-53;
// The same for dbias and dscale of inference on binary16 data, whose pass 1
// sums pairs of rows in binary32 (docs/accuracy.md §2.1): |t - y*| is at most
// (3 * 2^-24 + 2^-46) * M * (1 + 2^-22); 3.25 * 2^-24 bounds that and stays
// below alpha * M / 2 = 4 * 2^-24 * M.
inline constexpr double kErrorPerMagnitudeBinary32Sums = 3.25 * 0x1p-24;

// The output formats' overflow constants: MAX, 2^(emax+1), and the midpoint
// MAX + ulp_top / 2 from which (ties to even included) a value rounds to Inf.
struct F32Limits {
  static constexpr double max = kFloatMax, overflow = kFloatOverflow;
  static constexpr double rounds_to_inf = 0x1.ffffffp127;
};
struct F16Limits {
  static constexpr double max = kHalfMax, overflow = kHalfOverflow;
  static constexpr double rounds_to_inf = 65520.0;
};

// For a finite |t| >= 2^(emax+1) with |t - y*| <= e: ±Inf (t itself) only
// when |t| - e > MAX + ulp_top/2, so that y* rounds to ±Inf too; otherwise
// ±MAX, within ulp(y*) + 2e of y* (docs/accuracy.md §4). Other t unchanged;
// a NaN e (only from non-finite inputs) keeps t.
template <class Lim>
double guard_overflow(double t, double e) {
  const double a = std::fabs(t);
  if (a >= Lim::overflow && a <= std::numeric_limits<double>::max() && a - e <= Lim::rounds_to_inf)
    return std::copysign(Lim::max, t);
  return t;
}

// The one NaN every output NaN is stored as: the positive quiet NaN with a
// zero payload. Which NaN an operation returns depends on its operand order
// (x86 returns the first operand's NaN, an invalid operation a negative
// default NaN), and compilers reorder commutative operands at will, so a NaN
// passed on from the arithmetic would make the bits depend on the compiler
// and optimisation level (SPEC §4 forbids that). docs/spec-notes.md #12.
inline constexpr std::uint32_t kCanonicalNanF32 = 0x7fc00000u;
inline constexpr std::uint16_t kCanonicalNanF16 = 0x7e00u;

inline float round_nearest_to_float(double t) {
  if (std::isnan(t)) return std::bit_cast<float>(kCanonicalNanF32);
  return static_cast<float>(t);  // nearest-even; ±Inf from MAX + ulp/2 on
}

inline std::uint16_t round_nearest_to_half(double t) {
  if (std::isnan(t)) return kCanonicalNanF16;
  return binary16::round_from_double(t);  // nearest-even; ±Inf from 65520 on
}

inline float round_to_float(double t) {
  if (std::isnan(t)) return std::bit_cast<float>(kCanonicalNanF32);
  const double a = std::fabs(t);
  if (a >= kFloatOverflow)
    return std::copysign(std::numeric_limits<float>::infinity(),
                         static_cast<float>(std::copysign(1.0, t)));
  if (a > kFloatMax) t = std::copysign(kFloatMax, t);
  return static_cast<float>(t);
}

inline std::uint16_t round_to_half(double t) {
  if (std::isnan(t)) return kCanonicalNanF16;
  const double a = std::fabs(t);
  if (a > kHalfMax && a < kHalfOverflow) t = std::copysign(kHalfMax, t);
  return binary16::round_from_double(t);
}

}  // namespace bng::opt
