// The tiered path (see tiered.hpp; the bound is derived in docs/reference.md
// ("The tiered path") and proved by proofs/tiered_bound.g).
//
// Per channel, exactly, in superaccumulators (no BigInt work per element):
//   S1 = sum dy,  S1abs = sum |dy|,  P = sum dy*x,
//   Q = sum sgn(x - mean) |dy|,  Pabs = sum sgn(x - mean) |dy| x,
// every term an exact binary64 value (a product of two binary32 values has at
// most 48 significant bits). Then S2 = sum dy*(x - mean) = P - mean*S1 and
// S2abs = sum |dy*(x - mean)| = Pabs - mean*Q, as the exact path defines them,
// and dbias and dscale are rounded from them exactly, once per channel.
//
// Per element, dx is evaluated in double-word arithmetic from per-channel
// double-word constants A = S1/m, B = invar^2 * S2/m, with a proved bound on
// its error, and the rounding test (rounding_test.hpp) decides it.
#include "tiered.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "bng/reference/power_of_two.hpp"
#include "double_word.hpp"
#include "exact_channel.hpp"
#include "rounding_test.hpp"
#include "superaccumulator.hpp"
#include "tiered_bound.hpp"
#include "tiered_lanes.hpp"

namespace bng::ref {
namespace {

using dw::DoubleWord;

// Every binary16/binary32 value is a multiple of 2^-149 and every product of
// two a multiple of 2^-298; a double's significand reaches 52 bits below its
// leading bit, so the accumulators' bases sit 52 bits lower still.
constexpr int kValueExponent = -149, kProductExponent = -298;
constexpr int kBaseDrop = 52;
constexpr int kValueBase = kValueExponent - kBaseDrop, kProductBase = kProductExponent - kBaseDrop;
// Limbs: |dy| < 2^128 reaches bit 276 + 53 above its base and |dy*x| < 2^256
// bit 553 + 53; sums of up to 2^63 terms add 63 bits, and two digits above the
// top one hold the carries.
constexpr int kValueLimbs = 14, kProductLimbs = 22;

// Channels judged side by side: the rows are walked in memory order while the
// accumulators of the block (about 5 KiB per channel) stay in the L1/L2 cache.
constexpr std::int64_t kBlockWidth = 16;

// Error bound of the double-word evaluation, relative to the magnitude M: see
// tiered_bound.hpp (2^-101 proved by proofs/tiered_bound.g, 2^-100 used).
// Underflow adds at most one 2^-1074 per operation before the product by
// scale*invar and one after: kUnderflowBeforeSv and kUnderflowAfterSv.
constexpr int kUnderflowBeforeSvLog2 = -1060;
constexpr double kUnderflowAfterSv = 0x1p-1070;

// The channel's terms by sign: |dy| by the sign of dy and the side of x
// (sgn(x - mean)), |dy*x| by the sign of dy*x and sgn(x - mean)*sgn(x). Each
// element adds into one accumulator of each kind, unsigned (where the five
// signed sums took five adds and three products by a sign); the five sums are
// signed combinations of these, formed once per channel.
struct ChannelAccumulators {
  Superaccumulator<kValueLimbs> dy_by[2][3];     // [dy < 0][side + 1]
  Superaccumulator<kProductLimbs> dyx_by[2][3];  // [dy*x < 0][side*sgn(x) + 1]
  bool finite = true;

  void propagate_carries() {
    for (auto& by_side : dy_by)
      for (auto& a : by_side) a.propagate_carries();
    for (auto& by_side : dyx_by)
      for (auto& a : by_side) a.propagate_carries();
  }

