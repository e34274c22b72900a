# Binary16 data: dx in binary32, one element (docs/accuracy.md §3.1;
# lane_kernels/apply-inl.h DxHalfRows for training, infer1 and
# infer_half_vectors for inference):
#   d' = x - mu'                binary32 subtraction: one rounding
#   q' = fma(a', dy, b')        binary32 FMA: one rounding
#   t' = fma(d', c', q')        binary32 FMA: one rounding
#   t' = a' * dy                inference: one rounding
# a', b', c', mu' come from coefficients_binary32.g; x and dy are binary16
# values, mu' = mean a binary32 (hp: binary16) value, so x - mu' is a multiple
# of 2^-149 below 0x1.fffffep127 + 65504: d' is finite, and exact where it is
# a binary32 subnormal. Gappa's binary32 has no largest value: a result below
# 2^128 is a finite binary32 number, which is how finiteness is stated.
# Claim: each rounds with a relative error <= u' = 2^-24 where its exact
# result is a normal binary32 magnitude, and with an absolute one <= 2^-150
# below that (at 2^-126 itself, which rounds exactly, both hold; Gappa's
# relative-error theorem wants its interval above it). A result that
# overflows is +-Inf, never below 65520: the kernel then takes the lane to the
# binary64 path (dx_binary64_*.g), so only finite t' are used.

@r32 = float<ieee_32, ne>;

d = r32(x - mu);
q = r32(a * dy + b);
t = r32(d * c + q);
ti = r32(a * dy);
tz = r32(z);

{ @FIX(x, -24) /\ |x| <= 65504 /\ @FIX(mu, -149) /\ |mu| <= 0x1.fffffep127
  /\ |a * dy + b| in [0x1.0000000000001p-126, 0x1p128]
  /\ |d * c + q| in [0x1.0000000000001p-126, 0x1p128]
  /\ |a * dy| in [0x1.0000000000001p-126, 0x1p128]
  /\ |z| <= 0x1p-126
  ->
     |d -/ (x - mu)| <= claim{0x1p-24} /\ |d| <= 0x1.ffffffffp127
  /\ |q -/ (a * dy + b)| <= claim{0x1p-24}
  /\ |t -/ (d * c + q)| <= claim{0x1p-24}
  /\ |ti -/ (a * dy)| <= claim{0x1p-24}
  /\ |tz - z| <= claim{0x1p-150} }
