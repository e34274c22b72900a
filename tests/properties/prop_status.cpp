// SPEC §3 per target and type combination: each bad argument, alone or with
// another, gets one of its statuses, and no byte of any buffer changes.

#include "support.hpp"

namespace bng::prop::test {
namespace {

rc::Gen<Fault> fault_for(const CallSpec& spec, const Case& c) {
  std::vector<Fault> ok;
  for (int i = 0; i < kFaultCount; ++i) {
    if (fault_applies(static_cast<Fault>(i), spec, c)) ok.push_back(static_cast<Fault>(i));
  }
  return gen::pick_of(ok);
}

void status(Target t, Combo combo) {
  // Small cases: validation must not depend on size, and refusals are cheap.
  const Case c = *rc::gen::resize(20, find_family("ordinary")->gen(combo));
  const CallSpec spec = *gen::call_spec(t, combo);
  std::vector<Fault> faults{*fault_for(spec, c)};
  // A second, different fault (the same one twice could undo itself: two
  // one-byte shifts realign a binary16 pointer).
  if (*gen::pick<int>(0, 2, 0) == 2) {
    // Capture by value: RapidCheck calls the predicate again while shrinking,
    // after this frame is gone.
    faults.push_back(*rc::gen::suchThat(fault_for(spec, c),
                                        [first = faults[0]](Fault f) { return f != first; }));
  }
  for (Fault f : faults) RC_CLASSIFY(true, fault_name(f));
  BNG_RC_CHECK(check_status(c, spec, faults));
}

// One instance per kernel of the registry, e.g. Status.holds/mt7004_hp.
class Status : public ::testing::TestWithParam<Kernel> {};

TEST_P(Status, holds) {
  const Kernel k = GetParam();
  check_property([k] { status(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, Status, ::testing::ValuesIn(every_kernel()), InstanceName());

// Every fault on every entry point, deterministically: the random property
// above may not draw a rare fault for every entry point.
void every_fault(Target t, Combo combo) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    const Case c = sample(*find_family("ordinary"), combo, seed, 10);
    for (const CallSpec& spec : entry_points(t, combo, 0x3)) {
      for (int i = 0; i < kFaultCount; ++i) {
        const auto f = static_cast<Fault>(i);
        if (fault_applies(f, spec, c)) {
          EXPECT_EQ(check_status(c, spec, {f}), "") << fault_name(f);
        }
      }
    }
  }
}

class EveryFault : public ::testing::TestWithParam<Kernel> {};

TEST_P(EveryFault, holds) {
  const Kernel k = GetParam();
  every_fault(k.target, k.combo);
}

INSTANTIATE_TEST_SUITE_P(, EveryFault, ::testing::ValuesIn(every_kernel()), InstanceName());

}  // namespace
}  // namespace bng::prop::test
