# Inference on binary16 data: dbias and dscale of pass 1 with binary32 sums of
# H = kHalfSumRows rows (lane_kernels.hpp) before the binary64 sums of
# P = L / H group sums per block (docs/accuracy.md §2.1). Per step: the
# binary32 lemma of pass1_binary32_pairs_step.g and the binary64 one of
# pass1_binary64_step.g; the binary64 part composes as in
# pass1_binary64_total.g, with P values per block instead of L. A group sum has
# H - 1 roundings for dbias and H + 1 for dscale (d, then one FMA a row): the
# products below are written out for H = 2, which the goal pins, so that
# another kHalfSumRows fails here until this file follows it. (Higham's
# gamma'_3 = 3u'/(1 - 3u') would not do: it exceeds the 3u'(1 + 2^-22) of §2.1.)
# (0x1.12p-47 = 68.5 * 2^-53 stands for the 2^-46.9 of §2.1, which it is below.)
# Checked: the bounds §2.1 states, alpha of hp and mp against twice the larger
# (the final rounding of §4), and the guard's constant K'
# (kErrorPerMagnitudeBinary32Sums) against both sides of §4.1's condition:
#   E <= K'(1 - 2^-21) M   and   K'(1 + 2^-21) M <= alpha M / 2.

u = 0x1p-53;
v = 0x1p-24;
L = @BLOCK_ROWS@;
H = @HALF_SUM_ROWS@;
P = L / H;
gP = P * u / (1 - P * u);
g_b = v;
g_s = (1 + v) * (1 + v) * (1 + v) - 1;

# binary64 part, relative to the sum of the group sums' magnitudes
beta = gP + u * (1 + 0x1p-5) * (1 + gP);
E_b = g_b + beta * (1 + g_b);
c_s = g_s + beta * (1 + g_s);
E_s = c_s + u * (1 + c_s);

K2 = @ERROR_PER_MAGNITUDE_BINARY32_SUMS@;

{    H in [2, 2]
  /\ claim{3 * v * (1 + 0x1p-22)} - g_s >= 0
  /\ claim{v + 0x1.12p-47} - E_b >= 0
  /\ claim{(3 * v + 0x1.12p-47) * (1 + 0x1p-22)} - E_s >= 0
  /\ @ALPHA_BINARY16_DATA@ - 2 * E_s >= 0
  /\ K2 * (1 - 0x1p-21) - E_s >= 0
  /\ K2 * (1 - 0x1p-21) - E_b >= 0
  /\ @ALPHA_BINARY16_DATA@ / 2 - K2 * (1 + 0x1p-21) >= 0 }
