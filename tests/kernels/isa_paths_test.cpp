// SPEC §4: the output bits do not depend on which instruction-set path runs.
// One process runs every case on every path this processor has, switching
// Highway's target as its own per-target tests do (SetSupportedTargetsForTest),
// and compares the bits with the portable path's: a rounding or summation
// change that only one path executes shows here, within the accuracy bound or
// not. Registered once (not per path): it visits every path itself.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "bng/optimized/isa.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"

namespace bng::ktest {
namespace {

struct PathOutputs {
  std::string path;
  RawOutputs out;
};

// Runs the case on every supported path, the portable one first.
std::vector<PathOutputs> run_every_path(const Encoded& e, unsigned mask) {
  std::vector<PathOutputs> runs;
  const auto supported = opt::isa_supported_paths();
  for (auto path = supported.rbegin(); path != supported.rend(); ++path) {
    hwy::SetSupportedTargetsForTest(opt::isa_highway_target(*path));
    EXPECT_EQ(opt::isa_dispatched_path(), *path) << "Highway did not switch to " << *path;
    runs.push_back({*path, run_raw(e, mask)});
  }
  hwy::SetSupportedTargetsForTest(0);
  return runs;
}

std::string differing(const RawOutputs& a, const RawOutputs& b) {
  std::string d;
  if (a.dx != b.dx) d += " dx";
  if (a.dbias != b.dbias) d += " dbias";
  if (a.dscale != b.dscale) d += " dscale";
  return d;
}

struct Shape {
  std::int64_t batch, channel;
};
// A tail after whole vectors of every path (37, 300 channels), several row
// blocks (300, 1000 rows: the compensated block sums), a folded tall shape.
constexpr Shape kShapes[] = {{5, 37}, {300, 37}, {1000, 9}, {257, 300}, {4096, 3}};

TEST(BNG_KSUITE(KernelIsaPaths), EveryPathGivesThePortableBits) {
  ASSERT_GE(opt::isa_supported_paths().size(), 2u) << "nothing to compare with the portable path";
  for (const Combo combo : target_combos()) {
    for (const Shape& s : kShapes) {
      for (const Hard kind : kAllHard) {
        for (int train = 0; train <= 1; ++train) {
          const std::uint64_t seed = 0x15a + static_cast<std::uint64_t>(s.batch * 8 + train);
          const Case c = make_case(combo, kind, s.batch, s.channel, train, seed,
                                   /*plant_specials=*/kind == Hard::random);
          const Encoded e = encode_case(c);
          const auto runs = run_every_path(e, 0x3);
          for (std::size_t k = 1; k < runs.size(); ++k) {
            EXPECT_TRUE(runs[k].out == runs[0].out)
                << runs[k].path << " differs from " << runs[0].path << " in"
                << differing(runs[k].out, runs[0].out) << ": combo " << combo_name(combo)
                << " shape " << s.batch << "x" << s.channel << " kind " << hard_name(kind)
                << " is_train " << train << " seed " << seed;
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace bng::ktest
