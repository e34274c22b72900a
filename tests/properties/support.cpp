#include "support.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace bng::prop::test {
namespace {

// How many cases a property tries comes from RapidCheck's max_success: 500
// by default (the default suite: 7.5 min measured with ctest -j2). The ctest
// registrations set BNG_PROP_RUN: "campaign" runs 100x more (50000) and
// "sanitize" 10x fewer (50; sanitizers slow everything ~10x); an
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

int iterations(int base) {
  const char* run = std::getenv("BNG_PROP_RUN");
  const std::string mode = run != nullptr ? run : "";
  if (mode == "campaign") return base * 100;
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

}  // namespace bng::prop::test
