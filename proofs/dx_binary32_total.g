# Binary16 data: dx in binary32 composed (docs/accuracy.md §3.1). With T1 = a dy,
# T2 = b, T3 = X k the binary64 terms (X = x - mean exact, b and k the binary64
# coefficients) and the binary32 steps
#   a' = a(1 + e1), b' = -b(1 + e2), c' = -k(1 + e3), d' = X(1 + e4),
#   q' = (a' dy + b')(1 + e5) + h5, t' = (d' c' + q')(1 + e6) + h6,
# algebra gives t' - (T1 - T2 - T3) = T1 p1 - T2 p2 - T3 p3 + (1 + e6) h5 + h6,
#   p1 = (1 + e1)(1 + e5)(1 + e6) - 1, p2 = (1 + e2)(1 + e5)(1 + e6) - 1,
#   p3 = (1 + e4)(1 + e3)(1 + e6) - 1,
# and, as in dx_binary64_total.g but with X exact (one rounding fewer),
#   T2 - (a/m) Yb = (a Mb/m) g2,  g2 = yb tb + rb beta_b (1 + tb),  |T2| <= (|a| Mb/m)(1 + beta_b)(1 + tb)
#   T3 - (a invar X/m) Ys = (a invar X Ms/m) g3,  g3 = ys tk + rs beta_s (1 + tk),
#                                                 |T3| <= (|a invar X| Ms/m)(1 + beta_s)(1 + tk)
# so |t' - y*| <= max(|p1|, |p2| h2 + |g2|, |p3| h3 + |g3|) M_dx + 2^-149.
# The ei (u'), h (2^-150), tb, tk come from coefficients_binary32.g,
# dx_binary32_step.g and coefficients_binary64.g; beta_b, beta_s from
# pass1_binary64_total.g. Checked: that max is within (3u' + 2^-45)(1 + 2^-22)
# (§3.1's E'), alpha of hp and mp covers 2E'(1 + 2^-44), and inference
# (t' = a' dy rounded: 2 roundings) 2((1 + u')^2 - 1); the absolute terms,
# twice 2^-149, stay far below the half ulp (>= 2^-25) that §4's rounding leaves.

u = 0x1p-53;
v = 0x1p-24;
L = @BLOCK_ROWS@;
gL = L * u / (1 - L * u);
beta_b = gL + u * (1 + 0x1p-5) * (1 + gL);
beta_s = u + beta_b * (1 + u) + u * (1 + u + beta_b * (1 + u));
E32 = claim{(3 * v + 0x1p-45) * (1 + 0x1p-22)};

p1 = (1 + e1) * (1 + e5) * (1 + e6) - 1;
p2 = (1 + e2) * (1 + e5) * (1 + e6) - 1;
p3 = (1 + e4) * (1 + e3) * (1 + e6) - 1;
g2 = yb * tb + rb * beta_b * (1 + tb);
g3 = ys * tk + rs * beta_s * (1 + tk);
h2 = (1 + beta_b) * (1 + tb);
h3 = (1 + beta_s) * (1 + tk);
pi = (1 + e1) * (1 + e2) - 1;

{ |e1| <= 0x1p-24 /\ |e2| <= 0x1p-24 /\ |e3| <= 0x1p-24 /\ |e4| <= 0x1p-24
  /\ |e5| <= 0x1p-24 /\ |e6| <= 0x1p-24
  /\ |tb| <= 0x1.0000000000004p-52 /\ |tk| <= 0x1.8000000000006p-52
  /\ |yb| <= 1 /\ |ys| <= 1 /\ |rb| <= 1 /\ |rs| <= 1
  ->
     E32 - |p1| >= 0
  /\ E32 - (|p2| * h2 + |g2|) >= 0
  /\ E32 - (|p3| * h3 + |g3|) >= 0
  /\ @ALPHA_BINARY16_DATA@ - 2 * E32 * (1 + 0x1p-44) >= 0
  /\ @ALPHA_BINARY16_DATA@ - 2 * |pi| >= 0 }
