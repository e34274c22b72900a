// Sharded runs (issue 12): `--shard K/N` on certify, report, export and
// check --pack, and `bngcert merge`. The merged report and certificate must be
// those of the unsharded run with the same options, field by field — tallies,
// worst cases and their reproducers, failures, fault maps, verdict — for
// N = 1, 2, 3 and 7, whatever the shards found (a faulty device run included).
// Only what records time and place may differ: when it ran, how long, on how
// many threads, where the files lay, and the "sharding" record merge adds.
// Shards that do not belong together are refused, naming the culprit, and a
// --partial merge never passes.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "pack_support.hpp"
#include "tool_support.hpp"

namespace {

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::read_text;
using bngcert_test::Scratch;
using bngcert_test::shell;
using nlohmann::json;
using Result = bngcert_test::Run;

// Names are built with append, not as "literal" + a temporary string: on that
// form gcc 12 at -O3 (a plain Release build) reports a false -Wrestrict.

// Both targets, every kernel, every family, both modes: small shapes, one
// large family; 3 cases per series give 108 cases, so 7 shards of 15-16.
const std::string kCampaign = " --cases 3 --max-size 12 --seed 19";

// Fields that say when, how long, how many threads, where: not what was judged.
const std::set<std::string> kTimeAndPlace = {"started_utc", "generated_utc", "duration_s",
                                             "jobs",        "sharding",      "digest"};

// Every difference between a and b outside kTimeAndPlace (and `also`), each
// named by its JSON path.
void expect_same(const json& a, const json& b, const std::string& path,
                 const std::set<std::string>& also = {}) {
  if (a.type() != b.type()) {
    ADD_FAILURE() << path << ": " << a.dump().substr(0, 200) << " vs " << b.dump().substr(0, 200);
    return;
  }
  if (a.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (kTimeAndPlace.contains(k) || also.contains(k)) continue;
      if (!b.contains(k)) {
        ADD_FAILURE() << path << "/" << k << " only in the first";
        continue;
      }
      expect_same(v, b[k], path + "/" + k, also);
    }
    for (const auto& [k, v] : b.items()) {
      if (!a.contains(k) && !kTimeAndPlace.contains(k) && !also.contains(k))
        ADD_FAILURE() << path << "/" << k << " only in the second";
    }
  } else if (a.is_array()) {
    if (a.size() != b.size()) {
      ADD_FAILURE() << path << ": " << a.size() << " vs " << b.size() << " entries";
      return;
    }
    for (std::size_t i = 0; i < a.size(); ++i)
      expect_same(a[i], b[i], path + "[" + std::to_string(i) + "]", also);
  } else if (a != b) {
    ADD_FAILURE() << path << ": " << a.dump() << " vs " << b.dump();
  }
}

// Report and certificate (if any) as above; the reproducers' files byte for byte.
void expect_same_run(const fs::path& whole, const fs::path& merged,
                     const std::set<std::string>& also = {}) {
  expect_same(read_json(whole / "report.json"), read_json(merged / "report.json"), "report", also);
  ASSERT_EQ(fs::exists(whole / "certificate.json"), fs::exists(merged / "certificate.json"));
  if (fs::exists(whole / "certificate.json")) {
    expect_same(read_json(whole / "certificate.json"), read_json(merged / "certificate.json"),
                "certificate", also);
  }
  std::set<std::string> files;
  if (fs::exists(whole / "reproducers")) {
    for (const auto& e : fs::recursive_directory_iterator(whole / "reproducers")) {
      if (!e.is_regular_file()) continue;
      const fs::path rel = fs::relative(e.path(), whole);
      files.insert(rel.string());
      EXPECT_EQ(read_text(e.path()), read_text(merged / rel)) << rel;
    }
  }
  std::set<std::string> merged_files;
  if (fs::exists(merged / "reproducers")) {
    for (const auto& e : fs::recursive_directory_iterator(merged / "reproducers")) {
      if (e.is_regular_file()) merged_files.insert(fs::relative(e.path(), merged).string());
    }
  }
  EXPECT_EQ(files, merged_files);
}

// Runs `command` once per shard of n into dir/<n>-<k>, then merges them into
// dir/<n>-merged; returns merge's result.
Result shard_and_merge(const fs::path& dir, const std::string& command, int n) {
  std::string shards;
  for (int k = 1; k <= n; ++k) {
    const fs::path out = dir / (std::to_string(n) + "-" + std::to_string(k));
    const Result r = bngcert(command + " --shard " + std::to_string(k) + "/" + std::to_string(n) +
                             " --out " + out.string());
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_TRUE(fs::exists(out / "shard.json")) << r.output;
    EXPECT_FALSE(fs::exists(out / "report.json")) << "a shard is judged only when merged";
    shards.append(" ").append(out.string());
  }
  return bngcert("merge" + shards + " --out " + (dir / (std::to_string(n) + "-merged")).string());
}

}  // namespace