  // sum over the six of sign(negative, column) * accumulator; the carries of
  // the six propagated first (propagate_carries).
  template <int L, typename Sign>
  static Superaccumulator<L> combined(const Superaccumulator<L> (&by)[2][3], Sign sign) {
    Superaccumulator<L> sum;
    for (int negative = 0; negative < 2; ++negative) {
      for (int column = 0; column < 3; ++column) {
        const std::int64_t s = sign(negative == 1, column - 1);
        if (s != 0) sum.add(by[negative][column], s);
      }
    }
    return sum;
  }
};

int sign_of(bool negative) {
  return negative ? -1 : 1;
}

void add_element(ChannelAccumulators& acc, double x, double dy, double mean) {
  if (!std::isfinite(x) || !std::isfinite(dy)) {
    acc.finite = false;
    return;
  }
  if (dy == 0) return;  // every term is zero
  const int side = x > mean ? 1 : (x < mean ? -1 : 0);
  const Digits d = digits_of(dy, kValueBase);
  acc.dy_by[d.negative][side + 1].add(d);
  const double p = dy * x;  // exact: at most 48 significant bits, no underflow
  if (p == 0) return;
  const Digits dp = digits_of(p, kProductBase);
  acc.dyx_by[dp.negative][side * sign_of(x < 0) + 1].add(dp);
}

// v at exponent e (v a multiple of 2^e) as a BigInt.
BigInt integer_at(double v, std::int64_t e) {
  const SmallDyadic d = decompose(v);
  BigInt r = d.mantissa;
  if (d.mantissa == 0) return r;
  r <<= static_cast<unsigned>(d.exponent - e);
  return d.negative ? BigInt(-r) : r;
}

// n * 2^e / m as a double word, relative error below 2^-104.9: the quotient is
// truncated to 117 or 118 bits (error < 2^-116), its top 53 bits are exact in
// hi and the rest (< 2^65) rounds once into lo (error <= 2^-105).
DoubleWord double_word_of(const BigInt& n, std::int64_t e, std::uint64_t m) {
  if (n.is_zero()) return {};
  const bool negative = n.sign() < 0;
  BigInt a = n;
  if (negative) a.backend().negate();
  const auto bn = static_cast<std::int64_t>(boost::multiprecision::msb(a)) + 1;
  const std::int64_t s = 117 - bn + std::bit_width(m);
  const BigInt num =
      s >= 0 ? BigInt(a << static_cast<unsigned>(s)) : BigInt(a >> static_cast<unsigned>(-s));
  const BigInt q = num / m;
  const UInt128 q128 =
      (static_cast<UInt128>((q >> 64).convert_to<std::uint64_t>()) << 64) |
      static_cast<UInt128>((q & BigInt(~std::uint64_t{0})).convert_to<std::uint64_t>());
  const auto bq = static_cast<int>(boost::multiprecision::msb(q)) + 1;
  const UInt128 top = q128 >> (bq - 53);
  const UInt128 rest = q128 & ((UInt128{1} << (bq - 53)) - 1);
  const double hi = scale(static_cast<double>(top), static_cast<int>(e - s + bq - 53));
  const double lo = scale(static_cast<double>(rest), static_cast<int>(e - s));
  const DoubleWord r = dw::fast_two_sum(hi, lo);
  return negative ? dw::negate(r) : r;
}

// What training dx needs of its channel, and the exact fall-back.
struct DxChannel {
  bool tiered = false;      // finite inputs: the tiered path judges this channel
  bool zero = false;        // every dx is exactly 0 (M = 0)
  DoubleWord a, b;          // S1/m, invar^2 * S2/m
  DoubleWord a_abs, b_abs;  // S1abs/m, invar^2 * S2abs/m
  double sv = 0, sv_abs = 0, mean = 0;
  double underflow = 0;  // absolute error from underflow (see kUnderflowBeforeSvLog2)
};

ChannelSums exact_sums(ChannelAccumulators& acc, double mean) {
  // S1 = sum sgn(dy)|dy|, S1abs = sum |dy|, Q = sum side|dy|; P = sum dy*x,
  // Pabs = sum side*sgn(x)|dy*x|: from the terms by sign (ChannelAccumulators).
  const auto by_sign = [](bool negative, int) -> std::int64_t { return sign_of(negative); };
  const auto all = [](bool, int) -> std::int64_t { return 1; };
  const auto by_column = [](bool, int column) -> std::int64_t { return column; };
  acc.propagate_carries();  // each limb of the six within [0, 2^32) but the top one
  ChannelSums s;
  s.ed = kValueExponent;
  s.ex = kValueExponent;
  s.mean_int = integer_at(mean, kValueExponent);
  // The sums are multiples of 2^-149 (2^-298), so these shifts drop only zeros.
  s.s1 = ChannelAccumulators::combined(acc.dy_by, by_sign).to_bigint() >> kBaseDrop;
  s.s1abs = ChannelAccumulators::combined(acc.dy_by, all).to_bigint() >> kBaseDrop;
  const BigInt q = ChannelAccumulators::combined(acc.dy_by, by_column).to_bigint() >> kBaseDrop;
  const BigInt p = ChannelAccumulators::combined(acc.dyx_by, by_sign).to_bigint() >> kBaseDrop;
  const BigInt pabs = ChannelAccumulators::combined(acc.dyx_by, by_column).to_bigint() >> kBaseDrop;
  s.s2 = p - s.mean_int * s.s1;
  s.s2abs = pabs - s.mean_int * q;
  return s;
}

DxChannel dx_constants(const ChannelSums& s, double invar, double scale, std::uint64_t m) {
  DxChannel k;
  k.tiered = true;
  k.sv = scale * invar;  // exact: 48 significant bits at most, no underflow
  k.sv_abs = std::fabs(k.sv);
  k.zero = k.sv == 0 || s.s1abs.is_zero();
  const double invar2 = invar * invar;  // exact, as above
  const BigInt v2 = integer_at(invar2, 2 * kValueExponent);
  k.a = double_word_of(s.s1, kValueExponent, m);
  k.a_abs = double_word_of(s.s1abs, kValueExponent, m);
  k.b = double_word_of(s.s2 * v2, kProductExponent + 2 * kValueExponent, m);
  k.b_abs = double_word_of(s.s2abs * v2, kProductExponent + 2 * kValueExponent, m);
  k.underflow = std::ldexp(k.sv_abs, kUnderflowBeforeSvLog2) + kUnderflowAfterSv;
  return k;
}

// Training dx[n] by the fast evaluation, or false if the test cannot decide.
bool training_dx(const DxChannel& k, double x, double dy, const FormatTraits& out, Expected& e) {
  if (k.zero) {
    e = exact_zero(out);
    return true;
  }
  const DoubleWord xm = dw::two_sum(x, -k.mean);  // x - mean, exactly
  const DoubleWord z1 = dw::plus_fp(dw::negate(k.a), dy);
  const DoubleWord z = dw::plus_dw(z1, dw::negate(dw::times_dw(xm, k.b)));
  if (!(std::fabs(z.hi) >= tiered_bound::kSmallestEvaluated)) return false;
  const DoubleWord y = dw::times_fp(z, k.sv);
  const DoubleWord xm_abs = xm.hi < 0 ? dw::negate(xm) : xm;
  const DoubleWord mag = dw::times_fp(
      dw::plus_dw(dw::plus_fp(k.a_abs, std::fabs(dy)), dw::times_dw(xm_abs, k.b_abs)), k.sv_abs);
  // mag.hi * (1 + 2^-50) >= M: the evaluation of M is within 16u^2 and |lo| <= u|hi|.
  const double radius =
      scale(mag.hi * (1 + tiered_bound::kMagnitudeSlack), tiered_bound::kRelativeLog2) +
      k.underflow;
  return decide_value(y, radius, out, e) && decide_magnitude(mag, radius, e);
}

// Inference dx[n] = scale*invar*dy, exact as a double word: always decided.
bool inference_dx(const DxChannel& k, double dy, const FormatTraits& out, Expected& e) {
  if (k.sv == 0 || dy == 0) {
    e = exact_zero(out);
    return true;
  }
  const DoubleWord y = dw::two_prod(k.sv, dy);  // exact: |y| >= 2^-447
  if (!decide_value(y, 0, out, e)) return false;
  e.magnitude = std::fabs(e.exact);  // M = |y*|, and RN is symmetric
  return true;
}

// dx[n] of channel j of the block through every tier: the fast evaluation,
// and the exact path where the test cannot decide.
[[gnu::always_inline]] inline void dx_element(const Case& c, std::int64_t n, std::size_t row,
                                              std::size_t j, const std::vector<DxChannel>& k,
                                              std::vector<ExactChannel>& exact,
                                              const FormatTraits& data, Result& r) {
  Expected& e = r.dx[row + j];
  const bool decided = c.is_train == 1 ? training_dx(k[j], c.x[row + j], c.dy[row + j], data, e)
                                       : inference_dx(k[j], c.dy[row + j], data, e);
  if (!decided) {
    e = c.is_train == 1 ? exact[j].training_dx(n) : exact[j].inference_dx(n);
    ++r.exact_fallbacks;
  }
}

// dx of the block's channels from their constants k (exact[j] where the test
// cannot decide), flattened: every product of the evaluation inlined here.
[[gnu::flatten]] void evaluate_dx_portable(const Case& c, std::int64_t b0, std::int64_t n0,
                                           std::int64_t n1, const std::vector<DxChannel>& k,
                                           std::vector<ExactChannel>& exact,
                                           const FormatTraits& data, Result& r) {
  for (std::int64_t n = n0; n < n1; ++n) {
    const auto row = static_cast<std::size_t>(n * c.channel + b0);
    for (std::size_t j = 0; j < k.size(); ++j) {
      if (k[j].tiered) dx_element(c, n, row, j, k, exact, data, r);
    }
  }
}

// The double-word evaluation's products are std::fma: without the FMA
// instructions of the baseline x86-64 ISA each is a call into libm (with the
// register spills around it, several % of `check`). x86 CPUs with FMA run the
// same loop compiled for them (its callees inlined by flatten, so that their
// fma become instructions). fma is correctly rounded either way and nothing
// else is contracted (-ffp-contract=off), so both give the same bits.
// Elsewhere (aarch64) FMA is in the baseline. BNG_REFERENCE_FMA=off keeps to
// the portable loop (the tests compare both with the exact path).
#if defined(__x86_64__) && defined(__GNUC__)
#define BNG_FMA_DISPATCH 1
[[gnu::flatten, gnu::target("fma")]] void evaluate_dx_fma(const Case& c, std::int64_t b0,
                                                          std::int64_t n0, std::int64_t n1,
                                                          const std::vector<DxChannel>& k,
                                                          std::vector<ExactChannel>& exact,
                                                          const FormatTraits& data, Result& r) {
  evaluate_dx_portable(c, b0, n0, n1, k, exact, data, r);
}
#endif

// Lane l of k holds channel ch's constants.
void set_lane(DxLanes& k, std::size_t l, const DxChannel& ch) {
  k.a_hi[l] = ch.a.hi;
  k.a_lo[l] = ch.a.lo;
  k.b_hi[l] = ch.b.hi;
  k.b_lo[l] = ch.b.lo;
  k.a_abs_hi[l] = ch.a_abs.hi;
  k.a_abs_lo[l] = ch.a_abs.lo;
  k.b_abs_hi[l] = ch.b_abs.hi;
  k.b_abs_lo[l] = ch.b_abs.lo;
  k.sv[l] = ch.sv;
  k.sv_abs[l] = ch.sv_abs;
  k.mean[l] = ch.mean;
  k.underflow[l] = ch.underflow;
}

// Whether the lanes evaluate channel ch (its inputs finite and, in training,
// its dx not all zero: those the scalar loop writes at once).
bool in_lanes(const Case& c, const DxChannel& ch) {
  return ch.tiered && (c.is_train == 0 || !ch.zero);
}

// Four outputs in lanes at x, dy (elements at..at+3 of the case), into r.dx.
unsigned dx_lanes(const Case& c, const DxLanes& k, std::size_t at, const FormatTraits& data,
                  Result& r) {
  return c.is_train == 1 ? training_dx_lanes(k, &c.x[at], &c.dy[at], data, &r.dx[at])
                         : inference_dx_lanes(k.sv, &c.dy[at], data, &r.dx[at]);
}

// Groups of kLanes channels side by side in a row, each channel in lanes.
struct LaneGroup {
  std::size_t first = 0;  // the group's first channel in the block
  DxLanes k;
};

std::vector<LaneGroup> lane_groups(const Case& c, const std::vector<DxChannel>& k) {
  std::vector<LaneGroup> groups;
  for (std::size_t j = 0; j + kLanes <= k.size(); j += kLanes) {
    LaneGroup g;
    g.first = j;
    bool taken = true;
    for (std::size_t l = 0; l < kLanes; ++l) {
      taken &= in_lanes(c, k[j + l]);
      set_lane(g.k, l, k[j + l]);
    }
    if (taken) groups.push_back(g);
  }
  return groups;
}

// The block's dx of rows [n0, n1) with the lanes deciding what they can, the
// scalar loop the rest (the channels outside a group, and the lanes left
// undecided).
[[gnu::flatten]] void evaluate_dx_in_lanes(const Case& c, std::int64_t b0, std::int64_t n0,
                                           std::int64_t n1, const std::vector<DxChannel>& k,
                                           const std::vector<LaneGroup>& groups,
                                           std::vector<ExactChannel>& exact,
                                           const FormatTraits& data, Result& r) {
  for (std::int64_t n = n0; n < n1; ++n) {
    const auto row = static_cast<std::size_t>(n * c.channel + b0);
    std::size_t j = 0;
    for (const LaneGroup& g : groups) {
      for (; j < g.first; ++j) {
        if (k[j].tiered) dx_element(c, n, row, j, k, exact, data, r);
      }
      const unsigned decided = dx_lanes(c, g.k, row + g.first, data, r);
      for (std::size_t l = 0; l < kLanes; ++l, ++j) {
        if ((decided >> l & 1) == 0) dx_element(c, n, row, j, k, exact, data, r);
      }
    }
    for (; j < k.size(); ++j) {
      if (k[j].tiered) dx_element(c, n, row, j, k, exact, data, r);
    }
  }
}

// A case of one channel (a column: bngcert's blocks of a tall dump) has its
// rows side by side: four rows in lanes, its constants in every lane; rows
// [n0, n1) here.
[[gnu::flatten]] void evaluate_column_in_lanes(const Case& c, std::int64_t n0, std::int64_t n1,
                                               const std::vector<DxChannel>& k,
                                               std::vector<ExactChannel>& exact,
                                               const FormatTraits& data, Result& r) {
  DxLanes lanes;
  for (std::size_t l = 0; l < kLanes; ++l) set_lane(lanes, l, k[0]);
  const auto batch = static_cast<std::size_t>(n1);
  auto n = static_cast<std::size_t>(n0);
  for (; n + kLanes <= batch; n += kLanes) {
    const unsigned decided = dx_lanes(c, lanes, n, data, r);
    for (std::size_t l = 0; l < kLanes; ++l) {
      const auto i = static_cast<std::int64_t>(n + l);
      if ((decided >> l & 1) == 0) dx_element(c, i, n + l, 0, k, exact, data, r);
    }
  }
  for (; n < batch; ++n) dx_element(c, static_cast<std::int64_t>(n), n, 0, k, exact, data, r);
}

// One block of channels once its sums are known: its dbias and dscale
// written, its channels with NaN or ±Inf inputs written in full by the exact
// path, and what the dx loops need for the others.
struct PreparedBlock {
  std::int64_t b0 = 0;
  std::vector<DxChannel> k;
  std::vector<ExactChannel> exact;
  std::vector<LaneGroup> groups;  // where the lanes run on rows of several channels
  bool column = false;            // a case of one channel, its rows in lanes
};

PreparedBlock prepare_block(const Case& c, std::int64_t b0, std::int64_t b1, Result& r) {
  const auto width = static_cast<std::size_t>(b1 - b0);
  const auto m = static_cast<std::uint64_t>(c.batch);
  std::vector<ChannelAccumulators> acc(width);
  std::int64_t since_carry = 0;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    const auto row = static_cast<std::size_t>(n * c.channel + b0);
    for (std::size_t j = 0; j < width; ++j) {
      add_element(acc[j], c.x[row + j], c.dy[row + j], c.mean[static_cast<std::size_t>(b0) + j]);
    }
    if (++since_carry == kCarryInterval) {
      for (auto& a : acc) a.propagate_carries();
      since_carry = 0;
    }
  }

