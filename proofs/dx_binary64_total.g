# Dx in binary64 (every fp kernel, and the binary64 lanes of hp and mp),
# composed (docs/accuracy.md §3). With X = x - mean exact, y* = a dy - (a/m) Yb
# - (a invar X/m) Ys and the computed
#   d = X(1 + dd), b = (a/m) DB (1 + tb), k = (a invar/m) DS (1 + tk),
#   q = (a dy - b)(1 + dq), t = (d nc + q)(1 + dt),   nc = -k,
#   DB = Yb + eb, DS = Ys + es   (pass 1: |eb| <= beta_b Mb, |es| <= beta_s Ms),
# algebra gives
#   t - y* = a dy f1 - (a Mb/m) f2 - (a invar X Ms/m) f3,
#   f1 = (1 + dq)(1 + dt) - 1
#   f2 = yb th2 + rb (1 + th2),   th2 = (1 + tb)(1 + dq)(1 + dt) - 1
#   f3 = ys th3 + rs (1 + th3),   th3 = (1 + dd)(1 + tk)(1 + dt) - 1
# with yb = Yb/Mb, ys = Ys/Ms in [-1, 1] and rb = eb/(beta_b Mb),
# rs = es/(beta_s Ms) in [-1, 1]; so
# |t - y*| <= max |fi| * M_dx (SPEC §5's M). The ranges of dd, dq, dt (u),
# tb (gamma_2) and tk (gamma_3) are what pass1_binary64_step.g,
# dx_binary64_step.g and coefficients_binary64.g prove; beta_b, beta_s are
# pass1_binary64_total.g's. Checked: max |fi| <= (L + 9) u (1 + 2^-40), and the
# declared alpha of fp covers twice it (§4), as it covers 2u for inference dx.

u = 0x1p-53;
L = @BLOCK_ROWS@;
gL = L * u / (1 - L * u);
beta_b = gL + u * (1 + 0x1p-5) * (1 + gL);
beta_s = u + beta_b * (1 + u) + u * (1 + u + beta_b * (1 + u));
E = claim{(L + 9) * u * (1 + 0x1p-40)};

f1 = (1 + dq) * (1 + dt) - 1;
th2 = (1 + tb) * (1 + dq) * (1 + dt) - 1;
f2 = yb * th2 + rb * beta_b * (1 + th2);
th3 = (1 + dd) * (1 + tk) * (1 + dt) - 1;
f3 = ys * th3 + rs * beta_s * (1 + th3);

{ |dd| <= 0x1p-53 /\ |dq| <= 0x1p-53 /\ |dt| <= 0x1p-53
  /\ |tb| <= 0x1.0000000000004p-52 /\ |tk| <= 0x1.8000000000006p-52
  /\ |yb| <= 1 /\ |ys| <= 1
  /\ |rb| <= 1 /\ |rs| <= 1
  ->
     E - |f1| >= 0 /\ E - |f2| >= 0 /\ E - |f3| >= 0
  /\ @ALPHA_BINARY64@ - 2 * E >= 0
  /\ @ALPHA_BINARY64@ - 2 * u >= 0 }
