// The tiered dx loop's quick tier in AVX2 lanes (see tiered_lanes.hpp).
//
// Each function below is the vector transcription of one scalar function of
// double_word.hpp, tiered.cpp or quick_rounding_test.hpp, named alike: the
// same binary64 operations on the same operands in the same order (negation,
// |.| and copysign on the sign bit, as the scalar code's), so every lane gives
// the scalar bits. A lane's short-circuited conditions are all evaluated and
// and-ed, which changes nothing: each is a pure function of the lane. Only
// the functions with the target attribute use AVX2; the file is compiled for
// the baseline ISA, and dispatch is at run time.
#include "tiered_lanes.hpp"

#include <cstdlib>
#include <string_view>

#include "quick_rounding_test.hpp"
#include "tiered_bound.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define BNG_TIERED_LANES 1
#endif

namespace bng::ref {

#ifdef BNG_TIERED_LANES
namespace {

#define BNG_LANE_FN [[gnu::target("avx2,fma"), gnu::always_inline]] inline

using V = __m256d;
using I = __m256i;

struct W {  // a double word in each lane
  V hi, lo;
};

BNG_LANE_FN V splat(double v) {
  return _mm256_set1_pd(v);
}
BNG_LANE_FN I splat64(std::int64_t v) {
  return _mm256_set1_epi64x(v);
}
BNG_LANE_FN V add(V a, V b) {
  return _mm256_add_pd(a, b);
}
BNG_LANE_FN V sub(V a, V b) {
  return _mm256_sub_pd(a, b);
}
BNG_LANE_FN V mul(V a, V b) {
  return _mm256_mul_pd(a, b);
}
BNG_LANE_FN V fma(V a, V b, V c) {  // std::fma: one rounding
  return _mm256_fmadd_pd(a, b, c);
}
BNG_LANE_FN V negate(V a) {
  return _mm256_xor_pd(a, splat(-0.0));
}
BNG_LANE_FN V abs(V a) {
  return _mm256_andnot_pd(splat(-0.0), a);
}
BNG_LANE_FN V copysign(V magnitude, V sign) {
  return _mm256_or_pd(abs(magnitude), _mm256_and_pd(sign, splat(-0.0)));
}
BNG_LANE_FN V both(V a, V b) {
  return _mm256_and_pd(a, b);
}
BNG_LANE_FN V as_mask(I m) {
  return _mm256_castsi256_pd(m);
}
// 2^k for k in [-1022, 1023] (power_of_two); other lanes' values are unused.
BNG_LANE_FN V power_of_two(I k) {
  return _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(k, splat64(1023)), 52));
}
BNG_LANE_FN V nearest_integer(V v) {  // quick::nearest_integer
  constexpr double kShifter = 0x1.8p52;
  return sub(add(v, splat(kShifter)), splat(kShifter));
}

// ---- double_word.hpp ---------------------------------------------------------

BNG_LANE_FN W negate(W x) {
  return {negate(x.hi), negate(x.lo)};
}
BNG_LANE_FN W two_sum(V a, V b) {
  const V s = add(a, b);
  const V bb = sub(s, a);
  return {s, add(sub(a, sub(s, bb)), sub(b, bb))};
}
BNG_LANE_FN W fast_two_sum(V a, V b) {
  const V s = add(a, b);
  return {s, sub(b, sub(s, a))};
}
BNG_LANE_FN W two_prod(V a, V b) {
  const V p = mul(a, b);
  return {p, fma(a, b, negate(p))};
}
BNG_LANE_FN W plus_fp(W x, V y) {
  const W s = two_sum(x.hi, y);
  return fast_two_sum(s.hi, add(x.lo, s.lo));
}
BNG_LANE_FN W plus_dw(W x, W y) {
  const W s = two_sum(x.hi, y.hi);
  const W t = two_sum(x.lo, y.lo);
  const W v = fast_two_sum(s.hi, add(s.lo, t.hi));
  return fast_two_sum(v.hi, add(t.lo, v.lo));
}
BNG_LANE_FN W times_fp(W x, V y) {
  const W c = two_prod(x.hi, y);
  return fast_two_sum(c.hi, fma(x.lo, y, c.lo));
}
BNG_LANE_FN W times_dw(W x, W y) {
  const W c = two_prod(x.hi, y.hi);
  const V tl0 = mul(x.lo, y.lo);
  const V tl1 = fma(x.hi, y.lo, tl0);
  const V cl2 = fma(x.lo, y.hi, tl1);
  return fast_two_sum(c.hi, add(c.lo, cl2));
}

// ---- quick_rounding_test.hpp -------------------------------------------------