TEST(Merge, CertifyShardsGiveTheUnshardedCertificateForOneTwoThreeAndSevenShards) {
  Scratch dir("merge_certify");
  const Result whole = bngcert("certify" + kCampaign + " --out " + (dir.path() / "whole").string());
  ASSERT_EQ(whole.status, 0) << whole.output;
  ASSERT_GT(read_json(dir.path() / "whole" / "report.json")["run"]["cases"].get<int>(), 100);
  for (int n : {1, 2, 3, 7}) {
    SCOPED_TRACE("N = " + std::to_string(n));
    const Result m = shard_and_merge(dir.path(), "certify" + kCampaign, n);
    ASSERT_EQ(m.status, 0) << m.output;
    const fs::path merged = dir.path() / (std::to_string(n) + "-merged");
    expect_same_run(dir.path() / "whole", merged);
    const json c = read_json(merged / "certificate.json");
    EXPECT_EQ(c["verdict"], "pass");
    EXPECT_EQ(c["runs"][0]["sharding"]["count"], n);
    EXPECT_EQ(c["runs"][0]["sharding"]["shards"].size(), static_cast<std::size_t>(n));
    EXPECT_NE(read_text(merged / "certificate.md").find("Merged from"), std::string::npos);
    // The merged certificate is a certificate like any other.
    const Result v = bngcert("verify " + merged.string());
    EXPECT_EQ(v.status, 0) << v.output;
  }
}

TEST(Merge, ReportShardsGiveTheUnshardedReport) {
  Scratch dir("merge_report");
  const std::string campaign = " --targets mt7004 --functions hp,mp --cases 2 --seed 4";
  ASSERT_EQ(bngcert("report" + campaign + " --out " + (dir.path() / "whole").string()).status, 0);
  const Result m = shard_and_merge(dir.path(), "report" + campaign, 3);
  ASSERT_EQ(m.status, 0) << m.output;
  expect_same_run(dir.path() / "whole", dir.path() / "3-merged");
  EXPECT_FALSE(fs::exists(dir.path() / "3-merged" / "certificate.json"))
      << "report shards make a report, not a certificate";
}

// A device run with a lane fault: failures, worst cases, fault maps and failed
// cases must merge to exactly what checking the whole pack gives.
TEST(Merge, PackCheckShardsAndExportShardsGiveTheWholeCheckOfAFaultyRun) {
  Scratch dir("merge_pack");
  const std::string campaign = " --cases 4 --max-size 10 --seed 3 --targets mt7004";
  const fs::path pack = dir.path() / "pack";
  bngcert_test::export_pack(pack, campaign);
  ASSERT_EQ(shell(std::string(HARNESS_LANE_FAULT) + " " + pack.string()).status, 0);
  const fs::path whole = dir.path() / "whole";
  ASSERT_EQ(bngcert("check --pack " + pack.string() + " --out " + whole.string()).status, 1);
  ASSERT_GT(read_json(whole / "report.json")["verdict"]["failed_outputs"].get<int>(), 0);

  for (int n : {2, 7}) {
    SCOPED_TRACE("check --pack --shard, N = " + std::to_string(n));
    const Result m = shard_and_merge(dir.path(), "check --pack " + pack.string(), n);
    EXPECT_EQ(m.status, 1) << m.output;
    expect_same_run(whole, dir.path() / (std::to_string(n) + "-merged"));
  }

  // export --shard: three packs, each run by the device and checked on its own.
  std::string checked;
  for (int k = 1; k <= 3; ++k) {
    const fs::path part = dir.path() / ("pack-" + std::to_string(k));
    bngcert_test::export_pack(part, campaign + " --shard " + std::to_string(k) + "/3");
    const json manifest = read_json(part / "pack.json");
    EXPECT_EQ(manifest["shard"]["index"], k);
    EXPECT_EQ(manifest["case_count_total"], read_json(pack / "pack.json")["case_count"]);
    ASSERT_EQ(shell(std::string(HARNESS_LANE_FAULT) + " " + part.string()).status, 0);
    const fs::path out = dir.path() / ("checked-" + std::to_string(k));
    const Result r = bngcert("check --pack " + part.string() + " --out " + out.string());
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_TRUE(fs::exists(out / "shard.json")) << "a shard pack's check is that shard";
    checked.append(" ").append(out.string());
    // A shard pack is not split again.
    const Result again = bngcert("check --pack " + part.string() + " --shard 1/2 --out " +
                                 (dir.path() / "again").string());
    EXPECT_EQ(again.status, 2) << again.output;
  }
  const fs::path merged = dir.path() / "export-merged";
  const Result m = bngcert("merge" + checked + " --out " + merged.string());
  EXPECT_EQ(m.status, 1) << m.output;
  // Each shard pack lies in its own folder: only the paths differ.
  expect_same_run(whole, merged, {"pack", "manifest"});
}

