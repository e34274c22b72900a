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
// its message, so the shrunk case's reproducer is what gets printed. The first
// failure of a test is printed at once with the seed, before shrinking; once
// shrinking has run for the budget (shrink_budget_spent), further candidates
// are discarded, so a failing property reports in bounded time.
#define BNG_RC_CHECK(expr)                                                           \
  do {                                                                               \
    if (::bng::prop::test::shrink_budget_spent()) RC_DISCARD("shrink budget spent"); \
    const std::string bng_why_ = (expr);                                             \
    if (!bng_why_.empty()) {                                                         \
      ::bng::prop::test::first_failure(bng_why_);                                    \
      RC_FAIL(bng_why_);                                                             \
    }                                                                                \
  } while (false)

// Seconds of shrinking allowed after a test's first failure: BNG_SHRINK_SECONDS,
// default 60. True once they have passed (for the running gtest test).
bool shrink_budget_spent();
// Records a failure of the running test; the first one is printed on stderr
// with the RapidCheck seed that reproduces it, unshrunk.
void first_failure(const std::string& why);

// Tag a generated case with its family and shape class (RapidCheck prints the
// distribution after each property: proof every family was generated).
void classify(std::string_view family, const Case& c);

// Iterations for loop-based tests (those whose cases are too large for a
// per-case RapidCheck count): `base` in the default suite, 100x in the
// campaign, a fifth on the second and third ISA paths, a tenth under
// sanitizers (at least 1).
int iterations(int base);

}  // namespace bng::prop::test
