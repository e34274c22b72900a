// SPEC §2/§7: the exported surface of each library and its status messages.
#include <gtest/gtest.h>

#include "bng/properties/properties.hpp"

namespace bng::prop {
namespace {

// Every target of the registry exports exactly the entry points of its kernels.
TEST(Exports, every_target_exactly_its_api) {
  for (Target t : all_targets()) EXPECT_EQ(check_exports(t), "") << target_name(t);
}
TEST(Exports, ft78ne_has_no_hp_or_mp) {
  for (const std::string& name : dynamic_symbols(target("ft78ne"))) {
    EXPECT_NE(name.rfind("hp_", 0), 0u) << name;
    EXPECT_NE(name.rfind("mp_", 0), 0u) << name;
  }
}
TEST(Exports, spec_lists) {
  EXPECT_EQ(spec_exports(target("ft78ne")).size(), 5u);   // 4 fp entry points + bng_status_string
  EXPECT_EQ(spec_exports(target("mt7004")).size(), 11u);  // + 4 hp, 2 mp
}
TEST(StatusStrings, every_target) {
  for (Target t : all_targets()) EXPECT_EQ(check_status_strings(t), "") << target_name(t);
}

// The libraries are distinct objects in one process (RTLD_LOCAL): the runner
// must not call mt7004's fp_* when asked for ft78ne's.
TEST(Runner, targets_are_distinct_libraries) {
  EXPECT_NE(find_symbol(target("ft78ne"), "fp_batch_norm_grad_s"),
            find_symbol(target("mt7004"), "fp_batch_norm_grad_s"));
  EXPECT_EQ(find_symbol(target("ft78ne"), "hp_batch_norm_grad_s"), nullptr);
  EXPECT_NE(find_symbol(target("mt7004"), "hp_batch_norm_grad_s"), nullptr);
}

// The sentinel makes an unwritten output fail: prove the accuracy check
// notices a call whose outputs are never written.
TEST(Runner, unwritten_outputs_fail_accuracy) {
  const Case c = sample(*find_family("ordinary"), Combo::fp, 1, 10);
  const CallSpec spec{target("ft78ne"), Combo::fp, Storage::shared, Form::params, 0x1};
  Buffers b = lay_out(c);
  const RunResult untouched = read_outputs(b, c.combo, 0);
  const std::string why =
      check_accuracy(c, spec, ref::compute(c), untouched, declared_alpha(spec.target, spec.combo));
  EXPECT_NE(why.find("never written"), std::string::npos) << why;
}

TEST(Runner, declared_alpha_meets_the_bar) {
  EXPECT_LE(declared_alpha(target("ft78ne"), Combo::fp), 0x1p-40);
  EXPECT_LE(declared_alpha(target("mt7004"), Combo::fp), 0x1p-40);
  EXPECT_LE(declared_alpha(target("mt7004"), Combo::hp), 0x1p-20);
  EXPECT_LE(declared_alpha(target("mt7004"), Combo::mp), 0x1p-20);
  EXPECT_THROW(declared_alpha(target("ft78ne"), Combo::hp), std::invalid_argument);
}

}  // namespace
}  // namespace bng::prop
