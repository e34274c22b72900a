// `bngcert report` and `bngcert certify` end to end on small campaigns of the
// built kernels: what they write, that the reproducers they write check back
// to the same verdict, and that bad options are refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::read_text;
using bngcert_test::Scratch;

namespace {
// Small: every family, one case per kernel × family × mode, small shapes.
const std::string kSmall = "--cases 1 --max-size 10 --seed 7";
}  // namespace

TEST(BngcertReport, SmallCampaignWritesEveryArtefact) {
  Scratch dir("report");
  const auto run = bngcert("report " + kSmall + " --out " + dir.path().string());
  ASSERT_EQ(run.status, 0) << run.output;
  const auto r = read_json(dir.path() / "report.json");
  EXPECT_EQ(r["schema"], "bngcert-report");
  EXPECT_EQ(r["schema_version"], 1);
  EXPECT_EQ(r["run"]["kind"], "campaign");
  EXPECT_EQ(r["run"]["seed"], 7);
  ASSERT_EQ(r["kernels"].size(), 4u) << "ft78ne/fp, mt7004/fp, mt7004/hp, mt7004/mp";
  const auto families = r["run"]["families"].size();
  EXPECT_GT(families, 0u);
  for (const auto& k : r["kernels"]) {
    EXPECT_EQ(k["cases"], families * 2) << k["name"] << ": one case per family and mode";
    for (const char* out : {"dx", "dbias", "dscale"}) {
      const auto& o = k["outputs"][out];
      EXPECT_GT(o["stats"]["outputs"].get<long>(), 0) << k["name"] << " " << out;
      EXPECT_EQ(o["by_family"].size(), families * 2) << k["name"] << " " << out;
      ASSERT_FALSE(o["worst"].is_null()) << k["name"] << " " << out;
      const fs::path rep = dir.path() / o["worst"]["reproducer"].get<std::string>();
      for (const char* f : {"x", "dy", "mean", "invar", "scale", "dx", "dbias", "dscale"}) {
        EXPECT_TRUE(fs::exists(rep / (std::string(f) + ".npy"))) << rep << " " << f;
      }
      EXPECT_TRUE(fs::exists(rep / "params.json"));
    }
  }
  const std::string md = read_text(dir.path() / "report.md");
  EXPECT_NE(md.find("# BatchNormGrad error report"), std::string::npos);
  EXPECT_NE(md.find("mt7004/hp"), std::string::npos);
  const std::string html = read_text(dir.path() / "report.html");
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  std::size_t svgs = 0;
  for (std::size_t p = 0; (p = html.find("<svg", p)) != std::string::npos; ++p) ++svgs;
  EXPECT_EQ(svgs, 4u * 3u * 2u) << "a histogram and a scatter per kernel and output";
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
}

TEST(BngcertReport, SameSeedSameReportWhateverTheThreads) {
  Scratch a("seed_a"), b("seed_b");
  const std::string opts =
      "report --targets mt7004 --functions hp --families ordinary,dy_cancel --cases 3 "
      "--max-size 20 --seed 99 ";
  ASSERT_EQ(bngcert(opts + "--jobs 1 --out " + a.path().string()).status, 0);
  ASSERT_EQ(bngcert(opts + "--jobs 2 --out " + b.path().string()).status, 0);
  auto ka = read_json(a.path() / "report.json")["kernels"];
  auto kb = read_json(b.path() / "report.json")["kernels"];
  EXPECT_EQ(ka, kb) << "statistics, worst cases and failures must not depend on --jobs";
}

TEST(BngcertReport, ReproducersCheckBackToTheirVerdict) {
  Scratch dir("repro");
  ASSERT_EQ(bngcert("report --targets mt7004 --functions mp --families ordinary --cases 2 "
                    "--max-size 10 --out " +
                    dir.path().string())
                .status,
            0);
  const auto r = read_json(dir.path() / "report.json");
  for (const char* out : {"dx", "dbias", "dscale"}) {
    const auto& worst = r["kernels"][0]["outputs"][out]["worst"];
    Scratch checked(std::string("repro_check_") + out);
    const auto run =
        bngcert("check --dir " + (dir.path() / worst["reproducer"].get<std::string>()).string() +
                " --out " + checked.path().string());
    EXPECT_EQ(run.status, worst["pass"].get<bool>() ? 0 : 1) << run.output;
    const auto c = read_json(checked.path() / "report.json");
    const auto& again = c["kernels"][0]["outputs"][out]["worst"];
    EXPECT_EQ(again["bound_use"], worst["bound_use"]) << out;
    EXPECT_EQ(again["y_hex"], worst["y_hex"]) << out;
  }
}

TEST(BngcertCertify, BuiltKernelsPassASmallCampaign) {
  Scratch dir("certify");
  const auto run = bngcert("certify " + kSmall + " --out " + dir.path().string());
  const auto c = read_json(dir.path() / "certificate.json");
  EXPECT_EQ(c["schema"], "bngcert-certificate");
  EXPECT_EQ(run.status, c["verdict"] == "pass" ? 0 : 1) << "exit status follows the verdict";
  EXPECT_EQ(c["verdict"], "pass") << read_text(dir.path() / "certificate.md");
  EXPECT_EQ(c["build"]["git_commit"].get<std::string>().size(), 40u);
  EXPECT_TRUE(c["build"]["git_dirty"].is_boolean());
  EXPECT_FALSE(c["build"]["isa"].get<std::string>().empty());
  EXPECT_FALSE(c["build"]["compiler"].get<std::string>().empty());
  EXPECT_EQ(c["kernels"].size(), 4u);
  for (const auto& k : c["kernels"]) {
    EXPECT_GT(k["alpha"].get<double>(), 0);
    EXPECT_LE(k["alpha"].get<double>(), k["combo"] == "fp" ? 0x1p-40 : 0x1p-20) << "SPEC §5's bar";
  }
  EXPECT_EQ(c["campaign"]["seed"], 7);
  EXPECT_GT(c["campaign"]["outputs"].get<long>(), 0);
  EXPECT_NE(read_text(dir.path() / "certificate.md").find("Verdict"), std::string::npos);
}

TEST(BngcertCli, RefusesBadSelections) {
  Scratch dir("bad");
  const std::string out = " --out " + dir.path().string();
  auto r = bngcert("report --families no_such_family" + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("unknown family 'no_such_family'"), std::string::npos) << r.output;
  r = bngcert("report --targets ft78ne --functions hp" + out);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("'hp' matches nothing"), std::string::npos) << r.output;
  r = bngcert("report --targets tx9000" + out);
  EXPECT_EQ(r.status, 2) << r.output;
  r = bngcert("report --cases 0" + out);
  EXPECT_EQ(r.status, 2) << r.output;
  r = bngcert("");
  EXPECT_EQ(r.status, 2) << r.output;
}

TEST(BngcertCli, EntryPointSelectionCallsOnlyThatFunction) {
  Scratch dir("entry");
  ASSERT_EQ(
      bngcert(
          "report --targets mt7004 --functions hp_batchnormgrad_p --families integers --cases 2 "
          "--max-size 5 --out " +
          dir.path().string())
          .status,
      0);
  const auto k = read_json(dir.path() / "report.json")["kernels"];
  ASSERT_EQ(k.size(), 1u);
  EXPECT_EQ(k[0]["calls"], (nlohmann::json{{"hp_batchnormgrad_p", 4}}));
}
