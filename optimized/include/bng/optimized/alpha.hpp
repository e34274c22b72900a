// The error bound alpha each kernel declares (SPEC §5): an output passes when
// |y - y*| <= 1 ulp(y*) + alpha * M. Derived in docs/accuracy.md, not fitted.
// Used by properties/ and bngcert as the kernels' own claim.
//
// Every kernel computes dbias, dscale and inference dx in binary64 (with
// fused multiply-adds) with blocks of L = 128 rows summed per lane and block
// totals added by TwoSum; before the final rounding its result t is within
// (L + 9) * 2^-53 * M (1 + 2^-40) of y* (dx of training, the worst output;
// dbias (L+1.04), dscale (L+4), inference dx 1), and the final rounding at
// most doubles that on top of half an ulp:
// alpha = 2 * 137 * 2^-53 * (1 + 2^-40) < 2^-44.9 <= 2^-44.
// On binary16 data (hp, mp) dx is computed in binary32 from the binary64
// coefficients rounded to binary32: t within (3 * 2^-24 + 2^-45) * M (1 + 2^-22)
// of y* for training (2 * 2^-24 * M for inference), so
// alpha = 2 * (3 * 2^-24 + 2^-45) * (1 + 2^-22) < 2^-21.41 <= 2^-21, inside their bar of 2^-20.
// Their inference sums pairs of rows in binary32 first: dbias and dscale within
// (3 * 2^-24 + 2^-46.9) * M (1 + 2^-22), alpha < 2^-22.41 for those outputs.
// Valid for batch <= 2^30.
#pragma once

namespace bng::opt {
namespace ft78ne {
inline constexpr double alpha_fp = 0x1p-44;
}  // namespace ft78ne
namespace mt7004 {
inline constexpr double alpha_fp = 0x1p-44;
inline constexpr double alpha_hp = 0x1p-21;
inline constexpr double alpha_mp = 0x1p-21;

// The alpha of the kernel for a type combination: the one lookup every user
// of these constants calls. Generic over the enum (bng::Combo of the
// reference) so that the kernels need not depend on the reference.
template <class ComboEnum>
constexpr double alpha(ComboEnum c) {
  switch (c) {
    case ComboEnum::fp:
      return alpha_fp;
    case ComboEnum::hp:
      return alpha_hp;
    case ComboEnum::mp:
      return alpha_mp;
  }
  return 0;
}
}  // namespace mt7004
}  // namespace bng::opt
