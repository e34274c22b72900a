# Dx in binary64, one element (docs/accuracy.md §3; lane_kernels/apply-inl.h DxRows,
# Apply, dx1; the inference store of Reduce, infer1):
#   d = x - mean                 ( pass1_binary64_step.g proves its rounding )
#   q = fma(a, dy, -b)           one rounding
#   t = fma(d, nc, q)            one rounding (nc = -k, coefficients_binary64.g)
#   t = a * dy                   inference: one rounding
# a = scale*invar is a multiple of 2^-298 below 2^256, dy and d multiples of
# 2^-149 below 2^129; b and k, when not zero, are binary64 values of magnitude
# >= 2^-924 and below 2^800 (§1, batch <= 2^30), so multiples of 2^-976. Round-to-nearest is odd-symmetric:
# b is taken positive (-b negative), which covers both signs of a*dy - b.
# Claim: q (and inference t) round with a relative error <= u and never
# underflow; t of training has a relative error <= u where d*nc + q is normal,
# and an absolute one <= 2^-1075 where it is not (the only binary64
# underflow of the kernels, §1; the two cases meet at 2^-1022, a value that
# rounds exactly, which the first case leaves to the second: Gappa's
# relative-error theorem wants its interval above the smallest normal).

@rnd = float<ieee_64, ne>;

q = rnd(a * dy - b);
q0 = rnd(a * dy);
t = rnd(d * nc + q);
tz = rnd(z);

{ @FIX(a, -298) /\ |a| <= 0x1p256 /\ @FIX(dy, -149) /\ |dy| <= 0x1p128
  /\ @FLT(b, 53) /\ b in [0x1p-924, 0x1p800]
  /\ @FIX(d, -149) /\ |d| <= 0x1p129 /\ @FLT(nc, 53) /\ |nc| in [0x1p-924, 0x1p800]
  /\ |d * nc + q| in [0x1.0000000000001p-1022, 0x1p1000]
  /\ |z| <= 0x1p-1022
  ->
     |q -/ (a * dy - b)| <= claim{0x1p-53}
  /\ |q0 -/ (a * dy)| <= claim{0x1p-53}
  /\ |t -/ (d * nc + q)| <= claim{0x1p-53}
  /\ |tz - z| <= claim{0x1p-1075} }
