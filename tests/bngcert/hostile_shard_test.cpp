// Shards tried as an attacker (or an unlucky fleet) would: `bngcert merge`
// must refuse (exit 2) every shard that claims more than it holds, whose
// tallies do not add up to its case records, whose bound was loosened, or
// whose records a re-run here does not give again (--recheck); its counts come
// from the tallies, never from shard.json; hostile tally files are refused,
// never crash it or send it into a long loop.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "sha256.hpp"
#include "tool_support.hpp"

namespace {

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::expect_exit;
using bngcert_test::read_json;
using bngcert_test::read_text;
using bngcert_test::Scratch;
using bngcert_test::shell;
using nlohmann::json;
using Result = bngcert_test::Run;

const std::string kCampaign = " --targets mt7004 --functions hp --cases 2 --seed 8";

json read_tally(const fs::path& shard) {
  const std::string bytes = read_text(shard / "tally.cbor");
  return json::from_cbor(bytes.begin(), bytes.end());
}

// Writes the tally and recomputes its SHA-256 in shard.json: what anyone
// with a text editor and sha256sum can do.
void write_tally(const fs::path& shard, const std::vector<std::uint8_t>& bytes) {
  std::ofstream(shard / "tally.cbor", std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  json record = read_json(shard / "shard.json");
  record["tally"]["sha256"] = bng::cert::sha256_hex(bytes);
  std::ofstream(shard / "shard.json") << record.dump(1);
}
void write_tally(const fs::path& shard, const json& tally) {
  write_tally(shard, json::to_cbor(tally));
}

// A copy of `from` as dir/name, edited by `edit`.
fs::path tampered(const fs::path& from, const fs::path& dir, const std::string& name,
                  const std::function<void(const fs::path&)>& edit) {
  const fs::path to = dir / name;
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive);
  edit(to);
  return to;
}

class HostileShards : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new Scratch("hostile_shards");
    for (const char* k : {"1", "2"}) {
      const Result r = bngcert("certify" + kCampaign + " --shard " + std::string(k) + "/2 --out " +
                               (dir_->path() / ("s" + std::string(k))).string());
      ASSERT_EQ(r.status, 0) << r.output;
    }
    const Result r = bngcert("certify" + kCampaign + " --out " + (dir_->path() / "whole").string());
    ASSERT_EQ(r.status, 0) << r.output;
  }
  static void TearDownTestSuite() { delete dir_; }
  static fs::path at(const std::string& name) { return dir_->path() / name; }
  static Result merge(const std::string& shards, const std::string& extra = "") {
    return bngcert("merge " + shards + " --out " + at("merged").string() + extra);
  }
  static Scratch* dir_;
};
Scratch* HostileShards::dir_ = nullptr;

TEST_F(HostileShards, AShardRelabelledAsTheWholeRunIsRefused) {
  const fs::path whole = tampered(at("s2"), dir_->path(), "relabelled", [](const fs::path& d) {
    json r = read_json(d / "shard.json");
    r["shard"] = {{"index", 1}, {"count", 1}};
    std::ofstream(d / "shard.json") << r.dump(1);
  });
  expect_exit(merge(whole.string()), 2, "not exactly its part of the run");
  // And as the other half.
  const fs::path swapped = tampered(at("s2"), dir_->path(), "swapped", [](const fs::path& d) {
    json r = read_json(d / "shard.json");
    r["shard"]["index"] = 1;
    std::ofstream(d / "shard.json") << r.dump(1);
  });
  expect_exit(merge(swapped.string() + " " + at("s2").string()), 2, "not exactly its part");
}

