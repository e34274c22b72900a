// The kernels against the exact reference at their declared alpha: random and
// hard cases over shapes that exercise folding, partial wide rows, several
// row bands and column ranges, both modes, with and without NaN/Inf inputs.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bng/optimized/isa.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"

namespace bng::ktest {
namespace {

struct Shape {
  std::int64_t batch, channel;
};
// 1x1; tiny (caller only); folded narrow rows with a partial last wide row;
// several blocks and row bands; column ranges; an odd channel count.
constexpr Shape kShapes[] = {{1, 1},     {4, 64},    {1001, 3}, {4099, 4},
                             {300, 129}, {33, 1000}, {16411, 1}};

std::string what(std::uint64_t seed, Hard h, const Shape& s, int train, unsigned mask) {
  return "seed " + std::to_string(seed) + " kind " + hard_name(h) + " shape " +
         std::to_string(s.batch) + "x" + std::to_string(s.channel) + " is_train " +
         std::to_string(train) + " mask 0x" + std::to_string(mask) + " isa " + opt::isa_name();
}

TEST(BNG_KSUITE(KernelAccuracy), RandomAndHardCasesWithinDeclaredAlpha) {
  std::uint64_t seed = 0x5eed0000;
  for (const Combo combo : target_combos()) {
    for (const Hard h : kAllHard) {
      for (const Shape& s : kShapes) {
        for (int train = 0; train <= 1; ++train) {
          ++seed;
          const Case c = make_case(combo, h, s.batch, s.channel, train, seed);
          const unsigned mask = seed % 2 == 0 ? 0u : 0x3u;
          const std::string fail = check_against_reference(c, decode(c, run_raw(c, mask)),
                                                           what(seed, h, s, train, mask));
          EXPECT_TRUE(fail.empty()) << fail;
        }
      }
    }
  }
}

TEST(BNG_KSUITE(KernelAccuracy), NanAndInfInputsPropagatePerChannel) {
  std::uint64_t seed = 0x1f00;
  for (const Combo combo : target_combos()) {
    for (const Shape& s : kShapes) {
      for (int train = 0; train <= 1; ++train) {
        ++seed;
        const Case c = make_case(combo, Hard::random, s.batch, s.channel, train, seed, true);
        const std::string fail = check_against_reference(c, decode(c, run_raw(c, 0x1)),
                                                         what(seed, Hard::random, s, train, 1));
        EXPECT_TRUE(fail.empty()) << fail;
      }
    }
  }
}

}  // namespace
}  // namespace bng::ktest
