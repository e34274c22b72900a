# Pass 1 in binary64, one step of each running sum (docs/accuracy.md §2; the
# per-step lemma of the induction of §6). lane_kernels/reduce-inl.h, reduce_rows:
#   d  = x - mean                      ( hn::Sub / scalar -  )
#   sb = sb + dy                       ( block sum of dbias )
#   ss = fma(dy, d, ss)                ( block sum of dscale: one rounding )
#   ab = ab + |dy|, as = fma(|dy|, |d|, as)   ( the guard's magnitudes, §4.1 )
# and the TwoSum/lo additions and the per-channel combination, which are
# binary64 additions of the same kind of values; then, once per channel,
#   ds = (hs + ls) * invar             ( dscale: one rounding )
# Inputs x, dy, mean are binary32 or binary16 values: multiples of 2^-149 below
# 2^128. A dbias sum is then a multiple of 2^-149, a dscale sum of 2^-298, and
# all stay below 2^416 (§1, batch <= 2^30). Claim: every step rounds once with a relative
# error of at most u = 2^-53 (no underflow: the result is exact or normal) and
# keeps its sum on the same grid - the invariant that carries the induction
# over up to 2^24 rows (2^30 for §4.1).

@rnd = float<ieee_64, ne>;

d = rnd(x - mu);
sb1 = rnd(sb + dy);
ss1 = rnd(dy * d + ss);
ab1 = rnd(ab + |dy|);
as1 = rnd(|dy| * |d| + as);
ds = rnd(ss * iv);

{ @FIX(x, -149) /\ @FIX(dy, -149) /\ @FIX(mu, -149)
  /\ |x| <= 0x1.fffffep127 /\ |dy| <= 0x1.fffffep127 /\ |mu| <= 0x1.fffffep127
  /\ @FIX(sb, -149) /\ |sb| <= 0x1p416 /\ @FIX(ab, -149) /\ ab in [0, 0x1p416]
  /\ @FIX(ss, -298) /\ |ss| <= 0x1p416 /\ @FIX(as, -298) /\ as in [0, 0x1p416]
  /\ @FIX(iv, -149) /\ |iv| <= 0x1.fffffep127
  ->
     |d -/ (x - mu)| <= claim{0x1p-53} /\ @FIX(d, -149)
  /\ |sb1 -/ (sb + dy)| <= claim{0x1p-53} /\ @FIX(sb1, -149)
  /\ |ss1 -/ (dy * d + ss)| <= claim{0x1p-53} /\ @FIX(ss1, -298)
  /\ |ab1 -/ (ab + |dy|)| <= claim{0x1p-53} /\ @FIX(ab1, -149)
  /\ |as1 -/ (|dy| * |d| + as)| <= claim{0x1p-53} /\ @FIX(as1, -298)
  /\ |ds -/ (ss * iv)| <= claim{0x1p-53} }
