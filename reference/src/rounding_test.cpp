// The tiered path's rounding test (see rounding_test.hpp).
#include "rounding_test.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "bng/reference/binade.hpp"
#include "bng/reference/power_of_two.hpp"

namespace bng::ref {
namespace {

__extension__ typedef __int128 Int128;

// y's scale: the ends are integers at 2^f with |y.hi| * 2^-f in [2^110, 2^111).
constexpr int kScaleBits = 110;
// Widest radius tried, in units of 2^f: beyond 2^62 (a relative width of
// 2^-48) the 64-bit long double can never be decided.
constexpr double kWidestRadius = 0x1p62;

// [y - radius, y + radius] widened outward to integers at 2^f, both ends of one sign.
struct Ends {
  bool negative = false;
  UInt128 low = 0, high = 0;  // magnitudes, low <= high
  std::int64_t f = 0;
};

bool ends_of(dw::DoubleWord y, double radius, Ends& out) {
  if (!std::isnormal(y.hi)) return false;
  const int eh = binade(y.hi);
  out.f = eh - kScaleBits;
  const auto bits = std::bit_cast<std::uint64_t>(y.hi);
  const std::uint64_t mant = (bits & ((std::uint64_t{1} << 52) - 1)) | (std::uint64_t{1} << 52);
  // y.hi = mant * 2^(eh - 52) = (mant << 58) * 2^f exactly.
  Int128 h = static_cast<Int128>(mant) << (kScaleBits - 52);
  if (y.hi < 0) h = -h;
  // y.lo * 2^-f is at most 2^58 in magnitude; its floor and ceiling bracket it.
  const double l = scale(y.lo, static_cast<int>(-out.f));
  double lf = std::floor(l), lc = std::ceil(l);
  if (l == 0 && y.lo != 0) {  // scaled below the smallest subnormal: only its sign is left
    lf = y.lo < 0 ? -1 : 0;
    lc = y.lo > 0 ? 1 : 0;
  }
  const double rr = std::ceil(scale(radius, static_cast<int>(-out.f)));
  if (!(rr < kWidestRadius)) return false;
  const auto r = static_cast<std::int64_t>(rr);
  const Int128 low = h + static_cast<std::int64_t>(lf) - r;
  const Int128 high = h + static_cast<std::int64_t>(lc) + r;
  if (low <= 0 && high >= 0) return false;  // contains zero (or both signs)
  out.negative = high < 0;
  out.low = static_cast<UInt128>(out.negative ? -high : low);
  out.high = static_cast<UInt128>(out.negative ? -low : high);
  return true;
}

bool same_value(const Rounded& a, const Rounded& b) {
  return a.overflow == b.overflow && a.significand == b.significand && a.quantum == b.quantum;
}

// Whether the high end rounds as the low end (lo = its rounding) in t, and,
// if same_binade, lies in the same binade clamped to t's exponent range (which
// ulp(y*) depends on). Tries the quick test first.
bool alike(const Ends& ends, const FormatTraits& t, const Rounded& lo, bool same_binade) {
  if (ends.low == ends.high || rounds_alike(ends.low, ends.high, ends.f, t)) return true;
  const Rounded hi = round_integer(ends.negative, ends.high, ends.f, false, t);
  const auto binade = [&](const Rounded& r) {
    return std::clamp<std::int64_t>(r.exponent, t.emin, t.emax);
  };
  return same_value(lo, hi) && (!same_binade || binade(lo) == binade(hi));
}

}  // namespace

bool decide_value_by_integers(dw::DoubleWord y, double radius, const FormatTraits& out,
                              Expected& e) {
  Ends ends;
  if (!ends_of(y, radius, ends)) return false;
  const Rounded lo = round_integer(ends.negative, ends.low, ends.f, false, out);
  if (!alike(ends, out, lo, /*same_binade=*/true)) return false;
  const Rounded wide_lo = round_integer(ends.negative, ends.low, ends.f, false, kLongDouble);
  if (!alike(ends, kLongDouble, wide_lo, /*same_binade=*/false)) return false;
  e.kind = Kind::finite;
  e.rounded = to_double(lo);
  e.exact = to_long_double(wide_lo);
  e.ulp = ulp_of(lo, out);
  return true;
}

bool decide_magnitude_by_integers(dw::DoubleWord m, double radius, Expected& e) {
  Ends ends;
  if (!ends_of(m, radius, ends) || ends.negative) return false;
  const Rounded lo = round_integer(false, ends.low, ends.f, false, kLongDouble);
  if (!alike(ends, kLongDouble, lo, /*same_binade=*/false)) return false;
  e.magnitude = to_long_double(lo);
  return true;
}

Expected exact_zero(const FormatTraits& out) {
  Expected e;
  e.kind = Kind::finite;
  e.rounded = 0.0;
  e.exact = 0.0L;
  e.magnitude = 0.0L;
  e.ulp = scale(1.0, out.emin - out.precision + 1);
  return e;
}

}  // namespace bng::ref