TEST(Merge, RefusesShardsThatDoNotBelongTogetherNamingTheCulprit) {
  Scratch dir("merge_refuse");
  const std::string campaign = " --targets mt7004 --functions hp --cases 2";
  const auto shard = [&](const std::string& name, const std::string& spec,
                         const std::string& extra = " --seed 8",
                         const std::string& command = "certify") {
    const fs::path out = dir.path() / name;
    const Result r =
        bngcert(command + campaign + extra + " --shard " + spec + " --out " + out.string());
    EXPECT_EQ(r.status, 0) << r.output;
    return out.string();
  };
  const std::string s1 = shard("s1", "1/3"), s2 = shard("s2", "2/3"), s3 = shard("s3", "3/3");
  const fs::path out = dir.path() / "merged";
  const auto refused = [&](const std::string& shards, const std::string& culprit,
                           const std::string& words) {
    const Result r = bngcert("merge " + shards + " --out " + out.string());
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_NE(r.output.find(culprit), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(words), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(out / "certificate.json")) << r.output;
    EXPECT_FALSE(fs::exists(out / "report.json")) << r.output;
  };
  refused(s1 + " " + shard("seed", "2/3", " --seed 9") + " " + s3, "seed", "seed 9 against 8");
  refused(s1 + " " + shard("options", "2/3", " --seed 8 --max-size 50") + " " + s3, "options",
          "different options (campaign.max_size)");
  // A shard record whose options lost one key and gained another: both named.
  fs::copy(s2, dir.path() / "keys", fs::copy_options::recursive);
  json edited = read_json(dir.path() / "keys" / "shard.json");
  edited["identity"]["campaign"].erase("max_size");
  edited["identity"]["campaign"]["planted"] = 1;
  std::ofstream(dir.path() / "keys" / "shard.json") << edited.dump();
  refused(s1 + " " + (dir.path() / "keys").string() + " " + s3, "keys",
          "campaign.max_size (missing), campaign.planted (extra)");
  refused(s1 + " " + shard("split", "2/4") + " " + s3, "split", "split 4 ways, not 3");
  refused(s1 + " " + shard("command", "2/3", " --seed 8", "report") + " " + s3, "command",
          "`report`, not of `certify`");
  // Another build of bngcert: its record says so.
  fs::copy(s2, dir.path() / "build", fs::copy_options::recursive);
  json record = read_json(dir.path() / "build" / "shard.json");
  record["build"]["tool"]["git_commit"] = "0123456789ab";
  std::ofstream(dir.path() / "build" / "shard.json") << record.dump();
  refused(s1 + " " + (dir.path() / "build").string() + " " + s3, "build", "another bngcert build");
  // A tally that is not the one its record names.
  fs::copy(s2, dir.path() / "swapped", fs::copy_options::recursive);
  fs::copy_file(fs::path(s3) / "tally.cbor", dir.path() / "swapped" / "tally.cbor",
                fs::copy_options::overwrite_existing);
  refused(s1 + " " + (dir.path() / "swapped").string() + " " + s3, "swapped", "SHA-256");
  // Twice the same shard, from two runs.
  fs::copy(s2, dir.path() / "twice", fs::copy_options::recursive);
  refused(s1 + " " + s2 + " " + (dir.path() / "twice").string() + " " + s3, "twice", "given twice");
  // One missing; one that never finished (no shard.json).
  refused(s1 + " " + s3, "2/3", "missing");
  fs::create_directories(dir.path() / "killed");
  refused(s1 + " " + (dir.path() / "killed").string() + " " + s3, "killed", "did not finish");
  // Junk where a tally should be, with its record naming the junk's true
  // SHA-256 so that the decoder itself must refuse it: an error, never a crash.
  fs::copy(s2, dir.path() / "junk", fs::copy_options::recursive);
  std::ofstream(dir.path() / "junk" / "tally.cbor") << "junk";
  const Result sum = shell("sha256sum " + (dir.path() / "junk" / "tally.cbor").string());
  ASSERT_EQ(sum.status, 0) << sum.output;
  json junk = read_json(dir.path() / "junk" / "shard.json");
  junk["tally"]["sha256"] = sum.output.substr(0, 64);
  std::ofstream(dir.path() / "junk" / "shard.json") << junk.dump();
  refused(s1 + " " + (dir.path() / "junk").string() + " " + s3, "junk", "not valid CBOR");
  // An --out where no shard can be written fails before any case runs.
  std::ofstream(dir.path() / "blocked") << "a file";
  const Result blocked = bngcert("certify" + campaign + " --seed 8 --shard 1/3 --out " +
                                 (dir.path() / "blocked").string());
  EXPECT_EQ(blocked.status, 2) << blocked.output;
  EXPECT_EQ(blocked.output.find("campaign:"), std::string::npos)
      << "no case should run: " << blocked.output;
  // A shard spec that is not K/N.
  for (const char* bad : {"0/3", "4/3", "3", "a/b", "1/0"}) {
    const Result r = bngcert("certify" + campaign + " --seed 8 --shard " + bad + " --out " +
                             (dir.path() / "bad").string());
    EXPECT_EQ(r.status, 2) << bad << ": " << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / "bad")) << bad;
  }
  // And the three that do belong together pass.
  const Result ok = bngcert("merge " + s1 + " " + s2 + " " + s3 + " --out " + out.string());
  EXPECT_EQ(ok.status, 0) << ok.output;
}

