// SPEC §4: the output bits do not depend on which instruction-set path runs.
// One process runs every case on every path this processor has, switching
// Highway's target as its own per-target tests do (SetSupportedTargetsForTest),
// and compares the bits with the portable path's: a rounding or summation
// change that only one path executes shows here, within the accuracy bound or
// not. Registered once (not per path): it visits every path itself.
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bng/optimized/isa.hpp"
#include "bng/reference/rounding.hpp"
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

// Binary16 outputs of binary64 results round once (SPEC §4): where the
// binary64 result lies within 2^-24 relative of a binary16 midpoint, rounding
// it to binary32 first lands on the midpoint, and ties-to-even can then pick
// the wrong neighbour (a store that drops the sticky bit of its round-to-odd
// step does exactly that). hp's dbias, RN16 of the binary64 sum of dy, with
// sums exact in binary64: per channel, times s = ±2^j,
//   2 + 2^-10 + 2^-24           (2^-25 relative above the midpoint after 2,
//                                 whose neighbour below is even: twice gives 2)
//   2 + 2^-9 + 2^-10 - 2^-24    (below the midpoint after 2 + 2^-9, whose
//                                 neighbour below is odd: twice gives 2 + 2^-8)
// 67 channels: whole vectors of every path and a tail. On every path.
TEST(BNG_KSUITE(KernelIsaPaths), EveryPathRoundsBinary16Once) {
  const double patterns[2][4] = {{2.0, 0x1p-10, 0x1p-24, 0.0}, {2.0, 0x1p-9, 0x1p-10, -0x1p-24}};
  for (const Combo combo : target_combos()) {
    if (stats_format(combo) != Format::binary16) continue;
    for (int train = 0; train <= 1; ++train) {
      Case c;
      c.combo = combo;
      c.is_train = train;
      c.batch = 4;
      c.channel = 67;
      c.mean.assign(67, 0.0);
      c.invar.assign(67, 1.0);
      c.scale.assign(67, 1.0);
      c.x.assign(4 * 67, 0.0);
      c.dy.assign(4 * 67, 0.0);
      std::vector<double> exact(67);
      for (std::int64_t ch = 0; ch < 67; ++ch) {
        const double sc = std::ldexp(ch % 2 == 0 ? 1.0 : -1.0, static_cast<int>(ch % 14));
        const auto& p = patterns[(ch / 2) % 2];
        for (std::int64_t r = 0; r < 4; ++r) {
          c.dy[static_cast<std::size_t>(r * 67 + ch)] = sc * p[r];
          exact[static_cast<std::size_t>(ch)] += sc * p[r];  // exact: 35 bits at most
        }
      }
      for (const PathOutputs& run : run_every_path(encode_case(c), 0x3)) {
        const Outputs out = decode(c, run.out);
        for (std::size_t ch = 0; ch < 67; ++ch) {
          const double want = ref::round_to(Format::binary16, exact[ch]);
          EXPECT_EQ(out.dbias[ch], want)
              << combo_name(combo) << " is_train " << train << " path " << run.path << " channel "
              << ch << ": exact " << hex_a(exact[ch]) << ", dbias " << hex_a(out.dbias[ch])
              << ", want " << hex_a(want) << " (rounded twice: "
              << hex_a(ref::round_to(Format::binary16, static_cast<float>(exact[ch]))) << ")";
        }
      }
    }
  }
}

}  // namespace
}  // namespace bng::ktest
