// α comes from the kernel, never from the data (issue 21): an "alpha" in a
// dump's params.json is ignored (and said so), so planted errors still fail
// and `diff` sees no improvement; `check --alpha` stays for investigation,
// and its verdict says everywhere that it is not a release verdict — verify
// exits 1 on it and diff refuses to compare it, as it does older files that
// took α from params.json.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

#include "bng/properties/target.hpp"
#include "certificate.hpp"
#include "small_dump.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::Planted;
using bngcert_test::read_json;
using bngcert_test::read_text;
using bngcert_test::Scratch;
using bngcert_test::write_small_dump;
using nlohmann::json;

namespace {

const double kDeclared = bng::prop::declared_alpha(bng::prop::target("ft78ne"), bng::Combo::fp);

bngcert_test::Run check(const fs::path& dump, const fs::path& out, const std::string& extra = "") {
  return bngcert("check --dir " + dump.string() + " --out " + out.string() + extra);
}

bngcert_test::Run diff(const fs::path& old_file, const fs::path& new_file) {
  return bngcert_test::shell(std::string(BNGCERT_EXE) + " diff " + old_file.string() + " " +
                             new_file.string());
}

void write_json(const fs::path& p, const json& j) {
  std::ofstream(p) << j.dump(1);
}

bool has(const std::string& text, const std::string& phrase) {
  return text.find(phrase) != std::string::npos;
}

}  // namespace

TEST(AlphaFromTheKernel, AnAlphaInParamsJsonCannotLoosenTheBound) {
  Scratch dir("alpha_params");
  write_small_dump(dir.path() / "plain", Planted::three_doubled);
  write_small_dump(dir.path() / "loose", Planted::three_doubled, {{"alpha", 1e300}});

  auto r = check(dir.path() / "plain", dir.path() / "out_plain");
  ASSERT_EQ(r.status, 1) << r.output;
  r = check(dir.path() / "loose", dir.path() / "out_loose");
  EXPECT_EQ(r.status, 1) << "α = 1e300 from the data must not turn planted errors into a PASS: "
                         << r.output;
  EXPECT_TRUE(has(r.output, "params.json: 'alpha' (1e+300) is ignored")) << r.output;
  const json report = read_json(dir.path() / "out_loose" / "report.json");
  EXPECT_EQ(report["verdict"]["failed_outputs"], 3);
  EXPECT_EQ(report["run"]["alpha_source"], "declared");
  EXPECT_EQ(report["kernels"][0]["alpha"].get<double>(), kDeclared);
  EXPECT_EQ(report["verdict"]["is_release_verdict"], true);
  EXPECT_EQ(read_json(dir.path() / "out_loose" / "certificate.json")["verdict"], "fail");

  // The same outputs with and without the data's α: nothing to call better.
  r = diff(dir.path() / "out_plain" / "report.json", dir.path() / "out_loose" / "report.json");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r.output, "no change")) << r.output;
  EXPECT_FALSE(has(r.output, "better")) << r.output;
  r = diff(dir.path() / "out_plain" / "certificate.json",
           dir.path() / "out_loose" / "certificate.json");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(has(r.output, "better")) << r.output;
}