TEST_F(HostileShards, CountsComeFromTheTalliesNotFromShardJson) {
  const fs::path inflated = tampered(at("s2"), dir_->path(), "inflated", [](const fs::path& d) {
    json r = read_json(d / "shard.json");
    r["run"]["cases"] = 1000001;
    r["run"]["outputs"] = 1000000000;
    std::ofstream(d / "shard.json") << r.dump(1);
  });
  const Result r = merge(at("s1").string() + " " + inflated.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const json merged = read_json(at("merged") / "report.json")["run"];
  const json whole = read_json(at("whole") / "report.json")["run"];
  EXPECT_EQ(merged["cases"], whole["cases"]);
  EXPECT_EQ(merged["outputs"], whole["outputs"]);
  EXPECT_EQ(read_json(at("merged") / "certificate.json")["runs"][0]["cases"], whole["cases"]);
}

TEST_F(HostileShards, ATallyEditedWithItsChecksumRecomputedIsRefused) {
  // More failed outputs than its cases account for: the totals disagree.
  const fs::path edited = tampered(at("s2"), dir_->path(), "edited", [](const fs::path& d) {
    json t = read_tally(d);
    t["kernels"][0]["outputs"][0]["all"]["exact"] = 0;
    write_tally(d, t);
  });
  expect_exit(merge(at("s1").string() + " " + edited.string()), 2,
              "tally disagrees with its case records");
}

TEST_F(HostileShards, RecordsEditedConsistentlyAreCaughtByTheRecheck) {
  // The tally and the record of every case both edited, so that they agree:
  // each case claims one dx output more than it judged. Only judging the
  // cases again can tell.
  const fs::path forged = tampered(at("s2"), dir_->path(), "forged", [&](const fs::path& d) {
    json t = read_tally(d);
    for (auto& c : t["cases"]) c[3][0]["outputs"] = c[3][0]["outputs"].get<std::int64_t>() + 1;
    json& all = t["kernels"][0]["outputs"][0]["all"]["outputs"];
    all = all.get<std::int64_t>() + static_cast<std::int64_t>(t["cases"].size());
    write_tally(d, t);
  });
  const std::string shards = at("s1").string() + " " + forged.string();
  ASSERT_EQ(merge(shards).status, 0) << "without a recheck, consistent records are believed";
  const Result r = merge(shards, " --recheck 2 --recheck-seed 5");
  expect_exit(r, 2, "recheck: shard 2/2");
  EXPECT_NE(r.output.find("dx outputs"), std::string::npos) << r.output;
  const std::string host = shell("hostname").output;
  EXPECT_NE(r.output.find(host.substr(0, host.find('\n'))), std::string::npos)
      << "the refusal names the host that ran the shard: " << r.output;
  // The same shards unedited pass every recheck.
  EXPECT_EQ(merge(at("s1").string() + " " + at("s2").string(), " --recheck 1000").status, 0);
}

TEST_F(HostileShards, ANodeThatReturnedOtherBitsIsCaughtByTheRecheck) {
  // Same statistics, other output bits: the digest of one case differs.
  const fs::path node = tampered(at("s1"), dir_->path(), "node", [](const fs::path& d) {
    json t = read_tally(d);
    std::string& digest = t["cases"][0][4].get_ref<std::string&>();
    digest[0] = digest[0] == '0' ? '1' : '0';
    write_tally(d, t);
  });
  const Result r = merge(node.string() + " " + at("s2").string(), " --recheck 1000");
  expect_exit(r, 2, "other output bits");
  EXPECT_NE(r.output.find("shard 1/2"), std::string::npos) << r.output;
}

TEST_F(HostileShards, ALoosenedBoundIsRefused) {
  const fs::path loose = tampered(at("s2"), dir_->path(), "loose", [](const fs::path& d) {
    json t = read_tally(d);
    t["kernels"][0]["alpha"] = std::bit_cast<std::uint64_t>(1e300);
    write_tally(d, t);
  });
  expect_exit(merge(at("s1").string() + " " + loose.string()), 2, "not the kernel's declared α");
}

TEST_F(HostileShards, HostileTalliesAreRefusedNotCrashedOn) {
  const auto refused_tally = [&](const std::string& name, const std::vector<std::uint8_t>& bytes,
                                 const std::string& words) {
    const fs::path d =
        tampered(at("s2"), dir_->path(), name, [&](const fs::path& p) { write_tally(p, bytes); });
    expect_exit(merge(at("s1").string() + " " + d.string()), 2, words);
  };
  // 100000 nested arrays: nlohmann's CBOR reader recurses once per level.
  std::vector<std::uint8_t> deep(100000, 0x81);
  deep.push_back(0x00);
  refused_tally("deep", deep, "nested deeper than");
  // A histogram bin at 2^31 - 1 once sent the SVG renderer into a 2^31-step loop.
  json t = read_tally(at("s2"));
  t["kernels"][0]["outputs"][0]["histogram"][2] = json::array({json::array({2147483647, 1})});
  refused_tally("bin", json::to_cbor(t), "histogram bin");
  // A count that does not fit, and a negative one: never wrapped.
  t = read_tally(at("s2"));
  t["kernels"][0]["cases"] = -1;
  refused_tally("negative", json::to_cbor(t), "a count must be an integer");
  t = read_tally(at("s2"));
  t["kernels"][0]["outputs"][0]["faults"]["vector_lanes"] = 4294967297ull;
  refused_tally("lanes", json::to_cbor(t), "a lane count must be an integer");
  // A truncated tally.
  const std::string bytes = read_text(at("s2") / "tally.cbor");
  refused_tally("truncated", std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + 100),
                "not valid CBOR");
}

TEST_F(HostileShards, DeepAndDuplicateKeyedShardJsonIsRefused) {
  const fs::path deep = tampered(at("s2"), dir_->path(), "deepjson", [](const fs::path& d) {
    std::string text = read_text(d / "shard.json");
    text.insert(text.rfind('}'), ",\"x\":" + std::string(100000, '[') + std::string(100000, ']'));
    std::ofstream(d / "shard.json") << text;
  });
  expect_exit(merge(at("s1").string() + " " + deep.string()), 2, "nested deeper than");
  const fs::path twice = tampered(at("s2"), dir_->path(), "twice", [](const fs::path& d) {
    std::string text = read_text(d / "shard.json");
    text.insert(text.find('{') + 1, "\"command\": \"report\",");
    std::ofstream(d / "shard.json") << text;
  });
  expect_exit(merge(at("s1").string() + " " + twice.string()), 2, "appears twice");
}

TEST_F(HostileShards, ShardsOfOneRunOnTwoIsaPathsAreNamedAsSuch) {
  const Result isa = shell(std::string(BNGCERT_EXE) + " certify --isa avx2" + kCampaign +
                           " --shard 2/2 --progress none --out " + at("avx2").string());
  ASSERT_EQ(isa.status, 0) << isa.output;
  const Result first = shell(std::string(BNGCERT_EXE) + " certify --isa portable" + kCampaign +
                             " --shard 1/2 --progress none --out " + at("portable").string());
  ASSERT_EQ(first.status, 0) << first.output;
  expect_exit(merge(at("portable").string() + " " + at("avx2").string()), 2,
              "ran on different ISA paths");
}

TEST_F(HostileShards, LibrariesAndPackOnlyWithARecheck) {
  expect_exit(
      merge(at("s1").string() + " " + at("s2").string(), " --lib-mt7004 " + at("s1").string()), 2,
      "no effect without --recheck");
}

}  // namespace
