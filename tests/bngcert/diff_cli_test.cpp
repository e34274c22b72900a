// `bngcert diff` (issue 11): identical runs are no regression; one more
// failure or a worse bound use is, naming the row; files that cannot be
// compared like for like are refused (exit 2) with the reason.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "bng/reference/reference.hpp"
#include "case_files.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bng::Case;
using bng::Combo;
using bng::Outputs;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::Scratch;
using nlohmann::json;

namespace {

Case make_case(std::int64_t batch) {
  Case c;
  c.combo = Combo::fp;
  c.batch = batch;
  c.channel = 3;
  c.is_train = 1;
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t ch = 0; ch < c.channel; ++ch) {
      c.x.push_back(static_cast<double>((n * 7 + ch * 3) % 11) / 8.0 - 0.5);
      c.dy.push_back(static_cast<double>((n * 5 + ch * 2) % 9) / 16.0 - 0.125);
    }
  }
  c.mean = {0.25, 0.0, -0.5};
  c.invar = {0.75, 1.5, static_cast<float>(0.3)};  // 0.3f: dx not all exact
  c.scale = {0.5, -1.5, 1.0};
  return c;
}

// Judges the case with its correctly rounded outputs, dx[planted] doubled if >= 0.
fs::path report(const fs::path& dir, const Case& c, int planted) {
  const auto r = bng::ref::compute(c);
  Outputs o;
  for (const auto& e : r.dx) o.dx.push_back(e.rounded);
  for (const auto& e : r.dbias) o.dbias.push_back(e.rounded);
  for (const auto& e : r.dscale) o.dscale.push_back(e.rounded);
  if (planted >= 0) o.dx[static_cast<std::size_t>(planted)] *= 2;
  bng::cert::write_case_dir(
      dir / "dump", c, o,
      {{"batch", c.batch}, {"channel", c.channel}, {"is_train", c.is_train}, {"target", "ft78ne"}});
  bngcert("check --dir " + (dir / "dump").string() + " --out " + (dir / "out").string());
  return dir / "out";
}

// `bngcert diff <args>` (the shared helper adds --progress, which diff has no use for).
bngcert_test::Run diff(const std::string& args) {
  return bngcert_test::shell(std::string(BNGCERT_EXE) + " diff " + args);
}

void write_json(const fs::path& p, const json& j) {
  std::ofstream f(p);
  f << j.dump(1);
}

}  // namespace

TEST(Diff, IdenticalIsNoRegressionAndOneMoreFailureIs) {
  Scratch dir("diff");
  const Case c = make_case(8);
  const fs::path clean = report(dir.path() / "clean", c, -1);
  const fs::path planted = report(dir.path() / "planted", c, 4);
  ASSERT_EQ(read_json(planted / "report.json")["verdict"]["failed_outputs"], 1);

  auto r = diff((clean / "report.json").string() + " " + (clean / "report.json").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("no change"), std::string::npos) << r.output;

  r = diff((clean / "report.json").string() + " " + (planted / "report.json").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("REGRESSION  ft78ne/fp dx: fails 0 -> 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("REGRESSION  ft78ne/fp dx input training: fails 0 -> 1"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("share correctly rounded"), std::string::npos) << r.output;

  // The other way round everything got better.
  r = diff((planted / "report.json").string() + " " + (clean / "report.json").string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("better"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("REGRESSION "), std::string::npos) << r.output;

  // Certificates compare per kernel and output; markdown is a table.
  r = diff((clean / "certificate.json").string() + " " + (planted / "certificate.json").string() +
           " --format markdown");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("| ft78ne/fp dx | fails | 0 | 1 | REGRESSION |"), std::string::npos)
      << r.output;
}

TEST(Diff, AWorseBoundUseIsARegression) {
  Scratch dir("diff_bound");
  const fs::path clean = report(dir.path() / "clean", make_case(8), -1);
  json old_report = read_json(clean / "report.json");
  // The old release used half the bound dx uses now (correctly rounded outputs
  // use some of it: up to half an ulp of the 1 ulp + α·M allowed).
  json& use = old_report["kernels"][0]["outputs"]["dx"]["stats"]["max_bound_use"];
  ASSERT_GT(use.get<double>(), 0.0);
  use = use.get<double>() / 2;
  write_json(dir.path() / "old.json", old_report);
  const auto r = diff((dir.path() / "old.json").string() + " " + (clean / "report.json").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("REGRESSION  ft78ne/fp dx: worst bound use "), std::string::npos)
      << r.output;
}

TEST(Diff, IncomparableFilesAreRefused) {
  Scratch dir("diff_refused");
  const fs::path a = report(dir.path() / "a", make_case(8), -1);
  const fs::path b = report(dir.path() / "b", make_case(9), -1);  // another call: other campaign

  auto r = diff((a / "report.json").string() + " " + (a / "certificate.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("compare report with report"), std::string::npos) << r.output;

  json v2 = read_json(a / "report.json");
  v2["schema_version"] = v2["schema_version"].get<int>() + 1;
  write_json(dir.path() / "v2.json", v2);
  r = diff((a / "report.json").string() + " " + (dir.path() / "v2.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("schema versions differ"), std::string::npos) << r.output;

  r = diff((a / "report.json").string() + " " + (b / "report.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("batch (8 vs 9)"), std::string::npos) << r.output;
  r = diff((a / "report.json").string() + " " + (b / "report.json").string() +
           " --allow-different-campaigns");
  EXPECT_NE(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("note: the runs differ in"), std::string::npos) << r.output;

  r = diff((a / "report.json").string() + " " + (dir.path() / "nope.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("nope.json: cannot open"), std::string::npos) << r.output;
}
