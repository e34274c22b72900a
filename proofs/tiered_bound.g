# The tiered reference's error bound (reference/src/tiered.cpp, training_dx;
# docs/reference.md, "The tiered path"). Not about the kernels: about the judge.
#
# Training dx is y* = sv * (dy - A* - xm * B*) with sv = scale*invar and xm =
# x - mean exact (two_sum), A* = S1/m and B* = invar^2 S2/m exact rationals,
# and M = |sv| (|dy| + A_abs* + |xm| B_abs*) its magnitude (SPEC §5), A_abs* >=
# |A*|, B_abs* >= |B*|. The code evaluates, in double-word arithmetic,
#   A = A*(1 + ea), B = B*(1 + eb)          double_word_of: |e| <= 2^-105 (1 + 2^-10)
#   z1 = (dy - A)(1 + e1)                    plus_fp   (JMP Alg. 4):  |e1| <= 2u^2
#   t  = (xm * B)(1 + e2)                    times_dw  (JMP Alg. 12): |e2| <= 5u^2
#   z  = (z1 - t)(1 + e3)                    plus_dw   (JMP Alg. 6):  |e3| <= 3u^2 + 13u^3
#   y  = z * sv (1 + e4)                     times_fp  (JMP Alg. 9):  |e4| <= 2u^2
# with u = 2^-53 (Joldes, Muller, Popescu, ACM TOMS 44(2), 2017; the bounds
# hold without underflow, which the code keeps away with |z.hi| >= 2^-600 and
# covers with its own absolute terms). Dividing by |sv| (|dy| + A_abs* + |xm|
# B_abs*) puts d = dy/., a = A*/., p = xm B*/. in [-1, 1]; Gappa bounds
# |y - y*| / M (claim 1).
#
# The radius is R * mag.hi * (1 + S): mag, the same sum of non-negative terms
# evaluated alike, is at least M (1 - EQ)(1 - 5u^2)(1 - 3u^2 - 13u^3)(1 - 2u^2)
# (the worst of the factors its terms carry), and mag.hi >= mag / (1 + u)
# (|mag.lo| <= u |mag.hi|). Checked: that radius is at least claim 1's bound,
# for the code's R and S (tiered_bound.hpp). R a quarter of the code's (two
# bits tighter) must be rejected; a half still passes (2^-100 keeps a bit).

zs = d - a - p;
z1 = (d - a * (1 + ea)) * (1 + e1);
t = p * (1 + eb) * (1 + e2);
y = (z1 - t) * (1 + e3) * (1 + e4);
low = (1 - 0x1.004p-105) * (1 - 0x1.4p-104) * (1 - 0x1.80000000001p-105) * (1 - 0x1p-105)
      * (1 + @TIERED_MAGNITUDE_SLACK@) / (1 + 0x1p-53);

{ d in [-1, 1] /\ a in [-1, 1] /\ p in [-1, 1]
  /\ |ea| <= 0x1.004p-105 /\ |eb| <= 0x1.004p-105
  /\ |e1| <= 0x1p-105 /\ |e2| <= 0x1.4p-104 /\ |e3| <= 0x1.80000000001p-105 /\ |e4| <= 0x1p-105
  ->
     |y - zs| <= claim{0x1p-101}
  /\ @TIERED_RELATIVE_BOUND@ * low - 0x1p-101 >= 0 }

# The error, expanded (Gappa checks that the two sides are equal).
y - zs -> (d - a) * e1 - a * ea * (1 + e1) - p * (eb + e2 + eb * e2)
          + (z1 - t) * (e3 + e4 + e3 * e4);
