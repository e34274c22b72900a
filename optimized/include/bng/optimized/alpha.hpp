// The error bound alpha each kernel declares (SPEC §5): an output passes when
// |y - y*| <= 1 ulp(y*) + alpha * M. Derived in docs/accuracy.md, not fitted.
// Used by properties/ and bngcert as the kernels' own claim.
#pragma once

namespace bng::opt {
namespace ft78ne {
inline constexpr double alpha_fp = 0x1p-40;  // TODO(compute): derive; see docs/accuracy.md
}  // namespace ft78ne
namespace mt7004 {
inline constexpr double alpha_fp = 0x1p-40;  // TODO(compute): derive
inline constexpr double alpha_hp = 0x1p-20;  // TODO(compute): derive
inline constexpr double alpha_mp = 0x1p-20;  // TODO(compute): derive
}  // namespace mt7004
}  // namespace bng::opt
