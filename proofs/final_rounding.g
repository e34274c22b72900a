# The final rounding of a result t into the output format (docs/accuracy.md §4;
# output_rounding.hpp, lane_kernels/store-inl.h try_store):
# 1. The limits. F16Limits/F32Limits: MAX is the largest finite value, from
#    rounds_to_inf = MAX + ulp_top/2 on round-to-nearest-even gives Inf (ties
#    included), overflow = MAX + ulp_top = 2^(emax+1); round_to_half and
#    round_to_float clamp MAX < |t| < overflow to +-MAX. Checked: those
#    identities, that rounding gives MAX below rounds_to_inf (so the clamp
#    only acts where rounding would give Inf or MAX) and 2^(emax+1) from it.
# 2. The AVX-512 binary16 store of a binary64 t (try_store): round to odd into
#    binary32 (w), then to nearest-even into binary16 (y). Gappa proves
#    |w - t| <= 2^-23 |t| for normal binary32 magnitudes and <= 2^-149 below.
#    Then, as y is a nearest binary16 value to w, for any binary16 f nearest
#    to y*: |y - y*| <= |f - w| + |w - t| + E <= 1/2 ulp(y*) + 2E + 2|w - t|,
#    and 2|w - t| <= 2^-22 (|y*| + E) + 2^-148, where 2^-22 |y*| + 2^-148 is
#    below the half ulp(y*) that §4 leaves (ulp(y*) > 2^-11 |y*| for a normal
#    binary16 y*, = 2^-24 below 2^-14): |y - y*| <= ulp(y*) + (2 + 2^-22) E,
#    without Boldo and Melquiond's theorem (which gives the correctly rounded
#    result, so 2E). Checked: alpha of hp and mp covers (2 + 2^-22) E for the
#    binary64 results that take this store (dx, dbias, dscale: at most
#    (L + 9) u (1 + 2^-40), dx_binary64_total.g) and for inference's binary32
#    pair sums (pass1_binary32_pairs_total.g).
# The AVX2 path's round_to_half_precision and the portable double_to_half_rn
# are single correct roundings, checked exhaustively by
# tests/kernels/rounding_test.cpp (Gappa cannot prove the add-and-remove
# trick), so they need no more than §4's 2E.

@r16 = float<11, -24, ne>;
@r32 = float<ieee_32, ne>;
@o32 = float<ieee_32, od>;

u = 0x1p-53;
v = 0x1p-24;
L = @BLOCK_ROWS@;
E64 = (L + 9) * u * (1 + 0x1p-40);
E_pairs = (3 * v + 0x1.12p-47) * (1 + 0x1p-22);

w = o32(t);
wz = o32(z);
h_clamp = r16(th);
h_inf = r16(@HALF_ROUNDS_TO_INF@);
f_clamp = r32(tf);
f_inf = r32(@FLOAT_ROUNDS_TO_INF@);

{ |t| in [0x1.0000000000001p-126, 65520] /\ |z| <= 0x1p-126
  /\ th in [@HALF_MAX@, @HALF_BELOW_ROUNDS_TO_INF@]
  /\ tf in [@FLOAT_MAX@, @FLOAT_BELOW_ROUNDS_TO_INF@]
  ->
     @HALF_MAX@ in [65504, 65504] /\ @HALF_ROUNDS_TO_INF@ - @HALF_MAX@ in [16, 16]
  /\ @HALF_OVERFLOW@ - @HALF_MAX@ in [32, 32] /\ @HALF_OVERFLOW@ in [0x1p16, 0x1p16]
  /\ @FLOAT_MAX@ in [0x1.fffffep127, 0x1.fffffep127]
  /\ @FLOAT_ROUNDS_TO_INF@ - @FLOAT_MAX@ in [0x1p103, 0x1p103]
  /\ @FLOAT_OVERFLOW@ - @FLOAT_MAX@ in [0x1p104, 0x1p104]
  /\ h_clamp - @HALF_MAX@ in [0, 0] /\ h_inf - @HALF_OVERFLOW@ in [0, 0]
  /\ f_clamp - @FLOAT_MAX@ in [0, 0] /\ f_inf - @FLOAT_OVERFLOW@ in [0, 0]
  /\ |w -/ t| <= claim{0x1p-23} /\ |wz - z| <= claim{0x1p-149}
  /\ 0x1p-25 - (0x1p-22 * 0x1p-14 + 0x1p-148) >= 0
  /\ @ALPHA_BINARY16_DATA@ - (2 + 0x1p-22) * E64 >= 0
  /\ @ALPHA_BINARY16_DATA@ - (2 + 0x1p-22) * E_pairs >= 0 }
