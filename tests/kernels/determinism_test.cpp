// SPEC §4: output bits identical for every valid core mask, for _p (mask 0),
// and from call to call. The data cancel heavily and span every exponent, so
// that any change of summation order shows in the last bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "case_builders.hpp"
#include "kernel_runner.hpp"

namespace bng::ktest {
namespace {

struct Shape {
  std::int64_t batch, channel;
};
// Row bands (narrow, folded), column ranges (wide), and both with a partial wide row.
constexpr Shape kShapes[] = {{40000, 4}, {20001, 3}, {300, 1000}, {601, 300}, {1024, 256}};

TEST(BNG_KSUITE(KernelDeterminism), EveryMaskAndPrivateGiveTheSameBits) {
  for (const Combo combo : target_combos()) {
    for (const Shape& s : kShapes) {
      for (int train = 0; train <= 1; ++train) {
        const std::uint64_t seed = 0xd00d + static_cast<std::uint64_t>(s.batch + train);
        const Hard kind = s.channel == 256 ? Hard::band_cancelling
                          : train == 0     ? Hard::wide_exponents
                                           : Hard::cancelling_dy;
        const Case c = make_case(combo, kind, s.batch, s.channel, train, seed);
        const Encoded e = encode_case(c);
        const RawOutputs first = run_raw(e, 0);
        for (unsigned mask = 0; mask <= 255; ++mask) {
          const RawOutputs again = run_raw(e, mask);
          ASSERT_TRUE(again == first)
              << "outputs differ from _p for mask 0x" << std::hex << mask << std::dec << ": combo "
              << combo_name(combo) << " shape " << s.batch << "x" << s.channel << " is_train "
              << train << " kind " << hard_name(kind) << " seed " << seed
              << (again.dx == first.dx ? "" : " (dx)")
              << (again.dbias == first.dbias ? "" : " (dbias)")
              << (again.dscale == first.dscale ? "" : " (dscale)");
        }
      }
    }
  }
}

}  // namespace
}  // namespace bng::ktest
