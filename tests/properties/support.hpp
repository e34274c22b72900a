// Shared pieces of the property tests: the registry's kernels and entry
// points the properties are instantiated over, the runner of a RapidCheck
// property inside a parameterized gtest, and the failure macro that carries a
// check's reason into RapidCheck's report.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

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

// One kernel of the registry: a target and a combo it implements. The
// per-combo properties get one instance per Kernel.
struct Kernel {
  Target target{};
  Combo combo = Combo::fp;
};

// Every kernel of every target, in the registry's order: what the per-combo
// properties are instantiated over, so a new registry entry gets them all.
std::vector<Kernel> every_kernel();
// The kernels that have the vendor's flat form too (SPEC §2: mp has not).
std::vector<Kernel> every_kernel_with_flat_form();
// Every entry point of every kernel (_s and _p in each form that exists);
// core_mask is left for the property to draw.
std::vector<CallSpec> every_entry_point();

// Instance names, as gtest shows them after the property: "mt7004_hp",
// "mt7004_hp_shared_params", "ft78ne_fp_private_flat".
std::string instance_name(const Kernel& k);
std::string instance_name(const CallSpec& s);
// The name generator of INSTANTIATE_TEST_SUITE_P.
struct InstanceName {
  template <typename Param>
  std::string operator()(const ::testing::TestParamInfo<Param>& info) const {
    return instance_name(info.param);
  }
};
// What --gtest_list_tests prints as GetParam(): the instance name again.
void PrintTo(const Kernel& k, std::ostream* os);

// Runs a RapidCheck property as the running gtest test, exactly as
// RC_GTEST_PROP's test body does (same RC_PARAMS, counterexample and
// reproducer in the gtest failure, distribution printed on success): the
// parameterized suites below are RC_GTEST_PROPs with a parameter.
template <typename Property>
void check_property(Property&& property) {
  ::rc::detail::checkGTest(std::forward<Property>(property));
}

}  // namespace bng::prop::test

namespace bng::prop {
// gtest finds a parameter's printer by ADL: CallSpec lives in bng::prop.
void PrintTo(const CallSpec& s, std::ostream* os);
}  // namespace bng::prop
