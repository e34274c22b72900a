# mp inference dx (docs/accuracy.md §2.2; lane_kernels/half_infer_dx-inl.h
# watch_rounded_products): t = RN32(a32 * dy) with a32 = RN32(a), a the exact
# scale * invar, stands for y* = a * dy. By scaling with powers of two (exact
# while a32 stays normal, which narrow_coefficients ensures) a is in [1, 2].
# 1. a32 * dy in [1, 2] (every normal binary32 t, scaled): |t - y*| <=
#    3 * 2^-24 = 1.5 ulp32(t). A t that is not within MIDPOINT_MARGIN_ULPS
#    ulps of a binary16 midpoint m is at least MARGIN + 1 ulps from it (both
#    are on the grid of t's binade; midpoints are never next to a binade's
#    ends but for 2^-25, which case 2 covers), so y* is on t's side of every
#    midpoint and RN16(t) = RN16(y*).
# 2. |a32 * dy| <= 2^-14 (binary16 subnormal outputs, binary32 subnormal t
#    included): u = RN32(t + 2^-14) puts the binary16 grid (spacing 2^-24)
#    on the binade [2^-14, 2^-13) of spacing 2^-37; |u - (y* + 2^-14)| <=
#    5 * 2^-39 and |u - (t + 2^-14)| <= 2^-38, both below MARGIN + 1 grid
#    steps, so again y*, t and u are on one side of every midpoint.

@r32 = float<ieee_32, ne>;

M = @MIDPOINT_MARGIN_ULPS@;

a32 = r32(a);
t = r32(a32 * dy);
ts = r32(a32 * ds);
u = r32(ts + 0x1p-14);

{ a in [1, 2] /\ dy in [0.5, 2] /\ a32 * dy in [1, 2]
  /\ ds in [0, 0x1p-14] /\ a32 * ds in [0, 0x1p-14]
  ->
     |t - a * dy| <= claim{0x3p-24}
  /\ (M + 1) * 0x1p-23 - 0x3p-24 - 0x1p-60 >= 0
  /\ |u - (a * ds + 0x1p-14)| <= claim{0x5p-39}
  /\ |u - (ts + 0x1p-14)| <= claim{0x1p-38}
  /\ (M + 1) * 0x1p-37 - 0x5p-39 - 0x1p-60 >= 0 }
