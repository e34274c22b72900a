// The error bound alpha each kernel declares (SPEC §5): an output passes when
// |y - y*| <= 1 ulp(y*) + alpha * M. Derived in docs/accuracy.md, not fitted.
// Used by properties/ and bngcert as the kernels' own claim, through the
// target registry (targets.hpp).
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

// The alpha of the kernels that compute in binary64 (fp: binary32 data) and of
// those on binary16 data (hp, mp), as proved (proofs/, ctest -L proof). Which
// target has which kernels, and the alpha each declares, is the target
// registry's (bng/optimized/targets.inc); a target may declare a looser alpha,
// never a tighter one (static_assert in targets.hpp).
inline constexpr double kAlphaBinary64 = 0x1p-44;
inline constexpr double kAlphaBinary16Data = 0x1p-21;
// In the registry: the target has no such kernel (and exports none of its entry points).
inline constexpr double kNoKernel = 0;
// SPEC §5 lets a kernel declare correct rounding: every output whose
// reference RN(y*) is finite equals it bit for bit. Every kernel of the
// registry runs one algorithm and declares it, so far, for one class of
// outputs (docs/spec-notes.md #15): inference dx, rounded once on every path
// (docs/accuracy.md §2.2). Its other outputs keep their alpha (issue 24).
// For dx or not (dbias, dscale) of a training or inference call.
constexpr bool declares_correct_rounding(bool train, bool dx) {
  return dx && !train;
}

}  // namespace bng::opt
