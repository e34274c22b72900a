// `bngcert verify`'s exit statuses (issue 21): 0 only for an intact
// certificate recording a release PASS over exactly the files at hand; 1
// intact but FAIL; 3 changed; 2 not a certificate — including a FAIL
// certificate with a second "verdict": "pass" put in front.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

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

bool has(const std::string& text, const std::string& phrase) {
  return text.find(phrase) != std::string::npos;
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The certificate of `check` over a small dump, written into dir/name.
fs::path checked(const fs::path& dir, const std::string& name, Planted planted) {
  write_small_dump(dir / (name + "_dump"), planted);
  const auto r = bngcert("check --dir " + (dir / (name + "_dump")).string() + " --out " +
                         (dir / name).string());
  EXPECT_EQ(r.status, planted == Planted::none ? 0 : 1) << r.output;
  return dir / name / "certificate.json";
}

}  // namespace

TEST(BngcertVerifyStatus, PassZeroFailOneChangedThree) {
  Scratch dir("verify_status");
  const fs::path pass = checked(dir.path(), "pass", Planted::none);
  const fs::path fail = checked(dir.path(), "fail", Planted::three_doubled);

  auto r = bngcert("verify " + pass.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(has(r.output, "cannot say who wrote the file")) << r.output;

  r = bngcert("verify " + fail.string());
  EXPECT_EQ(r.status, 1) << "an unedited FAIL certificate is intact, and no release PASS: "
                         << r.output;
  EXPECT_TRUE(has(r.output, "digest: intact")) << r.output;
  EXPECT_TRUE(has(r.output, "its verdict is FAIL")) << r.output;

  json edited = read_json(fail);
  edited["verdict"] = "pass";
  edited["failed_outputs"] = 0;
  write_text(dir.path() / "edited.json", edited.dump(2));
  r = bngcert("verify " + (dir.path() / "edited.json").string());
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_TRUE(has(r.output, "digest: DIFFERS")) << r.output;
  EXPECT_TRUE(has(r.output, "not to be trusted")) << r.output;
}

// The attack of issue 21, byte for byte: `"verdict":"pass",` put in front of
// a FAIL certificate's own "verdict": a reader taking the first of the two
// keys would see PASS, the digest (over the last) would hold.
TEST(BngcertVerifyStatus, ASecondVerdictKeyIsRefused) {
  Scratch dir("verify_duplicate");
  const fs::path fail = checked(dir.path(), "fail", Planted::three_doubled);
  std::string text = read_text(fail);
  ASSERT_EQ(text.front(), '{');
  text.insert(1, "\"verdict\":\"pass\",");
  const fs::path forged = dir.path() / "forged.json";
  write_text(forged, text);

  auto r = bngcert("verify " + forged.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, forged.string() + ": the key \"verdict\" appears twice")) << r.output;
  EXPECT_FALSE(has(r.output, "intact")) << r.output;

  std::ofstream(dir.path() / "junk.json") << R"({"schema": "bngcert-certificate", "verdict": 1})";
  r = bngcert("verify " + (dir.path() / "junk.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r.output, "junk.json")) << r.output;
}