// quick::binade_of: the mask of lanes it decides, e their binade.
BNG_LANE_FN V binade_of(W y, V r, I& e) {
  const V a = abs(y.hi);
  const V in_range = both(_mm256_cmp_pd(a, splat(quick::kQuickLow), _CMP_GE_OQ),
                          _mm256_cmp_pd(a, splat(quick::kQuickHigh), _CMP_LE_OQ));
  const I bits = _mm256_castpd_si256(a);
  e = _mm256_sub_epi64(_mm256_srli_epi64(bits, 52), splat64(1023));
  const V bottom = _mm256_castsi256_pd(_mm256_and_si256(bits, splat64(0x7ff0000000000000)));
  const V slack = add(abs(y.lo), r);
  const V twice = mul(splat(2), slack);
  return both(in_range, both(_mm256_cmp_pd(sub(a, bottom), twice, _CMP_GT_OQ),
                             _mm256_cmp_pd(sub(mul(splat(2), bottom), a), twice, _CMP_GT_OQ)));
}

// quick::clear_of_midpoints.
BNG_LANE_FN V clear_of_midpoints(V hi_scaled, V k, V lo_scaled, V r_scaled) {
  const V d = add(sub(hi_scaled, k), lo_scaled);
  const V left =
      add(add(mul(abs(d), splat(quick::kSumSlack)), r_scaled), splat(quick::kScaledSlack));
  return _mm256_cmp_pd(left, splat(0.5), _CMP_LT_OQ);
}

// quick::round_quickly: the mask of lanes it decides, rounded their RN(y*).
BNG_LANE_FN V round_quickly(W y, V r, I e, const FormatTraits& t, V& rounded) {
  const V over = as_mask(_mm256_cmpgt_epi64(e, splat64(t.emax)));
  const I emin = splat64(t.emin);
  const I e_clamped = _mm256_blendv_epi8(emin, e, _mm256_cmpgt_epi64(e, emin));
  const I qe = _mm256_sub_epi64(e_clamped, splat64(t.precision - 1));
  const V down = power_of_two(_mm256_sub_epi64(_mm256_setzero_si256(), qe));
  const V v = mul(y.hi, down);
  const V k = nearest_integer(v);
  const V clear = clear_of_midpoints(v, k, mul(y.lo, down), mul(r, down));
  const V mag = mul(abs(k), power_of_two(qe));
  const V inf = splat(HUGE_VAL);
  const V past_max = _mm256_cmp_pd(mag, splat(ref::power_of_two(t.emax + 1)), _CMP_GE_OQ);
  rounded = copysign(_mm256_blendv_pd(mag, inf, _mm256_or_pd(past_max, over)), y.hi);
  return _mm256_or_pd(over, clear);
}

// quick::round_wide_quickly up to wide_of: the mask of lanes it decides, k
// the integer wide_of takes.
BNG_LANE_FN V round_wide_quickly(W y, V r, I e, V& k) {
  const V up = power_of_two(_mm256_sub_epi64(splat64(63), e));
  const V toward = _mm256_blendv_pd(splat(1.0), splat(-1.0),
                                    _mm256_cmp_pd(y.hi, _mm256_setzero_pd(), _CMP_LT_OQ));
  const V lo_scaled = mul(mul(y.lo, up), toward);
  k = nearest_integer(lo_scaled);
  return clear_of_midpoints(lo_scaled, k, _mm256_setzero_pd(), mul(r, up));
}

// What a lane's quick test found, for the scalar finish.
struct Decided {
  alignas(32) double y_hi[kLanes], y_k[kLanes], rounded[kLanes];
  alignas(32) double m_hi[kLanes], m_k[kLanes];
  alignas(32) std::int64_t y_e[kLanes], m_e[kLanes];
};

// quick::decide_value_quickly up to its scalar finish.
BNG_LANE_FN V decide_value(W y, V r, const FormatTraits& t, Decided& d) {
  I e;
  const V in_binade = binade_of(y, r, e);  // e first: the others take it
  V rounded, k;
  const V value = round_quickly(y, r, e, t, rounded);
  const V wide = round_wide_quickly(y, r, e, k);
  _mm256_store_pd(d.y_hi, y.hi);
  _mm256_store_pd(d.y_k, k);
  _mm256_store_pd(d.rounded, rounded);
  _mm256_store_si256(reinterpret_cast<I*>(d.y_e), e);
  return both(in_binade, both(value, wide));
}

// quick::decide_magnitude_quickly up to its scalar finish.
BNG_LANE_FN V decide_magnitude(W m, V r, Decided& d) {
  I e;
  const V in_binade = binade_of(m, r, e);  // e first, as above
  V k;
  const V wide = round_wide_quickly(m, r, e, k);
  _mm256_store_pd(d.m_hi, m.hi);
  _mm256_store_pd(d.m_k, k);
  _mm256_store_si256(reinterpret_cast<I*>(d.m_e), e);
  return both(_mm256_cmp_pd(m.hi, _mm256_setzero_pd(), _CMP_GT_OQ), both(in_binade, wide));
}

