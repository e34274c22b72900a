// The error bound alpha each kernel declares (SPEC §5): an output passes when
// |y - y*| <= 1 ulp(y*) + alpha * M. Derived in docs/accuracy.md, not fitted.
// Filled in by the compute kernels' author; used by properties/ and bngcert.
#pragma once
