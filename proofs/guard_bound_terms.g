# The guard's run-time error bound e, as batchnorm_driver.hpp evaluates it in
# binary64 (docs/accuracy.md §4.1), term by term:
#   dbias:   e = K * Sb                                  (combine: sums_error * mb)
#   dscale:  e = K * (|invar| * Ss)
#   dx:      e = t1 + t2 + t3 (DxBound::bound, added left to right), with
#            ka = K * |a|,  t1 = ka * |dy|,  t2 = ka * Sb / m,
#            t3 = |d| * (K * (|a| * |invar|) * (|invar| * Ss) / m)
# K = kErrorPerMagnitude (kErrorPerMagnitudeBinary32Sums for inference's
# dbias and dscale on binary16 data: the same operations). Sb, Ss are the
# magnitude sums, within a relative 2^-22 of sum |dy| and sum |dy| |x - mean|
# (pass1_binary64_step.g's lemma over at most 2^30 + 2^18 additions of
# non-negative terms; guard_constants.g checks gamma_N <= 2^-22), and
# |d| = |x - mean| (1 + dd), |dd| <= u. All inputs are non-negative; their
# ranges are §1's (a = scale * invar >= 2^-298, invar >= 2^-149, sums of
# magnitudes >= 2^-149 and 2^-298 when not zero; zero ones give zero terms).
# Claim: every term is within a relative (1 + u)^k (1 + 2^-22) - 1 of its exact
# value (written with the code's association), k <= 7 roundings (the |d| one included), except where the last
# product of t3 falls below 2^-1022, where it adds at most 2^-1075 absolute -
# nothing beside K M >= 2^-31 where the guard is consulted (|t| >= 2^16). The
# two additions of the non-negative t1, t2, t3 add a rounding each (the lemma
# of pass1_binary64_step.g), so e is within (1 + u)^9 (1 + 2^-22) - 1 of K M
# and of K M_b, K M_s; guard_constants.g takes it from there.

@rnd = float<ieee_64, ne>;

K = @ERROR_PER_MAGNITUDE@;
K2 = @ERROR_PER_MAGNITUDE_BINARY32_SUMS@;

e_b = rnd(K * sb);
e_s = rnd(K * rnd(iv * ss));
e2_b = rnd(K2 * sb);
e2_s = rnd(K2 * rnd(iv * ss));
ka = rnd(K * aa);
t1 = rnd(ka * ady);
t2 = rnd(rnd(ka * sb) / m);
c3 = rnd(rnd(rnd(K * rnd(aa * iv)) * rnd(iv * ss)) / m);
t3 = rnd(ad * c3);

{ aa in [0x1p-298, 0x1p256] /\ iv in [0x1p-149, 0x1p128] /\ ady in [0x1p-149, 0x1p128]
  /\ SB in [0x1p-149, 0x1p160] /\ SS in [0x1p-298, 0x1p420] /\ m in [1, 0x1p30]
  /\ AD in [0x1p-149, 0x1p129]
  /\ |sb -/ SB| <= 0x1p-22 /\ |ss -/ SS| <= 0x1p-22 /\ |ad -/ AD| <= 0x1p-53
  /\ ad * c3 in [0x1.0000000000001p-1022, 0x1p1023]
  ->
     |e_b -/ (K * SB)| <= claim{0x1.00000003p-22}
  /\ |e_s -/ (K * (iv * SS))| <= claim{0x1.00000005p-22}
  /\ |e2_b -/ (K2 * SB)| <= claim{0x1.00000003p-22}
  /\ |e2_s -/ (K2 * (iv * SS))| <= claim{0x1.00000005p-22}
  /\ |t1 -/ (K * aa * ady)| <= claim{0x1.0000000000001p-52}
  /\ |t2 -/ (K * aa * SB / m)| <= claim{0x1.00000007p-22}
  /\ |t3 -/ (AD * ((K * (aa * iv)) * (iv * SS) / m))| <= claim{0x1.0000000Fp-22} }