// Expected of lane l (kind, rounded, exact, ulp), as decide_value_quickly writes it.
void finish_value(const Decided& d, int l, const FormatTraits& t, Expected& e) {
  const int binade = static_cast<int>(d.y_e[l]);
  e.kind = Kind::finite;
  e.rounded = d.rounded[l];
  e.exact = quick::wide_of(d.y_hi[l], d.y_k[l], binade);
  e.ulp = quick::ulp_at_binade(binade, t);
}

// tiered.cpp's training_dx.
[[gnu::target("avx2,fma")]] unsigned training_dx_avx2(const DxLanes& k, const double* x,
                                                      const double* dy, const FormatTraits& out,
                                                      Expected* e) {
  const V xv = _mm256_loadu_pd(x), dyv = _mm256_loadu_pd(dy);
  const W a{_mm256_loadu_pd(k.a_hi), _mm256_loadu_pd(k.a_lo)};
  const W b{_mm256_loadu_pd(k.b_hi), _mm256_loadu_pd(k.b_lo)};
  const W a_abs{_mm256_loadu_pd(k.a_abs_hi), _mm256_loadu_pd(k.a_abs_lo)};
  const W b_abs{_mm256_loadu_pd(k.b_abs_hi), _mm256_loadu_pd(k.b_abs_lo)};
  const W xm = two_sum(xv, negate(_mm256_loadu_pd(k.mean)));  // x - mean, exactly
  const W z1 = plus_fp(negate(a), dyv);
  const W z = plus_dw(z1, negate(times_dw(xm, b)));
  const V evaluated = _mm256_cmp_pd(abs(z.hi), splat(tiered_bound::kSmallestEvaluated), _CMP_GE_OQ);
  const W y = times_fp(z, _mm256_loadu_pd(k.sv));
  const V below = _mm256_cmp_pd(xm.hi, _mm256_setzero_pd(), _CMP_LT_OQ);
  const W xm_abs{_mm256_blendv_pd(xm.hi, negate(xm.hi), below),
                 _mm256_blendv_pd(xm.lo, negate(xm.lo), below)};
  const W mag = times_fp(plus_dw(plus_fp(a_abs, abs(dyv)), times_dw(xm_abs, b_abs)),
                         _mm256_loadu_pd(k.sv_abs));
  const V radius = add(mul(mul(mag.hi, splat(1 + tiered_bound::kMagnitudeSlack)),
                           splat(ref::power_of_two(tiered_bound::kRelativeLog2))),
                       _mm256_loadu_pd(k.underflow));
  Decided d;
  const V ok =
      both(evaluated, both(decide_value(y, radius, out, d), decide_magnitude(mag, radius, d)));
  const auto decided = static_cast<unsigned>(_mm256_movemask_pd(ok));
  for (int l = 0; l < kLanes; ++l) {
    if ((decided >> l & 1) == 0) continue;
    finish_value(d, l, out, e[l]);
    e[l].magnitude = quick::wide_of(d.m_hi[l], d.m_k[l], static_cast<int>(d.m_e[l]));
  }
  return decided;
}

// tiered.cpp's inference_dx (its zero case is left to the scalar loop: a zero
// product is outside the quick test's range).
[[gnu::target("avx2,fma")]] unsigned inference_dx_avx2(const double* sv, const double* dy,
                                                       const FormatTraits& out, Expected* e) {
  const W y = two_prod(_mm256_loadu_pd(sv), _mm256_loadu_pd(dy));  // exact
  Decided d;
  const V ok = decide_value(y, _mm256_setzero_pd(), out, d);
  const auto decided = static_cast<unsigned>(_mm256_movemask_pd(ok));
  for (int l = 0; l < kLanes; ++l) {
    if ((decided >> l & 1) == 0) continue;
    finish_value(d, l, out, e[l]);
    e[l].magnitude = std::fabs(e[l].exact);  // M = |y*|, and RN is symmetric
  }
  return decided;
}

}  // namespace

bool tiered_uses_lanes() {
  // The lanes are the FMA variant's too: BNG_REFERENCE_FMA=off turns both off.
  static const bool available = [] {
    const char* setting = std::getenv("BNG_REFERENCE_LANES");
    return tiered_uses_fma() && !(setting && std::string_view(setting) == "off") &&
           __builtin_cpu_supports("avx2");
  }();
  return available;
}

unsigned training_dx_lanes(const DxLanes& k, const double* x, const double* dy,
                           const FormatTraits& out, Expected* e) {
  return training_dx_avx2(k, x, dy, out, e);
}

unsigned inference_dx_lanes(const double* sv, const double* dy, const FormatTraits& out,
                            Expected* e) {
  return inference_dx_avx2(sv, dy, out, e);
}

#else  // no lanes on this architecture: the scalar loop decides everything

bool tiered_uses_lanes() {
  return false;
}

unsigned training_dx_lanes(const DxLanes&, const double*, const double*, const FormatTraits&,
                           Expected*) {
  return 0;
}

unsigned inference_dx_lanes(const double*, const double*, const FormatTraits&, Expected*) {
  return 0;
}

#endif

}  // namespace bng::ref