  PreparedBlock b;
  b.b0 = b0;
  b.exact.reserve(width);
  b.k.resize(width);
  for (std::size_t j = 0; j < width; ++j) {
    const std::int64_t ch = b0 + static_cast<std::int64_t>(j);
    const auto ci = static_cast<std::size_t>(ch);
    b.exact.emplace_back(c, ch, r);
    const bool stats_finite =
        std::isfinite(c.mean[ci]) && std::isfinite(c.invar[ci]) && std::isfinite(c.scale[ci]);
    if (!acc[j].finite || !stats_finite) {
      // NaN or ±Inf among the inputs: the exact path sorts out which outputs they reach.
      b.exact[j].run();
      r.exact_fallbacks += c.batch + 2;
      continue;
    }
    ChannelSums sums = exact_sums(acc[j], c.mean[ci]);
    b.k[j] = dx_constants(sums, c.invar[ci], c.scale[ci], m);
    b.k[j].mean = c.mean[ci];
    b.exact[j].adopt(std::move(sums));
    r.dbias[ci] = b.exact[j].dbias();
    r.dscale[ci] = b.exact[j].dscale();
  }
  if (tiered_uses_lanes()) {
    b.column = c.channel == 1 && in_lanes(c, b.k[0]);
    if (!b.column) b.groups = lane_groups(c, b.k);
  }
  return b;
}

// The block's dx of rows [n0, n1).
void evaluate_dx(const Case& c, PreparedBlock& b, std::int64_t n0, std::int64_t n1,
                 const FormatTraits& data, Result& r) {
  if (b.column) {
    evaluate_column_in_lanes(c, n0, n1, b.k, b.exact, data, r);
    return;
  }
  if (!b.groups.empty()) {
    evaluate_dx_in_lanes(c, b.b0, n0, n1, b.k, b.groups, b.exact, data, r);
    return;
  }
#ifdef BNG_FMA_DISPATCH
  static const bool fma = tiered_uses_fma();
  if (fma) {
    evaluate_dx_fma(c, b.b0, n0, n1, b.k, b.exact, data, r);
    return;
  }
#endif
  evaluate_dx_portable(c, b.b0, n0, n1, b.k, b.exact, data, r);
}

// Rows a chunk handed to RowsReady holds: about kChunkOutputs outputs (their
// Expected, 64 bytes each, and the inputs behind them stay in a 1 MiB L2
// cache until the caller has judged them), a multiple of the lanes.
constexpr std::int64_t kChunkOutputs = 4096;

// Channels whose prepared blocks (PreparedBlock: constants and the exact
// fall-back's state, about a kilobyte a channel) are kept while the chunks
// run; a wider case is computed block by block and handed over at once.
constexpr std::int64_t kMaxChunkedChannels = 1024;

std::int64_t rows_per_chunk(std::int64_t channels) {
  return std::max<std::int64_t>(kLanes, kChunkOutputs / channels / kLanes * kLanes);
}

}  // namespace