TEST(AlphaFromTheKernel, TheAlphaFlagGivesAnInvestigationNeverARelease) {
  Scratch dir("alpha_flag");
  write_small_dump(dir.path() / "clean", Planted::none);
  write_small_dump(dir.path() / "planted", Planted::three_doubled);
  ASSERT_EQ(check(dir.path() / "clean", dir.path() / "out_clean").status, 0);

  const fs::path out = dir.path() / "out_alpha";
  auto r = check(dir.path() / "planted", out, " --alpha 1e300");
  EXPECT_EQ(r.status, 0) << "at α = 1e300 the outputs pass; that is what --alpha asks: "
                         << r.output;
  EXPECT_TRUE(has(r.output, "check PASS (NOT a release verdict)")) << r.output;

  const json report = read_json(out / "report.json");
  EXPECT_EQ(report["verdict"]["pass"], true);
  EXPECT_EQ(report["verdict"]["is_release_verdict"], false);
  EXPECT_TRUE(has(report["verdict"]["release_note"].get<std::string>(),
                  "ft78ne/fp judged at α = 0x1.7e43c8800759cp+996, not its declared α"))
      << report["verdict"];
  EXPECT_EQ(report["run"]["alpha_source"], "--alpha");
  EXPECT_TRUE(has(read_text(out / "report.md"), "**Verdict: PASS — NOT a release verdict**"));
  EXPECT_TRUE(has(read_text(out / "report.html"), "PASS — NOT a release verdict"));

  const json cert = read_json(out / "certificate.json");
  EXPECT_EQ(cert["verdict"], "pass");
  EXPECT_EQ(cert["is_release_verdict"], false);
  EXPECT_TRUE(has(cert["criterion"].get<std::string>(), "NOT the kernel's declared bound"));
  EXPECT_TRUE(has(read_text(out / "certificate.md"),
                  "# BatchNormGrad accuracy certificate — PASS — NOT a release verdict"));

  r = bngcert("verify " + out.string());
  EXPECT_EQ(r.status, 1) << "a PASS at another α is no release PASS: " << r.output;
  EXPECT_TRUE(has(r.output, "its PASS is not a release verdict")) << r.output;

  // diff will not compare it, either way round, report or certificate.
  for (const char* file : {"report.json", "certificate.json"}) {
    r = diff(dir.path() / "out_clean" / file, out / file);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_TRUE(has(r.output, (out / file).string() + ": NOT a release verdict")) << r.output;
    EXPECT_FALSE(has(r.output, "better")) << r.output;
    r = diff(out / file, dir.path() / "out_clean" / file);
    EXPECT_EQ(r.status, 2) << r.output;
  }

  for (const char* bad : {"-1", "inf"}) {
    r = check(dir.path() / "planted", dir.path() / "out_bad", std::string(" --alpha ") + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.output;
    EXPECT_TRUE(has(r.output, "must be a finite non-negative number")) << r.output;
  }
}

// Files written before α was tied to the kernel (no is_release_verdict, no
// declared_alpha) that took α from params.json: their alpha_source says so.
TEST(AlphaFromTheKernel, OlderFilesJudgedAtTheDumpsAlphaAreNoReleaseVerdict) {
  Scratch dir("alpha_older");
  write_small_dump(dir.path() / "clean", Planted::none);
  ASSERT_EQ(check(dir.path() / "clean", dir.path() / "out").status, 0);
  const fs::path out = dir.path() / "out";

  json report = read_json(out / "report.json");
  report["verdict"].erase("is_release_verdict");
  report["verdict"].erase("release_note");
  report["kernels"][0].erase("declared_alpha");
  report["kernels"][0]["alpha"] = 1e300;
  report["run"]["alpha_source"] = "params.json";
  write_json(dir.path() / "older_report.json", report);
  auto r = diff(out / "report.json", dir.path() / "older_report.json");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, "α taken from params.json")) << r.output;

  json cert = read_json(out / "certificate.json");
  cert.erase("is_release_verdict");
  cert.erase("release_note");
  cert["runs"][0]["kernels"][0].erase("declared_alpha");
  cert["campaign"]["alpha_source"] = "params.json";
  cert["digest"]["value"] = bng::cert::certificate_digest(cert);  // as an older bngcert wrote it
  write_json(dir.path() / "older_certificate.json", cert);
  r = bngcert("verify " + (dir.path() / "older_certificate.json").string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_TRUE(has(r.output, "NOT a release verdict: α taken from params.json")) << r.output;

  // The same file, α declared: a release PASS.
  cert["campaign"]["alpha_source"] = "declared";
  cert["digest"]["value"] = bng::cert::certificate_digest(cert);
  write_json(dir.path() / "older_declared.json", cert);
  r = bngcert("verify " + (dir.path() / "older_declared.json").string());
  EXPECT_EQ(r.status, 0) << r.output;
}
