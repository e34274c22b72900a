# Pass 1 in binary64: dbias and dscale before their final rounding, composed
# over a whole call (docs/accuracy.md §2). The induction (docs/accuracy.md §6)
# over the rows of a block, the TwoSum steps and the lo sum uses, per step, the
# lemma of pass1_binary64_step.g (one rounding, relative error <= u, no
# underflow) and the error-free TwoSum (Knuth; not proved here, see §6). This file checks the
# numeric inequalities the induction ends in, for L = kBlockRows
# (partition.hpp) at the largest batches:
#   N   <= m/L + 17*288         terms of the lo sum (blocks, partial blocks, combination)
#   2N^2u^2 bounds gamma_N * N u (1 + gamma_N)       (the lo sum's own error)
#   3N^2u <= 2^-17 (m = 2^24) and <= 2^-5 (m = 2^30)  (so t = fl(hi + lo) is within (u + 3N^2u^2))
#   beta_b = gamma_L + u(1 + 2^-5)(1 + gamma_L)                       <= (L + 1.04) u (1 + 2^-40)
#   beta_s = u + beta_b(1 + u) + u(1 + u + beta_b(1 + u))               <= (L + 4) u (1 + 2^-40)
# (beta_s: the rounding of d = x - mean, the sums, and the product by invar), and
# that the declared alpha of fp covers twice the larger, as §4 needs.

u = 0x1p-53;
L = @BLOCK_ROWS@;
gL = L * u / (1 - L * u);

N24 = 0x1p24 / L + 17 * 288;
gN24 = N24 * u / (1 - N24 * u);
N30 = 0x1p30 / L + 17 * 288;
gN30 = N30 * u / (1 - N30 * u);

beta_b = gL + u * (1 + 0x1p-5) * (1 + gL);
beta_s = u + beta_b * (1 + u) + u * (1 + u + beta_b * (1 + u));

{    claim{2 * N24 * N24 * u * u} - gN24 * N24 * u * (1 + gN24) >= 0
  /\ claim{2 * N30 * N30 * u * u} - gN30 * N30 * u * (1 + gN30) >= 0
  /\ claim{u + 3 * N24 * N24 * u * u} - (u * (1 + 2 * N24 * N24 * u * u) + 2 * N24 * N24 * u * u) >= 0
  /\ claim{u + 3 * N30 * N30 * u * u} - (u * (1 + 2 * N30 * N30 * u * u) + 2 * N30 * N30 * u * u) >= 0
  /\ claim{0x1p-17} - 3 * N24 * N24 * u >= 0
  /\ claim{0x1p-5} - 3 * N30 * N30 * u >= 0
  /\ claim{(L + 1.04) * u * (1 + 0x1p-40)} - beta_b >= 0
  /\ claim{(L + 4) * u * (1 + 0x1p-40)} - beta_s >= 0
  /\ @ALPHA_BINARY64@ - 2 * beta_s >= 0 }
