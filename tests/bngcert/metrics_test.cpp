// The golden-data metrics of reports (issue 11), on outputs whose errors are
// known exactly: correctly rounded outputs give similarity 1 and no relative
// error beyond half an ulp; one output doubled shows as exactly one output
// over 1e-3, a maximum relative error of 1, and drops the shares by one.
#include <gtest/gtest.h>
#include <unistd.h>

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

Case make_case() {
  Case c;
  c.combo = Combo::fp;
  c.batch = 40;
  c.channel = 5;
  c.is_train = 0;  // inference: dx = scale*invar*dy, no cancellation, every y* nonzero
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t ch = 0; ch < c.channel; ++ch) {
      c.x.push_back(static_cast<double>((n * 7 + ch * 3) % 11) / 8.0 - 0.5);
      c.dy.push_back(static_cast<double>((n * 5 + ch * 2) % 9 + 1) / 16.0);
    }
  }
  for (std::int64_t ch = 0; ch < c.channel; ++ch) {
    c.mean.push_back(0.25);
    c.invar.push_back(0.3 + 0.1 * static_cast<double>(ch));  // products round: not all exact
    c.scale.push_back(1.0 / 3.0 + static_cast<double>(ch));
  }
  for (auto* v : {&c.invar, &c.scale}) {
    for (double& s : *v) s = static_cast<float>(s);
  }
  return c;
}

json dx_metrics(const fs::path& dir, const Case& c, const Outputs& o, int want_status) {
  bng::cert::write_case_dir(
      dir / "dump", c, o,
      {{"batch", c.batch}, {"channel", c.channel}, {"is_train", c.is_train}, {"target", "ft78ne"}});
  const auto run =
      bngcert("check --dir " + (dir / "dump").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(run.status, want_status) << run.output;
  return read_json(dir / "out" / "report.json")["kernels"][0]["outputs"]["dx"]["metrics"];
}

}  // namespace

TEST(Metrics, CorrectlyRoundedOutputsAndOnePlantedError) {
  Scratch dir("metrics");
  const Case c = make_case();
  const auto r = bng::ref::compute(c);
  Outputs o;
  for (const auto& e : r.dx) o.dx.push_back(e.rounded);
  for (const auto& e : r.dbias) o.dbias.push_back(e.rounded);
  for (const auto& e : r.dscale) o.dscale.push_back(e.rounded);

  const json m = dx_metrics(dir.path() / "clean", c, o, 0);
  EXPECT_EQ(m["compared"], 200);
  EXPECT_EQ(m["share_correctly_rounded"], 1.0);
  EXPECT_EQ(m["share_within_1ulp"], 1.0);
  EXPECT_NEAR(m["cosine_similarity"].get<double>(), 1.0, 1e-12);
  EXPECT_LE(m["max_rel_error"].get<double>(), 0x1p-24) << "half an ulp of binary32 at most";
  EXPECT_GT(m["max_rel_error"].get<double>(), 0.0) << "the case has inexact products";
  EXPECT_EQ(m["share_rel_error_over_1e-4"], 0.0);

  o.dx[17] *= 2;  // relative error 1 (to within the rounding of the original)
  const json bad = dx_metrics(dir.path() / "planted", c, o, 1);
  EXPECT_EQ(bad["correctly_rounded"], 199);
  EXPECT_EQ(bad["within_1ulp"], 199);
  EXPECT_DOUBLE_EQ(bad["share_rel_error_over_1e-3"].get<double>(), 1.0 / 200);
  EXPECT_DOUBLE_EQ(bad["share_rel_error_over_1e-4"].get<double>(), 1.0 / 200);
  EXPECT_NEAR(bad["max_rel_error"].get<double>(), 1.0, 1e-6);
  EXPECT_LT(bad["cosine_similarity"].get<double>(), 1.0 - 1e-6);
  EXPECT_NEAR(bad["mean_rel_error"].get<double>(), 1.0 / 200, 1e-6);
}
