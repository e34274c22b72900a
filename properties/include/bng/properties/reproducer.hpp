// Failure messages that reproduce themselves: the RapidCheck seed, the call,
// the shape and the offending values in hex and %a.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "bng/properties/runner.hpp"
#include "bng/properties/target.hpp"
#include "bng/reference/case.hpp"

namespace bng::prop {

// "0x3c00 (0x1p+0)": the stored bits of an exact value of format f, then %a.
std::string hex_value(double v, Format f);
// Bits as stored (binary16 in the low 16 bits) and their %a.
std::string hex_bits(std::uint32_t bits, Format f);

// The call and the case: spec, batch × channel, is_train, and — for cases up
// to `max_elements` elements — every input in hex and %a; larger cases list
// only column `focus_channel` (or channel 0 if -1).
std::string describe_case(const Case& c, const CallSpec& spec, std::int64_t focus_channel = -1,
                          std::int64_t max_elements = 64);

// How to rerun: the seed of the process's RapidCheck configuration as an
// RC_PARAMS line (RapidCheck also prints RC_PARAMS="reproduce=..." when a
// property fails). Outside a property (bngcert) the caller's own seed matters.
std::string rc_params_line();

// The full message of a failed check: reason, then describe_case, then
// rc_params_line.
std::string reproducer(const Case& c, const CallSpec& spec, const std::string& reason,
                       std::int64_t focus_channel = -1);

}  // namespace bng::prop

namespace bng {
// RapidCheck prints generated cases with this (found by ADL): shape, is_train
// and the values in hex and %a.
void showValue(const Case& c, std::ostream& os);
}  // namespace bng
