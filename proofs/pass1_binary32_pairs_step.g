# Inference on binary16 data, pass 1: the binary32 sums of a pair of rows
# (docs/accuracy.md §2.1; kHalfSumRows rows from the first row of each block).
# lane_kernels/reduce_half_infer-inl.h, infer_half_rows, from gb = gs = 0:
#   gb = gb + dy                        ( binary32 addition; 0 + dy1 is exact )
#   gs = fma(dy, x - mu, gs)            ( binary32 subtraction, binary32 FMA )
# x and dy are binary16 values (multiples of 2^-24, at most 65504); mu is the
# lane's sum_mean (binary32_coefficients.hpp): zero, or a binary32 value with
# kSumMeanMin <= |mu| <= kSumMeanMax - other lanes keep binary64 sums.
# Claim: no binary32 step underflows or overflows, so each rounds once with a
# relative error of at most u' = 2^-24; (1 + u')^3 - 1 <= 3u'(1 + 2^-22) is
# checked in pass1_binary32_pairs_total.g.

@rnd = float<ieee_32, ne>;

gb = rnd(dy1 + dy2);
d1 = rnd(x1 - mu);
d2 = rnd(x2 - mu);
gs1 = rnd(dy1 * d1);
gs2 = rnd(dy2 * d2 + gs1);
# mu = 0: d = x exactly.
hs1 = rnd(dy1 * x1);
hs2 = rnd(dy2 * x2 + hs1);

{ @FIX(x1, -24) /\ @FIX(x2, -24) /\ @FIX(dy1, -24) /\ @FIX(dy2, -24)
  /\ |x1| <= 65504 /\ |x2| <= 65504 /\ |dy1| <= 65504 /\ |dy2| <= 65504
  /\ @FLT(mu, 24) /\ |mu| in [@SUM_MEAN_MIN@, @SUM_MEAN_MAX@]
  ->
     |gb -/ (dy1 + dy2)| <= claim{0x1p-24} /\ |gb| <= claim{0x1p17}
  /\ |d1 -/ (x1 - mu)| <= claim{0x1p-24} /\ @FIX(d1, -100)
  /\ |d2 -/ (x2 - mu)| <= claim{0x1p-24} /\ @FIX(d2, -100)
  /\ |gs1 -/ (dy1 * d1)| <= claim{0x1p-24} /\ @FIX(gs1, -124)
  /\ |gs2 -/ (dy2 * d2 + gs1)| <= claim{0x1p-24} /\ @FIX(gs2, -124) /\ |gs2| <= claim{0x1p117}
  /\ |hs1 -/ (dy1 * x1)| <= claim{0x1p-24} /\ |hs2 -/ (dy2 * x2 + hs1)| <= claim{0x1p-24} }
