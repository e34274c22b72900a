# Binary16 data: the per-lane binary32 values of dx in binary32
# (docs/accuracy.md §3.1; binary32_coefficients.hpp, lane_kernels/coefficients-inl.h):
#   a' = narrow_coefficient(a), b' = narrow_coefficient(-b), c' = narrow_coefficient(-k):
#        the binary64 value rounded to binary32 when it is zero or
#        kFloatMinNormal <= |v| < F32Limits::rounds_to_inf, else NaN (binary64 path)
#   mu' = mean in binary32                              (mean32)
# Round-to-nearest-even is odd-symmetric, so v is taken positive.
# Gappa's binary32 has no largest value: a result below 2^128 is a finite
# binary32 number (at most 0x1.fffffep127), which is how finiteness is stated.
# Claim: a kept coefficient is finite and within u' = 2^-24 (relative) of v,
# and mu' is exact (d' = x - mu' is in dx_binary32_step.g).

@r32 = float<ieee_32, ne>;

c = r32(v);
c_low = r32(@FLOAT_MIN_NORMAL@);
mu32 = r32(mu);

{ v in [@FLOAT_ABOVE_MIN_NORMAL@, @FLOAT_BELOW_ROUNDS_TO_INF@]
  /\ @FLT(mu, 24) /\ @FIX(mu, -149) /\ |mu| <= @FLOAT_MAX@
  ->
     |c -/ v| <= claim{0x1p-24} /\ c <= 0x1.ffffffffp127
  /\ c_low - @FLOAT_MIN_NORMAL@ in [0, 0]
  /\ mu32 - mu in [0, 0] }
