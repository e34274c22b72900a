// The round trip on a release-sized pack (label `campaign`, outside the
// default suite): the default campaign's case count at full size, through the
// harness on both libraries, judged on every core.
#include <gtest/gtest.h>

#include "pack_support.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::Scratch;

TEST(PackLarge, DefaultCampaignRoundTripPasses) {
  Scratch dir("pack_large");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  bngcert_test::export_pack(pack, " --cases 24 --max-size 100");
  bngcert_test::run_harnesses(pack);
  const auto r = bngcert("check --pack " + pack.string() + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const auto report = read_json(out / "report.json");
  EXPECT_TRUE(report["run"]["failed_cases"].empty());
  EXPECT_EQ(report["run"]["cases"], read_json(pack / "pack.json")["case_count"]);
}
