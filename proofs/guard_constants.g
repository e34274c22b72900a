# The overflow guard's constant K = kErrorPerMagnitude (output_rounding.hpp)
# against the two conditions of docs/accuracy.md §4.1, for every output that
# reaches the guard (binary64 results: fp, and the binary64 lanes, dbias and
# dscale of hp and mp):
#   E <= e:          (L + 9) u (1 + 2^-40) M <= K (1 - 2^-21) M <= e
#   e <= alpha M/2:  e <= K (1 + 2^-21) M <= alpha M / 2
# where e is within (1 + u)^9 (1 + 2^-22) of K M (guard_bound_terms.g), and
# the 2^-22 is gamma_(N+2) of the magnitude sums over N <= 2^30 + 2^18
# additions (the largest batch §4 allows, plus the combination). E is the
# largest error bound of dx_binary64_total.g (dbias and dscale have less,
# pass1_binary64_total.g). kErrorPerMagnitudeBinary32Sums has the same two
# checks against §2.1's bound in pass1_binary32_pairs_total.g, with the same
# factor 1 +- 2^-21 checked here.

u = 0x1p-53;
L = @BLOCK_ROWS@;
K = @ERROR_PER_MAGNITUDE@;
E64 = (L + 9) * u * (1 + 0x1p-40);
N = 0x1p30 + 0x1p18 + 2;
gN = N * u / (1 - N * u);
rho = (1 + u) * (1 + u) * (1 + u) * (1 + u) * (1 + u) * (1 + u) * (1 + u) * (1 + u) * (1 + u)
      * (1 + 0x1p-22) - 1;

{    claim{0x1p-22} - gN >= 0
  /\ claim{0x1p-21} - rho >= 0
  /\ K * (1 - 0x1p-21) - E64 >= 0
  /\ @ALPHA_BINARY64@ / 2 - K * (1 + 0x1p-21) >= 0
  /\ @ALPHA_BINARY16_DATA@ / 2 - K * (1 + 0x1p-21) >= 0 }
