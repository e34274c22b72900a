// SPEC §4: output bits identical for every valid core mask, for _p (mask 0),
// and from call to call. The data cancel heavily and span every exponent, so
// that any change of summation order shows in the last bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bng/reference/reference.hpp"
#include "case_builders.hpp"
#include "kernel_runner.hpp"
#include "bng/optimized/partition.hpp"

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

// Every channel the same column: the vector loops (pass 1, the per-lane
// setup, the combination, pass 2, their binary32 forms for binary16 data) and
// the scalar code of the lanes after the last whole vector must give the same
// bits, so every channel's outputs must be identical. 37 channels: whole
// vectors of every ISA path plus a tail; 300 and 1000 rows: several row bands.
Case replicate_column(const Case& one, std::int64_t channels) {
  Case c = one;
  c.channel = channels;
  c.x.clear();
  c.dy.clear();
  for (std::int64_t n = 0; n < one.batch; ++n) {
    for (std::int64_t k = 0; k < channels; ++k) {
      c.x.push_back(one.x[static_cast<std::size_t>(n)]);
      c.dy.push_back(one.dy[static_cast<std::size_t>(n)]);
    }
  }
  c.mean.assign(static_cast<std::size_t>(channels), one.mean[0]);
  c.invar.assign(static_cast<std::size_t>(channels), one.invar[0]);
  c.scale.assign(static_cast<std::size_t>(channels), one.scale[0]);
  return c;
}

TEST(BNG_KSUITE(KernelDeterminism), IdenticalChannelsGiveIdenticalBits) {
  constexpr std::int64_t kChannels = 37;
  for (const Combo combo : target_combos()) {
    for (const std::int64_t batch : {5, 300, 1000}) {
      for (const Hard kind : kAllHard) {
        for (int train = 0; train <= 1; ++train) {
          const std::uint64_t seed = 0x1d + static_cast<std::uint64_t>(batch * 16 + train);
          const Case c = replicate_column(make_case(combo, kind, batch, 1, train, seed), kChannels);
          const RawOutputs out = run_raw(c, 0x3);
          const auto same = [&](const std::vector<std::uint8_t>& v, std::int64_t rows) {
            const std::size_t w = v.size() / static_cast<std::size_t>(rows * kChannels);
            for (std::int64_t n = 0; n < rows; ++n) {
              const auto* row = v.data() + static_cast<std::size_t>(n * kChannels) * w;
              for (std::int64_t k = 1; k < kChannels; ++k) {
                if (std::memcmp(row, row + static_cast<std::size_t>(k) * w, w) != 0) return k;
              }
            }
            return std::int64_t{0};
          };
          const std::string where = "combo " + std::string(combo_name(combo)) + " batch " +
                                    std::to_string(batch) + " kind " + hard_name(kind) +
                                    " is_train " + std::to_string(train);
          EXPECT_EQ(same(out.dx, batch), 0) << "dx differs from channel 0: " << where;
          EXPECT_EQ(same(out.dbias, 1), 0) << "dbias differs from channel 0: " << where;
          EXPECT_EQ(same(out.dscale, 1), 0) << "dscale differs from channel 0: " << where;
        }
      }
    }
  }
}

// The compensated sums are exact where every block total is: each lane adds
// its block totals by TwoSum, so with totals +2^107, s1, -2^107, s2 (s1, s2
// small integers, exact in binary64, lost next to 2^107 by a plain sum) its
// (hi, lo) pair holds s1 + s2 exactly, and so do dbias and dscale (x - mean = 1,
// invar = 1): they must be the exact value, bit for bit. Accuracy alone cannot
// see a lost error term here (alpha*M is 2^64). 256 channels (fold 1, whole
// vectors) and a batch giving every row band four blocks (partition.hpp), so
// the vector loops add block totals within a band and combine the bands.
TEST(BNG_KSUITE(KernelDeterminism), CompensatedBlockSumsAreExactWhereBlockTotalsAre) {
  constexpr std::int64_t kChannels = 256;
  const opt::TargetModel model = target_model();
  std::int64_t batch = 4 * opt::kBlockRows;
  while (opt::make_partition(batch, kChannels, model).blocks <
         4 * opt::make_partition(batch, kChannels, model).row_parts)
    batch *= 2;
  const opt::Partition p = opt::make_partition(batch, kChannels, model);
  ASSERT_EQ(p.fold, 1);
  ASSERT_EQ(p.blocks % (4 * p.row_parts), 0) << "every band starts at a block of +2^100";
  Case c;
  c.combo = Combo::fp;
  c.batch = batch;
  c.channel = kChannels;
  c.is_train = 0;
  c.mean.assign(kChannels, 0.0);
  c.invar.assign(kChannels, 1.0);
  c.scale.assign(kChannels, 1.0);
  for (std::int64_t n = 0; n < batch; ++n) {
    const std::int64_t block = n / p.fold / opt::kBlockRows;  // the lane's block of row n
    for (std::int64_t k = 0; k < kChannels; ++k) {
      const double small = static_cast<double>((n * 7 + k) % 9) - 4.0;
      c.x.push_back(1.0);
      c.dy.push_back(block % 2 == 1 ? small : block % 4 == 0 ? 0x1p100 : -0x1p100);
    }
  }
  const ref::Result want = ref::compute(c);
  const Outputs got = decode(c, run_raw(c, 0x3));
  for (std::int64_t k = 0; k < kChannels; ++k) {
    EXPECT_EQ(got.dbias[k], want.dbias[k].rounded) << "channel " << k << ", batch " << batch;
    EXPECT_EQ(got.dscale[k], want.dscale[k].rounded) << "channel " << k << ", batch " << batch;
  }
}

}  // namespace
}  // namespace bng::ktest
