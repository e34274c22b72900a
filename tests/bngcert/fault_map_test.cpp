// Fault localisation of `bngcert check` (issue 11): a fault planted in one
// vector lane, or in the rows one part of the call computed, shows up in the
// report's fault map at exactly that lane or part, and nowhere else.
#include <gtest/gtest.h>
#include <unistd.h>

#include <bit>
#include <cstdint>

#include "bng/reference/reference.hpp"
#include "case_files.hpp"
#include "fault_map.hpp"
#include "perfect_outputs.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bng::Case;
using bng::Combo;
using bng::Outputs;
using bngcert_test::bngcert;
using bngcert_test::perfect;
using bngcert_test::read_json;
using bngcert_test::Scratch;
using nlohmann::json;

namespace {

// 4096 x 64 fp: MT7004 folds 4 rows into one 256-lane wide row, 8 row bands
// (bng/optimized/partition.hpp), and 64 channels keep lane = channel mod 32.
Case make_case(int is_train) {
  Case c;
  c.combo = Combo::fp;
  c.batch = 4096;
  c.channel = 64;
  c.is_train = is_train;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t ch = 0; ch < c.channel; ++ch) {
      c.x.push_back(static_cast<double>((n * 7 + ch * 3) % 11) / 8.0 - 0.5);
      c.dy.push_back(static_cast<double>((n * 5 + ch * 2) % 9) / 16.0 - 0.125);
    }
  }
  for (std::int64_t ch = 0; ch < c.channel; ++ch) {
    c.mean.push_back(0.25 * static_cast<double>(ch % 3));
    c.invar.push_back(0.75 + 0.125 * static_cast<double>(ch % 5));
    c.scale.push_back(ch % 2 ? -1.5 : 0.5);
  }
  return c;
}

// 64 binary32 ulps up: beyond any bound α·M of these well-conditioned outputs.
double raised(double v) {
  const auto bits = std::bit_cast<std::uint32_t>(static_cast<float>(v));
  return std::bit_cast<float>(bits + 64u);
}

json check_faults(const fs::path& dir, const Case& c, const Outputs& o) {
  bng::cert::write_case_dir(
      dir / "dump", c, o,
      {{"batch", c.batch}, {"channel", c.channel}, {"is_train", c.is_train}, {"target", "mt7004"}});
  const auto run = bngcert("check --dir " + (dir / "dump").string() + " --out " +
                           (dir / "out").string() + " --block-elements 40000 --jobs 2");
  EXPECT_EQ(run.status, 1) << run.output;
  return read_json(dir / "out" / "report.json")["kernels"][0]["outputs"]["dx"]["faults"];
}

}  // namespace

TEST(FaultMap, ALaneFaultShowsAtThatLaneOnly) {
  Scratch dir("fault_lane");
  const Case c = make_case(1);
  Outputs o = perfect(c);
  std::int64_t planted = 0;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t ch = 5; ch < c.channel; ch += 32) {
      double& y = o.dx[static_cast<std::size_t>(n * c.channel + ch)];
      if (y != 0) {
        y = raised(y);
        ++planted;
      }
    }
  }
  const json f = check_faults(dir.path(), c, o);
  EXPECT_EQ(f["fails"], planted);
  ASSERT_EQ(f["by_lane"].size(), 1u) << f.dump();
  EXPECT_EQ(f["by_lane"][0]["lane"], 5);
  EXPECT_EQ(f["by_lane"][0]["fails"], planted);
  EXPECT_EQ(f["vector_lanes"], 32);
  // Channels 5 and 37 of 64: columns 2 and 18 of the 32-bin map, every row bin.
  for (int r = 0; r < 16; ++r) {
    for (int col = 0; col < 32; ++col) {
      EXPECT_EQ(f["cells"][r][col].get<std::int64_t>() > 0, col == 2 || col == 18)
          << r << "," << col;
    }
  }
}

TEST(FaultMap, OneBadPartShowsAsThatPartOnly) {
  for (int is_train : {1, 0}) {
    Scratch dir("fault_part" + std::to_string(is_train));
    const Case c = make_case(is_train);
    Outputs o = perfect(c);
    bng::cert::FaultSite site{bng::prop::target("mt7004"),
                              Combo::fp,
                              bng::cert::Output::dx,
                              is_train,
                              c.batch,
                              c.channel,
                              0,
                              0};
    site.n = c.batch - 1;
    const int bad = bng::cert::fault_place(site).part;  // the part holding the last row
    ASSERT_GT(bng::cert::fault_place(site).parts, 1);
    std::int64_t planted = 0;
    for (std::int64_t n = 0; n < c.batch; ++n) {
      site.n = n;
      if (bng::cert::fault_place(site).part != bad) continue;
      for (std::int64_t ch = 0; ch < c.channel; ++ch) {
        double& y = o.dx[static_cast<std::size_t>(n * c.channel + ch)];
        if (y != 0) {
          y = raised(y);
          ++planted;
        }
      }
    }
    ASSERT_GT(planted, 0);
    ASSERT_LT(planted, c.batch * c.channel / 2) << "one part of several";
    const json f = check_faults(dir.path(), c, o);
    ASSERT_EQ(f["by_part"].size(), 1u) << f.dump();
    EXPECT_EQ(f["by_part"][0]["part"], bad);
    EXPECT_EQ(f["by_part"][0]["fails"], planted);
    // The last rows: the bottom of the map only.
    EXPECT_EQ(f["cells"][0][0], 0);
    EXPECT_GT(f["cells"][15][0].get<std::int64_t>(), 0);
  }
}
