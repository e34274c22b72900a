// The contract checks of SPEC §3-§5, one function each. Every check runs the
// shipped kernels through the runner and returns a readable reason for the
// first violation it finds — with a reproducer (shape, mask, offending inputs
// and outputs in hex and %a) — or an empty string when the contract holds.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "bng/properties/runner.hpp"
#include "bng/properties/target.hpp"
#include "bng/reference/case.hpp"
#include "bng/reference/reference.hpp"

namespace bng::prop {

// ---- accuracy (SPEC §5) --------------------------------------------------------

// Every output within 1·ulp(y*) + α·M of the exact reference, with SPEC §5's
// NaN/Inf rules, at α = declared_alpha(spec.target, spec.combo) — never looser;
// and RN(y*) itself where the kernel declares correct rounding
// (declares_correct_rounding).
std::string check_accuracy(const Case& c, const CallSpec& spec);
// The same against a reference already computed (bngcert computes it once per
// case and judges many calls); `alpha` must not exceed the declared one.
std::string check_accuracy(const Case& c, const CallSpec& spec, const ref::Result& expected,
                           const RunResult& got, double alpha);

// ---- bit-identity guarantees (SPEC §4) ---------------------------------------------

// Every call in `others` gives the bits `base` gives (NaN payloads and signs of
// zero included), and calling `base` twice gives the same bits.
std::string check_reproducible(const Case& c, const CallSpec& base,
                               const std::vector<CallSpec>& others);
// params form vs flat form of the same call (fp and hp; mp has no flat form).
std::string check_forms_identical(const Case& c, const CallSpec& spec);
// Replace column `channel` (x, dy, mean, invar, scale) by `poisoned` (its own
// values for that column) and require every output of every other channel to keep
// its bits.
std::string check_channel_isolation(const Case& c, const CallSpec& spec, std::int64_t channel,
                                    const Case& poisoned);
// dy·2^k gives every output ·2^k exactly. Precondition: scaling_applies(c, k).
std::string check_pow2_scaling(const Case& c, const CallSpec& spec, int k);
// SPEC §4's "no overflow or underflow anywhere": dy·2^k exact and normal (or 0),
// every reference output y* and its M, before and after scaling, normal (or 0)
// and at least 4× below the output format's maximum, and every nonzero partial
// term |dy|, |dy·xhat|, |scale·invar·dy| within [2^-100, 2^100] (binary32 range
// with room for the kernels' internal products).
bool scaling_applies(const Case& c, int k);
// dx == x and dx == dy (same start, same length) give the out-of-place bits.
std::string check_in_place(const Case& c, const CallSpec& spec, InPlace where);
// Every NaN output is the canonical quiet NaN (0x7fc00000, 0x7e00): the
// library's way to keep NaN bits independent of compiler and operand order
// (docs/spec-notes.md #12). Not a SPEC §5 accuracy rule: certify does not
// hold other libraries to it.
std::string check_canonical_nans(const Case& c, const CallSpec& spec);

// ---- status rules (SPEC §3) -------------------------------------------------------

// One way to break a call; each maps to the one status SPEC §3 requires.
enum class Fault : std::uint8_t {
  null_params,
  null_x,
  null_dy,
  null_dx,
  null_mean,
  null_invar,
  null_scale,
  null_dbias,
  null_dscale,
  batch_zero,
  batch_negative,
  channel_zero,
  channel_negative,
  size_overflow,
  flag_two,
  flag_negative,
  flag_wide,
  mask_zero,
  mask_bit_8,
  mask_high_bit,
  mask_negative,
  overlap_dx_x,
  overlap_dx_dy,
  overlap_dx_mean,
  overlap_dbias_dscale,
  overlap_dbias_invar,
  overlap_dscale_x,
  overlap_dx_dbias,
  misaligned_x,
  misaligned_dy,
  misaligned_dx,
  misaligned_mean,
  misaligned_invar,
  misaligned_scale,
  misaligned_dbias,
  misaligned_dscale,
  misaligned_params,
};
inline constexpr int kFaultCount = static_cast<int>(Fault::misaligned_params) + 1;
const char* fault_name(Fault f);
void showValue(Fault f, std::ostream& os);  // for RapidCheck's counterexample print
// The status SPEC §3 requires for the fault alone.
int expected_status(Fault f);
// Whether the fault can be expressed for the call: core-mask faults need _s,
// params faults (null/misaligned params, is_train beyond 32 bits) the params
// form, partial overlap of dx with x or dy at least two elements.
bool fault_applies(Fault f, const CallSpec& spec, const Case& c);

// The call with `faults` applied returns one of their statuses (SPEC §3: when
// several apply any one may be returned) and changes no byte of any buffer.
std::string check_status(const Case& c, const CallSpec& spec, const std::vector<Fault>& faults);
// Valid calls with overlapping inputs (x == dy, mean == invar == scale) succeed
// and match the reference: SPEC §3 lets inputs overlap each other.
std::string check_overlapping_inputs(const Case& c, const CallSpec& spec);

// ---- the exported surface (SPEC §2, §7) ----------------------------------------------

// The library's dynamic symbols are exactly spec_exports(t): no entry point of
// a kernel the registry does not give the target, and nothing but the C API.
std::string check_exports(Target t);
// bng_status_string: a distinct non-empty one-line message for every status.
std::string check_status_strings(Target t);

}  // namespace bng::prop
