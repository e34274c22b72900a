# The per-channel coefficients of training dx, in binary64 (docs/accuracy.md
# §3; lane_kernels/coefficients-inl.h Prepare, combine-inl.h Combine, batchnorm_driver.hpp combine):
#   a  = scale * invar                  exact: two binary32 significands
#   b  = a * db / m                     two roundings
#   k  = a * invar * ds / m             three roundings (the kernel stores nc = -k)
# scale, invar (and mean) are binary32 or binary16 values, db = t_b and
# ds = fl(t_s * invar) come from pass 1, m is the batch (an integer, exact).
# Zero db or ds give b = 0 or k = 0 exactly; otherwise the magnitudes of §1
# (db a non-zero multiple of 2^-149, ds >= 2^-447, both below 2^416; m <= 2^30)
# keep every step normal. Round-to-nearest-even is odd-symmetric
# (rnd(-z) = -rnd(z)), so the signs of the inputs change no error: the proof
# takes them positive. Claim: a is exact, b is within gamma_2 and k within
# gamma_3 (relative) of their exact values from a, db, ds.

@rnd = float<ieee_64, ne>;

a = rnd(scale * iv);
b = rnd(rnd(a * db) / m);
k = rnd(rnd(rnd(a * iv) * ds) / m);

{ @FLT(scale, 24) /\ @FLT(iv, 24) /\ scale in [0x1p-149, 0x1p128] /\ iv in [0x1p-149, 0x1p128]
  /\ db in [0x1p-149, 0x1p416] /\ ds in [0x1p-447, 0x1p416] /\ m in [1, 0x1p30]
  ->
     a - scale * iv in [0, 0]
  /\ |b -/ (a * db / m)| <= claim{0x1.0000000000004p-52}
  /\ |k -/ (a * iv * ds / m)| <= claim{0x1.8000000000006p-52} }
