# The guard's one rounded test (guard_overflow, output_rounding.hpp;
# docs/accuracy.md §4.1): for a finite |t| >= 2^(emax+1) it keeps the overflow
# only if fl(|t| - e) > H = rounds_to_inf, else gives +-MAX. In the MAX case
# with |y*| > MAX, §4.1 needs |t| - e <= H + ulp_top/2, so that
# |y - y*| <= |t| + E - MAX <= ulp_top + e + E <= ulp(y*) + alpha M
# (guard_constants.g: e + E <= alpha M). Claim, for both output formats:
# fl(|t| - e) <= H implies |t| - e <= H + 2^-53 H (1 + 2^-52), and that
# margin is below ulp_top/2 = H - MAX. (The Inf case needs only monotony:
# fl(|t| - e) > H, H a binary64 value, implies |t| - e > H.)

@rnd = float<ieee_64, ne>;

Hh = @HALF_ROUNDS_TO_INF@;
Hf = @FLOAT_ROUNDS_TO_INF@;
rh = rnd(ah - eh);
rf = rnd(af - ef);

{ ah in [@HALF_OVERFLOW@, 0x1p1024] /\ eh in [0, 0x1p1024] /\ rh <= @HALF_ROUNDS_TO_INF@
  /\ af in [@FLOAT_OVERFLOW@, 0x1p1024] /\ ef in [0, 0x1p1024] /\ rf <= @FLOAT_ROUNDS_TO_INF@
  ->
     claim{0x1.0000000000001p-53 * Hh} - (ah - eh - Hh) >= 0
  /\ claim{0x1.0000000000001p-53 * Hf} - (af - ef - Hf) >= 0
  /\ (Hh - @HALF_MAX@) - 0x1.0000000000001p-53 * Hh >= 0
  /\ (Hf - @FLOAT_MAX@) - 0x1.0000000000001p-53 * Hf >= 0 }
