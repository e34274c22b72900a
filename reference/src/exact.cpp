// The single rounding of an exact value n * 2^e / m (see exact.hpp and
// docs/reference.md for why this is exact).
#include "bng/reference/exact.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "bng/reference/power_of_two.hpp"

namespace bng::ref {
namespace {

using U128 = UInt128;

// The quotient q is taken with 2^kQuotientLow <= q < 2^(kQuotientLow+2): at least
// precision + 3 bits for every format up to the 64-bit long double, so the
// round bit is always among the quotient's bits and the sticky bit only has to
// say whether anything below is non-zero.
constexpr int kQuotientLow = 66;

struct Quotient {
  U128 q = 0;  // y* = (q + frac) * 2^f with 0 <= frac < 1
  std::int64_t f = 0;
  bool sticky = false;  // frac != 0
  bool zero = true;
};

int bit_width_u128(U128 v) {
  const auto hi = static_cast<std::uint64_t>(v >> 64);
  if (hi != 0) return 64 + std::bit_width(hi);
  return std::bit_width(static_cast<std::uint64_t>(v));
}

Quotient divide(const BigInt& n, std::int64_t e, std::uint64_t m) {
  Quotient out;
  if (n.is_zero()) return out;
  if (m == 0) throw std::invalid_argument("round_exact: divisor m must be >= 1");
  if (n.sign() < 0) throw std::invalid_argument("round_exact: n must be >= 0");
  out.zero = false;
  const auto bn = static_cast<std::int64_t>(boost::multiprecision::msb(n)) + 1;
  const auto bm = static_cast<std::int64_t>(std::bit_width(m));
  // n*2^s/m lies in (2^(bn-1+s-bm), 2^(bn+s-bm+1)), so with this s its floor
  // lies in [2^66, 2^68).
  const std::int64_t s = kQuotientLow + 1 - bn + bm;
  BigInt q, r;
  if (s >= 0) {
    const BigInt num = n << static_cast<unsigned>(s);
    boost::multiprecision::divide_qr(num, BigInt(m), q, r);
    out.sticky = !r.is_zero();
  } else {
    // floor(floor(n / 2^t) / m) == floor(n / (2^t m)); the quotient is exact
    // iff both the dropped bits and the remainder are zero.
    const auto t = static_cast<unsigned>(-s);
    const bool dropped = boost::multiprecision::lsb(n) < t;
    const BigInt num = n >> t;
    boost::multiprecision::divide_qr(num, BigInt(m), q, r);
    out.sticky = dropped || !r.is_zero();
  }
  const BigInt lo = q & BigInt(~std::uint64_t{0});
  const BigInt hi = q >> 64;
  out.q =
      (static_cast<U128>(hi.convert_to<std::uint64_t>()) << 64) | lo.convert_to<std::uint64_t>();
  out.f = e - s;
  return out;
}

// Quantum (weight of the last significand bit) of the format at a value in
// binade 2^exponent: the binade's, or the fixed subnormal quantum below 2^emin.
std::int64_t quantum_at(std::int64_t exponent, const FormatTraits& t) {
  return std::max<std::int64_t>(exponent, t.emin) - t.precision + 1;
}

Rounded round_quotient(bool negative, const Quotient& qt, const FormatTraits& t) {
  Rounded r;
  r.negative = negative;
  if (qt.zero) {
    r.zero = true;
    r.quantum = t.emin - t.precision + 1;
    return r;
  }
  const int bq = bit_width_u128(qt.q);
  r.exponent = bq - 1 + qt.f;
  std::int64_t quantum = quantum_at(r.exponent, t);
  const std::int64_t drop = quantum - qt.f;  // >= bq - p >= 3 (see kQuotientLow)
  U128 sig = 0;
  if (drop <= bq) {
    // drop <= 68 < 128, so the shifts below are defined.
    sig = qt.q >> drop;
    const U128 rest = qt.q & ((U128{1} << drop) - 1);
    const U128 half = U128{1} << (drop - 1);
    const bool up = rest > half || (rest == half && (qt.sticky || (sig & 1) != 0));
    if (up) ++sig;
  }
  // else y* < 2^(quantum-1), below half the smallest step: rounds to zero.
  if (sig == (U128{1} << t.precision)) {  // carry into the next binade
    sig >>= 1;
    ++quantum;
  }
  // A normal significand lies in [2^(p-1), 2^p), so the value reaches
  // 2^(emax+1) exactly when the quantum exceeds the top binade's.
  if (quantum > t.emax - t.precision + 1) {
    r.overflow = true;
    r.quantum = t.emax - t.precision + 1;
    return r;
  }
  r.significand = static_cast<std::uint64_t>(sig);
  r.quantum = quantum;
  return r;
}

}  // namespace

Rounded round_exact(bool negative, const BigInt& n, std::int64_t e, std::uint64_t m,
                    const FormatTraits& t) {
  return round_quotient(negative, divide(n, e, m), t);
}

Rounded round_integer(bool negative, UInt128 q, std::int64_t f, bool sticky,
                      const FormatTraits& t) {
  if (q >> 127 != 0 || (q == 0 ? sticky : bit_width_u128(q) < t.precision + 3)) {
    throw std::invalid_argument("round_integer: q outside [2^(p+2), 2^127)");
  }
  Quotient qt;
  qt.q = q;
  qt.f = f;
  qt.sticky = sticky;
  qt.zero = q == 0 && !sticky;
  return round_quotient(negative, qt, t);
}

bool rounds_alike(UInt128 low, UInt128 high, std::int64_t f, const FormatTraits& t) {
  const int bw = bit_width_u128(low);
  if (bw != bit_width_u128(high)) return false;
  // Same binade, so round_quotient drops the same bits of both; it rounds at
  // the midpoints (k + 1/2) * 2^drop, and low and high round alike when no
  // midpoint lies in [low, high] (which also rules out ties at the ends).
  const std::int64_t drop = quantum_at(bw - 1 + f, t) - f;
  if (drop < 1 || drop > bw) return false;
  const U128 half = U128{1} << (drop - 1);
  const U128 mask = (U128{1} << drop) - 1;
  return ((low + half) >> drop) == ((high + half) >> drop) && ((low + half) & mask) != 0;
}

RoundedPair round_exact_pair(bool negative, const BigInt& n, std::int64_t e, std::uint64_t m,
                             const FormatTraits& out) {
  const Quotient q = divide(n, e, m);
  return {round_quotient(negative, q, out), round_quotient(negative, q, kLongDouble)};
}

double to_double(const Rounded& r) {
  const double mag = r.overflow
                         ? HUGE_VAL
                         : scale(static_cast<double>(r.significand), static_cast<int>(r.quantum));
  // An exact zero is +0; a non-zero value that rounds to zero keeps its sign, as in IEEE.
  if (r.zero) return 0.0;
  return r.negative ? -mag : mag;
}

long double to_long_double(const Rounded& r) {
  const long double mag =
      r.overflow ? HUGE_VALL
                 : scale(static_cast<long double>(r.significand), static_cast<int>(r.quantum));
  if (r.zero) return 0.0L;
  return r.negative ? -mag : mag;
}

double ulp_of(const Rounded& r, const FormatTraits& t) {
  if (r.zero) return scale(1.0, t.emin - t.precision + 1);
  const std::int64_t e = std::clamp<std::int64_t>(r.exponent, t.emin, t.emax);
  return scale(1.0, static_cast<int>(e - t.precision + 1));
}

SmallDyadic decompose(double v) {
  SmallDyadic d;
  if (v == 0.0) return d;
  int e = 0;
  const double f = std::frexp(std::fabs(v), &e);  // |v| = f * 2^e, f in [0.5, 1)
  auto mant = static_cast<std::uint64_t>(std::ldexp(f, 53));
  std::int64_t exponent = e - 53;
  const int tz = std::countr_zero(mant);
  mant >>= tz;
  exponent += tz;
  d.negative = v < 0;
  d.mantissa = mant;
  d.exponent = exponent;
  return d;
}

}  // namespace bng::ref
