// SPEC §5's declared correct rounding (docs/spec-notes.md #15): every kernel
// declares inference dx correctly rounded, so `check` judges it by equality
// with RN(y*) at the declared α — one ulp off fails though α alone would pass
// it — and says so in the report and certificate; an investigator's other
// --alpha judges by α alone.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "bng/reference/case.hpp"
#include "case_files.hpp"
#include "certificate.hpp"
#include "perfect_outputs.hpp"
#include "small_dump.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::Scratch;
using nlohmann::json;

namespace {

// small_case(fp) in inference on ft78ne, its dx[7] one binary32 ulp from RN(y*)
// when nudged.
void write_inference_dump(const fs::path& dir, bool nudged) {
  bng::Case c = bngcert_test::small_case(bng::Combo::fp);
  c.is_train = 0;
  bng::Outputs o = bngcert_test::perfect(c);
  if (nudged) o.dx[7] = std::nextafter(static_cast<float>(o.dx[7]), 1e30f);
  const json params = {
      {"batch", c.batch}, {"channel", c.channel}, {"is_train", c.is_train}, {"target", "ft78ne"}};
  bng::cert::write_case_dir(dir, c, o, params);
}

bngcert_test::Run check(const fs::path& dump, const fs::path& out, const std::string& extra = "") {
  return bngcert("check --dir " + dump.string() + " --out " + out.string() + extra);
}

}  // namespace

TEST(CorrectRounding, InferenceDxIsJudgedByEqualityAtTheDeclaredAlpha) {
  Scratch dir("correct_rounding");
  write_inference_dump(dir.path() / "exact", false);
  write_inference_dump(dir.path() / "nudged", true);

  auto r = check(dir.path() / "exact", dir.path() / "out_exact");
  ASSERT_EQ(r.status, 0) << r.output;
  json kernel = read_json(dir.path() / "out_exact" / "report.json")["kernels"][0];
  EXPECT_EQ(kernel["correctly_rounded"], json::array({"inference dx"}));

  r = check(dir.path() / "nudged", dir.path() / "out_nudged");
  EXPECT_EQ(r.status, 1) << "one ulp from RN(y*) must fail a correctly rounded output: "
                         << r.output;
  const json report = read_json(dir.path() / "out_nudged" / "report.json");
  EXPECT_EQ(report["verdict"]["failed_outputs"], 1);
  EXPECT_NE(report.dump().find("y is not RN(y*), and the kernel declares correct rounding"),
            std::string::npos);
  const json cert = read_json(dir.path() / "out_nudged" / "certificate.json");
  EXPECT_EQ(cert["verdict"], "fail");
  EXPECT_EQ(cert["runs"][0]["kernels"][0]["correctly_rounded"], json::array({"inference dx"}));
  EXPECT_NE(cert["criterion"].get<std::string>().find("y = RN(y*) bit for bit"), std::string::npos);

  // Judged at another α (an investigation), the same output is within 1 ulp + α·M.
  r = check(dir.path() / "nudged", dir.path() / "out_alpha", " --alpha 1e-9");
  EXPECT_EQ(r.status, 0) << r.output;
  kernel = read_json(dir.path() / "out_alpha" / "report.json")["kernels"][0];
  EXPECT_EQ(kernel["correctly_rounded"], json::array());
}

// The certificate states a report's list only as bngcert writes it: the
// reports of `certify --isa all` are read back from files, so a list that
// names no output of a call, or is not a list of names, is refused.
TEST(CorrectRounding, ACertificateRefusesAListBngcertNeverWrites) {
  Scratch dir("correct_rounding_list");
  write_inference_dump(dir.path() / "exact", false);
  ASSERT_EQ(check(dir.path() / "exact", dir.path() / "out").status, 0);
  const json report = read_json(dir.path() / "out" / "report.json");
  EXPECT_EQ(bng::cert::certificate_json({report})["runs"][0]["kernels"][0]["correctly_rounded"],
            json::array({"inference dx"}));

  json older = report;
  older["kernels"][0].erase("correctly_rounded");
  EXPECT_EQ(bng::cert::certificate_json({older})["runs"][0]["kernels"][0]["correctly_rounded"],
            json::array());

  for (const json& bad : {json::array({"every output"}), json::array({5}), json("inference dx"),
                          json::array({json::array({"inference dx"})})}) {
    json tampered = report;
    tampered["kernels"][0]["correctly_rounded"] = bad;
    EXPECT_THROW(bng::cert::certificate_json({tampered}), std::runtime_error) << bad.dump();
  }
}
