// The partition: from the shape only, at most one part per modelled core,
// tiny calls in one part, narrow tensors folded so that they still fill
// every core, row bands on block boundaries, lanes covered exactly once.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "kernel_runner.hpp"
#include "bng/optimized/partition.hpp"

namespace bng::opt {
namespace {

constexpr TargetModel kModels[] = {{8, 16, 768 * 1024}, {8, 32, 512 * 1024}};

TEST(BNG_KSUITE(Partition), CoversEveryElementOnceOnBlockBoundaries) {
  const std::int64_t shapes[][2] = {{1, 1},        {4, 64},      {64, 256},   {256, 1024},
                                    {1024, 1024},  {4096, 1024}, {65536, 64}, {1048576, 4},
                                    {16384, 4096}, {256, 65536}, {70001, 3},  {1 << 24, 1}};
  for (const TargetModel& t : kModels) {
    for (const auto& s : shapes) {
      const Partition p = make_partition(s[0], s[1], t);
      SCOPED_TRACE(testing::Message() << s[0] << "x" << s[1] << " lanes " << t.vector_lanes);
      EXPECT_GE(p.parts(), 1);
      EXPECT_LE(p.parts(), t.cores);
      EXPECT_EQ(p.width, p.fold * s[1]);
      EXPECT_EQ((p.wide_rows - 1) * p.fold * s[1] + p.last_lanes, s[0] * s[1]);
      EXPECT_GT(p.last_lanes, 0);
      EXPECT_LE(p.last_lanes, p.width);
      std::int64_t rows = 0;
      for (int r = 0; r < p.row_parts; ++r) {
        EXPECT_EQ(p.row_begin(r), rows);
        EXPECT_EQ(p.row_begin(r) % kBlockRows, 0);
        EXPECT_GT(p.row_end(r), p.row_begin(r));
        rows = p.row_end(r);
      }
      EXPECT_EQ(rows, p.wide_rows);
      std::int64_t lanes = 0;
      for (int k = 0; k < p.col_parts; ++k) {
        EXPECT_EQ(p.lane_begin(k), lanes);
        EXPECT_EQ(p.lane_begin(k) % t.vector_lanes, 0);
        EXPECT_GT(p.lane_end(k), p.lane_begin(k));
        lanes = p.lane_end(k);
      }
      EXPECT_EQ(lanes, p.width);
    }
  }
}

TEST(BNG_KSUITE(Partition), TinyCallsStayOnTheCallerAndNarrowTensorsUseEveryCore) {
  for (const TargetModel& t : kModels) {
    EXPECT_EQ(make_partition(4, 64, t).parts(), 1);
    EXPECT_EQ(make_partition(64, 256, t).parts(), 1);
    const Partition narrow = make_partition(1048576, 4, t);
    EXPECT_EQ(narrow.parts(), t.cores);
    EXPECT_EQ(narrow.width % t.vector_lanes, 0);
    EXPECT_EQ(make_partition(16384, 4096, t).parts(), t.cores);
  }
}

TEST(BNG_KSUITE(Partition), TrainingTilesOnlyShortWideBatchesAndCoverEveryLane) {
  for (const TargetModel& t : kModels) {
    for (const std::int64_t bytes : {4, 2}) {
      // Tiled: 256 x 65536 (64 MiB of binary32 per tensor, 32 MiB of binary16).
      Partition p = make_partition(256, 65536, t);
      const int untiled_parts = p.parts();
      ASSERT_TRUE(tile_for_training(p, bytes)) << bytes;
      EXPECT_EQ(p.row_parts, 1);
      EXPECT_GE(p.parts(), untiled_parts);
      std::int64_t lanes = 0;
      for (int k = 0; k < p.col_parts; ++k) {
        EXPECT_EQ(p.lane_begin(k), lanes);
        const std::int64_t tile = p.lane_end(k) - p.lane_begin(k);
        EXPECT_GE(tile * bytes, kMinTileRun);
        EXPECT_LE(tile * p.wide_rows * 2 * bytes,
                  kTileBytes + t.vector_lanes * p.wide_rows * 2 * bytes);
        lanes = p.lane_end(k);
      }
      EXPECT_EQ(lanes, p.width);
      // Not tiled: cache-sized data, folded narrow tensors, rows too short per tile.
      for (const auto& s :
           {std::array<std::int64_t, 2>{1024, 1024}, {64, 256}, {1048576, 4}, {16384, 4096}}) {
        Partition q = make_partition(s[0], s[1], t);
        const Partition before = q;
        EXPECT_FALSE(tile_for_training(q, bytes)) << s[0] << "x" << s[1];
        EXPECT_EQ(q.parts(), before.parts());
      }
    }
  }
}

}  // namespace
}  // namespace bng::opt
