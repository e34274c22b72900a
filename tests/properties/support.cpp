#include "support.hpp"

#include <rapidcheck/detail/Configuration.h>

#include "bng/optimized/isa.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace bng::prop::test {
namespace {

// The path BNG_ISA names is the best this processor has (so "path" runs get
// the full count where AVX-512 is missing and avx2 is the users' path).
bool on_best_path() {
  const char* isa = std::getenv("BNG_ISA");
  const auto paths = opt::isa_supported_paths();
  return isa != nullptr && !paths.empty() && paths.front() == isa;
}

// How many cases a property tries comes from RapidCheck's max_success: 500
// by default (the default suite: 7.5 min measured with ctest -j2). The ctest
// registrations set BNG_PROP_RUN: "campaign" runs 100x more (50000),
// "path" (ISA paths below the processor's best) 5x fewer (100) and "sanitize" 10x
// fewer (50; sanitizers slow everything ~10x); an
// explicit max_success or max_size in the caller's RC_PARAMS wins, and any
// seed=... in it is kept. This runs during static initialisation, before
// RapidCheck first reads RC_PARAMS.
[[maybe_unused]] const bool kConfigured = [] {
  const char* run = std::getenv("BNG_PROP_RUN");
  const char* given = std::getenv("RC_PARAMS");
  std::string params = given != nullptr ? given : "";
  const std::string mode = run != nullptr ? run : "";
  auto add = [&](const char* key, const char* value) {
    if (params.find(key) == std::string::npos) params += std::string(" ") + key + "=" + value;
  };
  if (mode == "campaign") {
    add("max_success", "50000");
  } else if (mode == "path" && !on_best_path()) {
    add("max_success", "100");
  } else if (mode == "sanitize") {
    add("max_success", "50");
    add("max_size", "40");
  } else {
    add("max_success", "500");
  }
  setenv("RC_PARAMS", params.c_str(), 1);
  return true;
}();

}  // namespace

namespace {

struct FailureClock {
  std::string test;  // the gtest test the clock belongs to
  std::chrono::steady_clock::time_point first;
  bool failed = false;
};

FailureClock& failure_clock() {
  static FailureClock clock;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string test =
      info != nullptr ? std::string(info->test_suite_name()) + "." + info->name() : "";
  if (clock.test != test) clock = FailureClock{test, {}, false};
  return clock;
}

double shrink_seconds() {
  const char* v = std::getenv("BNG_SHRINK_SECONDS");
  return v != nullptr ? std::strtod(v, nullptr) : 60.0;
}

}  // namespace

bool shrink_budget_spent() {
  const FailureClock& c = failure_clock();
  if (!c.failed) return false;
  const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - c.first;
  return spent.count() > shrink_seconds();
}

void first_failure(const std::string& why) {
  FailureClock& c = failure_clock();
  if (c.failed) return;
  c.failed = true;
  c.first = std::chrono::steady_clock::now();
  std::fprintf(stderr,
               "%s: first failure, before shrinking (reproduce with RC_PARAMS=\"seed=%llu\"; "
               "shrinking stops after %g s):\n%s\n",
               c.test.c_str(),
               static_cast<unsigned long long>(rc::detail::configuration().testParams.seed),
               shrink_seconds(), why.c_str());
}

int iterations(int base) {
  const char* run = std::getenv("BNG_PROP_RUN");
  const std::string mode = run != nullptr ? run : "";
  if (mode == "campaign") return base * 100;
  if (mode == "path" && !on_best_path()) return std::max(1, base / 5);
  if (mode == "sanitize") return std::max(1, base / 10);
  return base;
}

void classify(std::string_view family, const Case& c) {
  // One tag per case (RapidCheck prints each combination of tags as its own
  // line): the family, and whether the shape is skewed.
  const char* shape = c.batch >= 64 * c.channel && c.batch >= 1024    ? " / tall"
                      : c.channel >= 64 * c.batch && c.channel >= 256 ? " / wide"
                                                                      : "";
  RC_CLASSIFY(true, std::string(family) + shape);
}

std::vector<Kernel> every_kernel() {
  std::vector<Kernel> out;
  for (Target t : all_targets()) {
    for (Combo c : combos(t)) out.push_back({t, c});
  }
  return out;
}

std::vector<Kernel> every_kernel_with_flat_form() {
  std::vector<Kernel> out;
  for (const Kernel& k : every_kernel()) {
    if (exists({k.target, k.combo, Storage::private_, Form::flat, 0})) out.push_back(k);
  }
  return out;
}

std::vector<CallSpec> every_entry_point() {
  std::vector<CallSpec> out;
  for (const Kernel& k : every_kernel()) {
    for (const CallSpec& s : entry_points(k.target, k.combo, 0)) out.push_back(s);
  }
  return out;
}

std::string instance_name(const Kernel& k) {
  return std::string(target_name(k.target)) + "_" + std::string(combo_name(k.combo));
}

std::string instance_name(const CallSpec& s) {
  return instance_name(Kernel{s.target, s.combo}) +
         (s.storage == Storage::shared ? "_shared_" : "_private_") + std::string(form_name(s.form));
}

void PrintTo(const Kernel& k, std::ostream* os) {
  *os << instance_name(k);
}

}  // namespace bng::prop::test

namespace bng::prop {
void PrintTo(const CallSpec& s, std::ostream* os) {
  *os << test::instance_name(s);
}
}  // namespace bng::prop
