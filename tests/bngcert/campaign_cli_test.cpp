// `bngcert report` and `bngcert certify` end to end on small campaigns of the
// built kernels: what they write, that the reproducers they write check back
// to the same verdict, and that bad options are refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
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
  EXPECT_EQ(r["schema_version"], 2);
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
  const auto& tool = c["build"]["tool"];
  EXPECT_EQ(tool["git_commit"].get<std::string>().size(), 40u);
  EXPECT_TRUE(tool["git_dirty"].is_boolean());
  EXPECT_FALSE(tool["compiler"].get<std::string>().empty());
  // Each library: the exact file, and the build recorded inside it.
  for (const char* target : {"ft78ne", "mt7004"}) {
    const auto& lib = c["build"]["libraries"][target];
    ASSERT_TRUE(lib.is_object()) << target;
    EXPECT_EQ(lib["sha256"].get<std::string>().size(), 64u) << target;
    EXPECT_EQ(lib["size"].get<std::uintmax_t>(), fs::file_size(lib["path"].get<std::string>()));
    EXPECT_EQ(lib["build"]["target"], target);
    EXPECT_EQ(lib["build"]["git_commit"], tool["git_commit"]) << "same tree, same commit";
    EXPECT_EQ(lib["build"]["cxx_flags"], tool["cxx_flags"]) << "same flags";
    EXPECT_EQ(lib["build"]["isa_paths"].back(), "portable") << target;
  }
  ASSERT_EQ(c["runs"].size(), 1u);
  const auto& run1 = c["runs"][0];
  EXPECT_EQ(run1["verdict"], c["verdict"]);
  const std::string path = run1["isa"]["path"].get<std::string>();
  EXPECT_EQ(run1["isa"]["supported"][0], path) << "no --isa, no BNG_ISA: the best path";
  EXPECT_EQ(run1["kernels"].size(), 4u);
  for (const auto& k : run1["kernels"]) {
    EXPECT_EQ(k["isa"], path);
    EXPECT_GT(k["alpha"].get<double>(), 0);
    EXPECT_LE(k["alpha"].get<double>(), k["combo"] == "fp" ? 0x1p-40 : 0x1p-20) << "SPEC §5's bar";
  }
  EXPECT_EQ(c["campaign"]["seed"], 7);
  EXPECT_GT(run1["outputs"].get<long>(), 0);
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

TEST(BngcertCertify, IsaAllGivesAVerdictPerPathOfTheSameFiles) {
  Scratch dir("isa_all");
  const auto run = bngcert(
      "certify --isa all --targets mt7004 --functions hp --cases 1 "
      "--max-size 8 --families ordinary,near_max --out " +
      dir.path().string());
  ASSERT_EQ(run.status, 0) << run.output;
  const auto c = read_json(dir.path() / "certificate.json");
  const auto paths = c["runs"][0]["isa"]["supported"];
  ASSERT_GE(paths.size(), 1u);
  ASSERT_EQ(c["runs"].size(), paths.size()) << "one run per path this processor supports";
  for (std::size_t k = 0; k < paths.size(); ++k) {
    const auto& r = c["runs"][k];
    EXPECT_EQ(r["isa"]["path"], paths[k]);
    EXPECT_EQ(r["isa"]["requested"], paths[k]);
    EXPECT_EQ(r["verdict"], "pass");
    EXPECT_EQ(r["kernels"][0]["isa"], paths[k]) << "the kernel ran on the path certified";
    EXPECT_TRUE(fs::exists(dir.path() / paths[k].get<std::string>() / "report.json"));
  }
  EXPECT_EQ(c["build"]["libraries"].size(), 1u);
  EXPECT_FALSE(c["build"]["libraries"]["mt7004"].contains("isa_ran")) << "per run, not per file";
}

TEST(BngcertCli, RefusesAPathAndAnIsaItDoesNotKnow) {
  Scratch dir("isa_bad");
  auto r = bngcert("certify --isa sse9 --out " + dir.path().string());
  EXPECT_EQ(r.status, 2) << r.output;
  r = bngcert("report --isa all --out " + dir.path().string());
  EXPECT_EQ(r.status, 2) << "all is for certify: " << r.output;
}

TEST(BngcertCli, VersionNamesTheToolsOwnBuild) {
  const auto r = bngcert("--version");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(r.output.rfind("bngcert ", 0), 0u) << r.output;
  EXPECT_NE(r.output.find("commit "), std::string::npos) << r.output;
}

// verify: the files and the certificate as certify left them pass; a library
// with one byte changed, a certificate with its verdict or a count edited,
// and a file for a target the certificate did not judge do not (exit 3: not
// as recorded; verify_cli_test.cpp has the other statuses).
TEST(BngcertVerify, ConfirmsTheFilesAndCatchesAnyEdit) {
  Scratch dir("verify");
  const fs::path cert_dir = dir.path() / "cert";
  ASSERT_EQ(bngcert("certify --targets mt7004 --functions fp --families ordinary --cases 1 "
                    "--max-size 5 --out " +
                    cert_dir.string())
                .status,
            0);
  const fs::path cert = cert_dir / "certificate.json";
  auto r = bngcert("verify " + cert_dir.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("covers exactly these files"), std::string::npos) << r.output;

  const auto c = read_json(cert);
  const fs::path lib = c["build"]["libraries"]["mt7004"]["path"].get<std::string>();
  const fs::path copy = dir.path() / "copy.so";
  fs::copy_file(lib, copy);
  r = bngcert("verify " + cert.string() + " --lib-mt7004 " + copy.string());
  EXPECT_EQ(r.status, 0) << "an identical copy is the same file: " << r.output;
  {
    std::fstream f(copy, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(fs::file_size(copy) / 2));
    char b = 0;
    f.read(&b, 1);
    f.seekp(static_cast<std::streamoff>(fs::file_size(copy) / 2));
    b = static_cast<char>(b ^ 0x01);
    f.write(&b, 1);
  }
  r = bngcert("verify " + cert.string() + " --lib-mt7004 " + copy.string());
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("DIFFERS"), std::string::npos) << r.output;

  r = bngcert("verify " + cert.string() + " --lib-ft78ne " + lib.string());
  EXPECT_EQ(r.status, 3) << "the certificate judged no ft78ne library: " << r.output;

  const auto edited = [&](const std::string& name, auto change) {
    auto e = c;
    change(e);
    const fs::path p = dir.path() / name;
    std::ofstream(p) << e.dump(2);
    return bngcert("verify " + p.string());
  };
  r = edited("verdict.json", [](nlohmann::json& e) { e["verdict"] = "fail"; });
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("changed after its digest was computed"), std::string::npos) << r.output;
  r = edited("count.json", [](nlohmann::json& e) { e["runs"][0]["outputs"] = 1; });
  EXPECT_EQ(r.status, 3) << r.output;
  r = edited("hash.json", [](nlohmann::json& e) {
    e["build"]["libraries"]["mt7004"]["sha256"] = std::string(64, '0');
  });
  EXPECT_EQ(r.status, 3) << r.output;
  r = edited("reformatted.json", [](nlohmann::json&) {});
  EXPECT_EQ(r.status, 0) << "whitespace is not content: " << r.output;

  r = bngcert("verify " + (dir.path() / "missing.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
  std::ofstream(dir.path() / "junk.json") << "{not json";
  r = bngcert("verify " + (dir.path() / "junk.json").string());
  EXPECT_EQ(r.status, 2) << r.output;
}
