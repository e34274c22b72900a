// Training in column tiles (tile_for_training, partition.hpp): only short,
// wide batches of at least 32 MiB of x and dy take that path, too large for
// the property campaign's shapes, so it is checked here on the smallest such
// shapes: every output within 1 ulp + alpha*M of the exact reference, the
// same bits for core masks 0 and 0x3 and in place (dx == x), on data near
// overflow (the guard's magnitudes are then computed per channel while other
// tiles run) and, for hp, on ordinary data.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "bng/optimized/isa.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"
#include "bng/optimized/partition.hpp"

namespace bng::ktest {
namespace {

TEST(BNG_KSUITE(KernelTiled), ShortWideTrainingMatchesTheReference) {
  std::uint64_t seed = 0x711e;
  for (const Combo combo : target_combos()) {
    const std::int64_t bytes = data_format(combo) == Format::binary32 ? 4 : 2;
    const std::int64_t batch = 128 * 4 / bytes, channel = 32768;
    // The shape is one the kernels tile (else this test would test nothing new).
    opt::Partition p = opt::make_partition(batch, channel, target_model());
    ASSERT_TRUE(opt::tile_for_training(p, bytes));
    // One kind per type combination keeps the reference's work (4-8 M
    // elements a case) to seconds.
    for (const Hard h : {combo == Combo::hp ? Hard::random : Hard::near_overflow}) {
      ++seed;
      expect_same_bits_within_alpha(
          make_case(combo, h, batch, channel, 1, seed),
          "seed " + std::to_string(seed) + " kind " + hard_name(h) + " isa " + opt::isa_name());
    }
  }
}

}  // namespace
}  // namespace bng::ktest
