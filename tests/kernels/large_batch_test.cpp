// batch = 2^24, one channel (the bar's largest batch): every output within
// 1 ulp + alpha*M of the exact reference, training and inference data with
// cancellation, |mean| >> spread.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bng/optimized/isa.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"

namespace bng::ktest {
namespace {

TEST(BNG_KSUITE(KernelLargeBatch), TwoToThe24RowsOneChannel) {
  constexpr std::int64_t kBatch = std::int64_t{1} << 24;
  std::uint64_t seed = 0xb16;
  for (const Combo combo : target_combos()) {
    for (const Hard h : {Hard::far_mean, Hard::cancelling_dy}) {
      ++seed;
      const Case c = make_case(combo, h, kBatch, 1, 1, seed);
      const std::string fail = check_against_reference(
          c, decode(c, run_raw(c, 0x3)),
          "seed " + std::to_string(seed) + " kind " + hard_name(h) + " isa " + opt::isa_name());
      EXPECT_TRUE(fail.empty()) << fail;
    }
  }
}

}  // namespace
}  // namespace bng::ktest
