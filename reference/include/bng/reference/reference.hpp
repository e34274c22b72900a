// The exact reference (SPEC §5): SPEC §1 computed without rounding, rounded
// once to nearest-even into each output's format. docs/reference.md argues why
// no step before the final rounding is inexact.
#pragma once

#include <cstdint>
#include <vector>

#include "bng/reference/case.hpp"

namespace bng::ref {

// What the reference knows about one output.
enum class Kind : std::uint8_t {
  finite,     // y* is a real number (its rounding may still overflow to ±Inf)
  nonfinite,  // an input it depends on is ±Inf (and none NaN): a kernel passes with NaN or ±Inf
  nan,        // an input it depends on is NaN: a kernel must return a NaN
};

struct Expected {
  double rounded = 0;          // RN(y*) in the output format, exactly (±Inf on overflow, NaN for Kind::nan)
  long double exact = 0;       // y* rounded to long double (64-bit significand); 0 unless finite
  long double magnitude = 0;   // M of SPEC §5, rounded to long double; 0 unless finite
  double ulp = 0;              // ulp(y*) in the output format (exact power of two); 0 unless finite
  Kind kind = Kind::finite;
  // For Kind::nonfinite, rounded is NaN too (no real y* exists); error_measure
  // judges both non-finite kinds by kind, not by rounded.
};

struct Result {
  std::vector<Expected> dx;               // batch*channel
  std::vector<Expected> dbias, dscale;    // channel each
};

// The whole reference for one case. Throws std::invalid_argument if the case is
// malformed (sizes, values not representable in their format, is_train not 0/1).
Result compute(const Case& c);

// The same for the channels [c_begin, c_end) only: result vectors are sized for
// the whole case, entries outside the range left default.
Result compute_channels(const Case& c, std::int64_t c_begin, std::int64_t c_end);

}  // namespace bng::ref
