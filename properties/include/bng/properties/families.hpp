// The named case families of the property campaign (issue 4): each is a
// generator of whole bng::Case values for one type combination, with a
// description for docs and reports. Properties draw from them (and classify by
// them); bngcert samples them deterministically with sample().
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <span>
#include <string_view>

#include "bng/reference/case.hpp"

namespace bng::prop {

struct Family {
  std::string_view name;         // short, stable: used in RC_CLASSIFY, reports, docs/testing.md
  std::string_view description;  // one sentence: what the family covers and why
  rc::Gen<Case> (*gen)(Combo);   // the family's cases for a type combination
  bool finite = true;  // false: NaN or Inf planted (accuracy judged by SPEC §5's non-finite rules)
  bool large =
      false;  // cases of up to gen::kLargeElements: any_family() draws them only on request
};

// Every family, in a fixed order.
std::span<const Family> families();
// The family called `name`, or nullptr.
const Family* find_family(std::string_view name);

// A case drawn from any family (uniformly), shrinking within the drawn family;
// the family's name comes with it for RC_CLASSIFY.
struct NamedCase {
  std::string_view family;
  Case c;
};
rc::Gen<NamedCase> any_family(Combo combo, bool finite_only = false, bool include_large = false);

// Deterministic sampling outside a property: the same (family, combo, seed,
// size) always gives the same case. size is RapidCheck's size (0..100; larger
// means bigger shapes and wider values).
Case sample(const Family& f, Combo combo, std::uint64_t seed, int size);

}  // namespace bng::prop
