// The schedule (who computes what): each phase's regions cover every element
// exactly once, and the inverse lookup fault maps use (place_dx, place_channel)
// names the one part whose region holds the element - for every branch the
// driver takes: tiles, whole row bands (which depend on the core mask), grid
// parts, pooled and single-part combine.
#include <gtest/gtest.h>

#include <cstdint>

#include "bng/optimized/schedule.hpp"
#include "kernel_runner.hpp"

namespace bng::opt {
namespace {

constexpr TargetModel kModels[] = {{8, 16, 768 * 1024}, {8, 32, 512 * 1024}};
constexpr unsigned kMasks[] = {0x0, 0x1, 0x3, 0x7, 0x0F, 0xFF};

bool holds(const Region& g, std::int64_t wide_row, std::int64_t lane) {
  return g.row_begin <= wide_row && wide_row < g.row_end && g.lane_begin <= lane &&
         lane < g.lane_end;
}

// The region of `part` in the phase that writes dx.
Region dx_region(const Schedule& s, int part) {
  return s.train ? s.apply_region(part) : s.reduce_region(part);
}

// Every sampled dx element lies in the region of the part place_dx names and
// in no other part's region of that phase.
void expect_dx_placed(const Schedule& s, std::int64_t batch, std::int64_t channel) {
  const std::int64_t step_n = batch > 128 ? batch / 127 : 1;
  const std::int64_t step_c = channel > 128 ? channel / 127 : 1;
  for (std::int64_t n = 0; n < batch; n += step_n) {
    for (std::int64_t c = 0; c < channel; c += step_c) {
      const Placement at = place_dx(s, n, c);
      ASSERT_EQ(at.parts, s.train && !s.tiled ? s.apply_parts : s.reduce_parts);
      ASSERT_TRUE(holds(dx_region(s, at.part), at.wide_row, at.lane)) << n << "," << c;
      int holders = 0;
      for (int part = 0; part < at.parts; ++part) {
        holders += holds(dx_region(s, part), at.wide_row, at.lane) ? 1 : 0;
      }
      ASSERT_EQ(holders, 1) << n << "," << c;
    }
  }
}

void expect_channels_placed(const Schedule& s, std::int64_t channel) {
  std::int64_t next = 0;
  for (int k = 0; k < s.combine_parts; ++k) {
    EXPECT_EQ(s.combine_begin(k), next);
    next = s.combine_end(k);
  }
  EXPECT_EQ(next, channel);  // tiled: fold 1, so the tiles' lanes are the channels
  for (std::int64_t c = 0; c < channel; ++c) {
    const Placement at = place_channel(s, c);
    ASSERT_LE(s.combine_begin(at.part), c);
    ASSERT_LT(c, s.combine_end(at.part));
  }
}

TEST(BNG_KSUITE(Schedule), EveryOutputIsPlacedInThePartThatWritesIt) {
  const std::int64_t shapes[][2] = {{4, 64},     {256, 4096}, {1024, 1024}, {300, 3000},
                                    {65536, 64}, {70001, 3},  {256, 65536}};
  for (const TargetModel& t : kModels) {
    for (const auto& shape : shapes) {
      for (const unsigned mask : kMasks) {
        for (const bool train : {true, false}) {
          const Schedule s = make_schedule(shape[0], shape[1], train, 4, t, mask);
          SCOPED_TRACE(testing::Message()
                       << shape[0] << "x" << shape[1] << " lanes " << t.vector_lanes << " mask "
                       << mask << " train " << train);
          expect_dx_placed(s, shape[0], shape[1]);
          expect_channels_placed(s, shape[1]);
        }
      }
    }
  }
}

TEST(BNG_KSUITE(Schedule), ReduceRunsWholeBandsWhereTheThreadsShareThemEvenly) {
  // 256 x 4096: two row bands of column ranges on both models.
  for (const TargetModel& t : kModels) {
    for (const unsigned mask : {0x7u, 0x0Fu, 0xFFu}) {  // 3, 4, 8 threads: not even
      const Schedule grid = make_schedule(256, 4096, false, 4, t, mask);
      ASSERT_EQ(grid.p.row_parts, 2);
      ASSERT_GT(grid.p.col_parts, 1);
      EXPECT_FALSE(grid.whole_bands) << mask;
      EXPECT_EQ(grid.reduce_parts, grid.p.parts());
    }
    for (const unsigned mask : {0x0u, 0x1u, 0x3u, 0x81u}) {
      const Schedule bands = make_schedule(256, 4096, false, 4, t, mask);
      EXPECT_TRUE(bands.whole_bands) << mask;
      EXPECT_EQ(bands.reduce_parts, 2);
      // The last wide row is in band 1, whichever lane.
      EXPECT_EQ(place_dx(bands, 255, 4095).part, 1);
      EXPECT_EQ(place_dx(bands, 255, 0).part, 1);
    }
  }
}

TEST(BNG_KSUITE(Schedule), TheCoreMaskChangesPartsNeverThePartition) {
  for (const TargetModel& t : kModels) {
    const Schedule one = make_schedule(256, 4096, true, 4, t, 0x1);
    for (const unsigned mask : kMasks) {
      const Schedule s = make_schedule(256, 4096, true, 4, t, mask);
      EXPECT_EQ(s.p.row_parts, one.p.row_parts);
      EXPECT_EQ(s.p.col_parts, one.p.col_parts);
      EXPECT_EQ(s.p.fold, one.p.fold);
      EXPECT_EQ(s.apply_parts, one.apply_parts);
    }
  }
}

TEST(BNG_KSUITE(Schedule), ThreadsOfAMaskCountItsServedBitsAndTheCaller) {
  EXPECT_EQ(threads_of_mask(0), 1);
  EXPECT_EQ(threads_of_mask(0x1), 1);
  EXPECT_EQ(threads_of_mask(0x5), 2);
  EXPECT_EQ(threads_of_mask(0xFF), 8);
  EXPECT_EQ(threads_of_mask(0x100), 1);  // not a pool core
}

}  // namespace
}  // namespace bng::opt