TEST(Merge, PartialMergeIsMarkedPartialAndNeverPasses) {
  Scratch dir("merge_partial");
  const std::string campaign = " --targets mt7004 --functions hp --cases 2 --seed 8";
  std::string present;
  for (int k : {1, 3}) {
    const fs::path out = dir.path() / std::string("s").append(std::to_string(k));
    ASSERT_EQ(
        bngcert("certify" + campaign + " --shard " + std::to_string(k) + "/3 --out " + out.string())
            .status,
        0);
    present.append(" ").append(out.string());
  }
  fs::create_directories(dir.path() / "s2");  // the killed shard's empty directory
  const fs::path out = dir.path() / "merged";
  const Result r = bngcert("merge --partial" + present + " " + (dir.path() / "s2").string() +
                           " --out " + out.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("PARTIAL"), std::string::npos) << r.output;
  const json c = read_json(out / "certificate.json");
  EXPECT_EQ(c["verdict"], "partial");
  EXPECT_EQ(c["runs"][0]["sharding"]["missing"], json::array({2}));
  const json report = read_json(out / "report.json");
  EXPECT_FALSE(report["verdict"]["pass"].get<bool>());
  EXPECT_TRUE(report["verdict"]["partial"].get<bool>());
  EXPECT_NE(read_text(out / "certificate.md").find("PARTIAL"), std::string::npos);
  EXPECT_NE(read_text(out / "report.md").find("PARTIAL"), std::string::npos);
  EXPECT_NE(read_text(out / "report.html").find("PARTIAL"), std::string::npos);
}

TEST(Merge, EveryIsaPathShardedGivesTheUnshardedMultiPathCertificate) {
  Scratch dir("merge_isa_all");
  const std::string campaign =
      " --targets mt7004 --functions hp --families ordinary,dy_cancel --cases 2 --max-size 8";
  const fs::path whole = dir.path() / "whole";
  ASSERT_EQ(bngcert("certify --isa all" + campaign + " --out " + whole.string()).status, 0);
  std::string shards;
  for (int k = 1; k <= 2; ++k) {
    const fs::path out = dir.path() / std::string("s").append(std::to_string(k));
    const Result r = bngcert("certify --isa all" + campaign + " --shard " + std::to_string(k) +
                             "/2 --out " + out.string());
    ASSERT_EQ(r.status, 0) << r.output;
    shards.append(" ").append(out.string());
  }
  const fs::path merged = dir.path() / "merged";
  const Result m = bngcert("merge" + shards + " --out " + merged.string());
  ASSERT_EQ(m.status, 0) << m.output;
  expect_same(read_json(whole / "certificate.json"), read_json(merged / "certificate.json"),
              "certificate");
  for (const auto& run : read_json(whole / "certificate.json")["runs"]) {
    const std::string path = run["isa"]["path"].get<std::string>();
    expect_same_run(whole / path, merged / path);  // its certificate too
  }
}
