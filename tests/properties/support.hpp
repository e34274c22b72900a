// Shared pieces of the property tests: the (target, combo) pairs and the
// failure macro that carries a check's reason into RapidCheck's report.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>

#include "bng/properties/properties.hpp"

namespace bng::prop::test {

// A check's reason ("" = pass) becomes a RapidCheck failure with the reason as
// its message, so the shrunk case's reproducer is what gets printed.
#define BNG_RC_CHECK(expr)                    \
  do {                                        \
    const std::string bng_why_ = (expr);      \
    if (!bng_why_.empty()) RC_FAIL(bng_why_); \
  } while (false)

// Tag a generated case with its family and shape class (RapidCheck prints the
// distribution after each property: proof every family was generated).
void classify(std::string_view family, const Case& c);

// Iterations for loop-based tests (those whose cases are too large for a
// per-case RapidCheck count): `base` in the default suite, 100x in the
// campaign, a tenth (at least 1) under sanitizers.
int iterations(int base);

}  // namespace bng::prop::test