bool tiered_uses_fma() {
#ifdef BNG_FMA_DISPATCH
  const char* setting = std::getenv("BNG_REFERENCE_FMA");
  return !(setting && std::string_view(setting) == "off") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

void compute_tiered(const Case& c, std::int64_t c_begin, std::int64_t c_end, Result& r) {
  const FormatTraits data = traits(data_format(c.combo));
  for (std::int64_t b0 = c_begin; b0 < c_end; b0 += kBlockWidth) {
    // Block by block, each block's rows read again while they are in the cache.
    PreparedBlock b = prepare_block(c, b0, std::min(c_end, b0 + kBlockWidth), r);
    evaluate_dx(c, b, 0, c.batch, data, r);
  }
}

void compute_tiered(const Case& c, Result& r, const RowsReady& rows_ready) {
  const std::int64_t rows = rows_per_chunk(c.channel);
  if (c.batch <= rows || c.channel > kMaxChunkedChannels) {
    // One chunk (a short case) or too many channels to keep all prepared
    // (about a kilobyte each, PreparedBlock): block by block,
    // all rows handed over at the end.
    compute_tiered(c, 0, c.channel, r);
    rows_ready(0, c.batch);
    return;
  }
  const FormatTraits data = traits(data_format(c.combo));
  std::vector<PreparedBlock> blocks;
  blocks.reserve(static_cast<std::size_t>((c.channel + kBlockWidth - 1) / kBlockWidth));
  for (std::int64_t b0 = 0; b0 < c.channel; b0 += kBlockWidth) {
    blocks.push_back(prepare_block(c, b0, std::min(c.channel, b0 + kBlockWidth), r));
  }
  for (std::int64_t n0 = 0; n0 < c.batch; n0 += rows) {
    const std::int64_t n1 = std::min(c.batch, n0 + rows);
    for (PreparedBlock& b : blocks) evaluate_dx(c, b, n0, n1, data, r);
    rows_ready(n0, n1);
  }
}

}  // namespace bng::ref
