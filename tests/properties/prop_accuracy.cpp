// SPEC §5 per target and per entry point: every family, every output within
// 1 ulp + α·M of the exact reference at the kernel's declared α.

#include "support.hpp"

namespace bng::prop::test {
namespace {

void accuracy(Target t, Combo combo, Storage storage, Form form) {
  const NamedCase nc = *any_family(combo);
  classify(nc.family, nc.c);
  CallSpec spec{t, combo, storage, form, kAllCores};
  if (storage == Storage::shared) spec.core_mask = *gen::valid_mask();
  BNG_RC_CHECK(check_accuracy(nc.c, spec));
}

// One instance per entry point of the registry, e.g.
// Accuracy.holds/mt7004_hp_shared_params.
class Accuracy : public ::testing::TestWithParam<CallSpec> {};

TEST_P(Accuracy, holds) {
  const CallSpec s = GetParam();
  check_property([s] { accuracy(s.target, s.combo, s.storage, s.form); });
}

INSTANTIATE_TEST_SUITE_P(, Accuracy, ::testing::ValuesIn(every_entry_point()), InstanceName());

// Inputs may overlap each other (SPEC §3): x == dy, mean == invar == scale.
void overlapping_inputs(Target t, Combo combo) {
  const NamedCase nc = *any_family(combo, true);
  classify(nc.family, nc.c);
  BNG_RC_CHECK(check_overlapping_inputs(nc.c, *gen::call_spec(t, combo)));
}

class OverlappingInputs : public ::testing::TestWithParam<Kernel> {};

TEST_P(OverlappingInputs, holds) {
  const Kernel k = GetParam();
  check_property([k] { overlapping_inputs(k.target, k.combo); });
}

INSTANTIATE_TEST_SUITE_P(, OverlappingInputs, ::testing::ValuesIn(every_kernel()), InstanceName());

}  // namespace
}  // namespace bng::prop::test
