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

#define BNG_ACCURACY(T, C, S, F)                         \
  RC_GTEST_PROP(Accuracy, T##_##C##_##S##_##F, ()) {     \
    accuracy(target(#T), Combo::C, Storage::S, Form::F); \
  }

BNG_ACCURACY(ft78ne, fp, shared, params)
BNG_ACCURACY(ft78ne, fp, private_, params)
BNG_ACCURACY(ft78ne, fp, shared, flat)
BNG_ACCURACY(ft78ne, fp, private_, flat)
BNG_ACCURACY(mt7004, fp, shared, params)
BNG_ACCURACY(mt7004, fp, private_, params)
BNG_ACCURACY(mt7004, fp, shared, flat)
BNG_ACCURACY(mt7004, fp, private_, flat)
BNG_ACCURACY(mt7004, hp, shared, params)
BNG_ACCURACY(mt7004, hp, private_, params)
BNG_ACCURACY(mt7004, hp, shared, flat)
BNG_ACCURACY(mt7004, hp, private_, flat)
BNG_ACCURACY(mt7004, mp, shared, params)
BNG_ACCURACY(mt7004, mp, private_, params)

// Inputs may overlap each other (SPEC §3): x == dy, mean == invar == scale.
void overlapping_inputs(Target t, Combo combo) {
  const NamedCase nc = *any_family(combo, true);
  classify(nc.family, nc.c);
  BNG_RC_CHECK(check_overlapping_inputs(nc.c, *gen::call_spec(t, combo)));
}

RC_GTEST_PROP(OverlappingInputs, ft78ne_fp, ()) {
  overlapping_inputs(target("ft78ne"), Combo::fp);
}
RC_GTEST_PROP(OverlappingInputs, mt7004_fp, ()) {
  overlapping_inputs(target("mt7004"), Combo::fp);
}
RC_GTEST_PROP(OverlappingInputs, mt7004_hp, ()) {
  overlapping_inputs(target("mt7004"), Combo::hp);
}
RC_GTEST_PROP(OverlappingInputs, mt7004_mp, ()) {
  overlapping_inputs(target("mt7004"), Combo::mp);
}

}  // namespace
}  // namespace bng::prop::test
