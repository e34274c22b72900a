// SPEC §2/§7: the exported surface of each library and its status messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "bng/properties/properties.hpp"

namespace bng::prop {
namespace {

constexpr Combo kEveryCombo[] = {Combo::fp, Combo::hp, Combo::mp};

bool has_kernel(Target t, Combo c) {
  const std::vector<Combo> implemented = combos(t);
  return std::find(implemented.begin(), implemented.end(), c) != implemented.end();
}

// Every target of the registry exports exactly the entry points of its kernels.
TEST(Exports, every_target_exactly_its_api) {
  for (Target t : all_targets()) EXPECT_EQ(check_exports(t), "") << target_name(t);
}
// A target exports nothing of a combo it has no kernel for (ft78ne: no hp_*
// or mp_*).
TEST(Exports, no_symbol_of_a_kernel_the_target_lacks) {
  for (Target t : all_targets()) {
    for (Combo c : kEveryCombo) {
      if (has_kernel(t, c)) continue;
      const std::string prefix = std::string(combo_name(c)) + "_";
      for (const std::string& name : dynamic_symbols(t))
        EXPECT_NE(name.rfind(prefix, 0), 0u) << target_name(t) << ": " << name;
    }
  }
}
// SPEC §2: _s and _p of each form a kernel has (both forms for fp and hp, the
// params form for mp), and bng_status_string: 5 for ft78ne, 11 for mt7004.
TEST(Exports, spec_lists) {
  for (Target t : all_targets()) {
    std::size_t want = 1;
    for (Combo c : combos(t)) want += c == Combo::mp ? 2 : 4;
    const std::vector<std::string> listed = spec_exports(t);
    EXPECT_EQ(listed.size(), want) << target_name(t);
    for (Combo c : combos(t)) {
      for (const CallSpec& s : entry_points(t, c, 0x1))
        EXPECT_TRUE(std::binary_search(listed.begin(), listed.end(), entry_point(s)))
            << describe(s);
    }
  }
}
TEST(StatusStrings, every_target) {
  for (Target t : all_targets()) EXPECT_EQ(check_status_strings(t), "") << target_name(t);
}

// The libraries are distinct objects in one process (RTLD_LOCAL): the runner
// must not call mt7004's fp_* when asked for ft78ne's, nor find a kernel's
// symbol in a target that lacks the kernel.
TEST(Runner, targets_are_distinct_libraries) {
  for (Target t : all_targets()) {
    for (Combo c : kEveryCombo) {
      const std::string symbol = entry_point({t, c, Storage::shared, Form::params, 0x1});
      void* const found = find_symbol(t, symbol.c_str());
      EXPECT_EQ(found != nullptr, has_kernel(t, c)) << target_name(t) << ": " << symbol;
      for (Target other : all_targets()) {
        if (other != t && found != nullptr) {
          EXPECT_NE(found, find_symbol(other, symbol.c_str())) << target_name(t) << ": " << symbol;
        }
      }
    }
  }
}

// The sentinel makes an unwritten output fail: prove the accuracy check
// notices a call whose outputs are never written, for every kernel.
TEST(Runner, unwritten_outputs_fail_accuracy) {
  for (Target t : all_targets()) {
    for (Combo combo : combos(t)) {
      const Case c = sample(*find_family("ordinary"), combo, 1, 10);
      const CallSpec spec{t, combo, Storage::shared, Form::params, 0x1};
      Buffers b = lay_out(c);
      const RunResult untouched = read_outputs(b, c.combo, 0);
      const std::string why = check_accuracy(c, spec, ref::compute(c), untouched,
                                             declared_alpha(spec.target, spec.combo));
      EXPECT_NE(why.find("never written"), std::string::npos) << describe(spec) << ": " << why;
    }
  }
}

// SPEC §5's bar: α ≤ 2^-40 for fp, 2^-20 for the binary16 combos; no α for a
// kernel the target lacks.
TEST(Runner, declared_alpha_meets_the_bar) {
  for (Target t : all_targets()) {
    for (Combo c : kEveryCombo) {
      if (has_kernel(t, c)) {
        EXPECT_LE(declared_alpha(t, c), c == Combo::fp ? 0x1p-40 : 0x1p-20)
            << target_name(t) << " " << combo_name(c);
      } else {
        EXPECT_THROW(declared_alpha(t, c), std::invalid_argument)
            << target_name(t) << " " << combo_name(c);
      }
    }
  }
}

}  // namespace
}  // namespace bng::prop
