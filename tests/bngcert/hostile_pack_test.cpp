// Packs tried as an attacker (or an unlucky operator) would, after the
// harness ran them: `check --pack` re-derives the manifest, the case list and
// every input from the pack's own seed and options, so each of these is
// refused (exit 2) or fails (exit 1), and none ends in a PASS. Check shards of
// a faulty device run, their tallies forged to hide the failures, are caught
// by `merge --recheck` re-judging the device's outputs from the pack.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "npy.hpp"
#include "pack_support.hpp"
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

const std::string kPackCampaign =
    " --cases 1 --max-size 4 --seed 9 --targets mt7004 --functions hp";

std::vector<std::string> lines_of(const fs::path& file) {
  std::vector<std::string> out;
  std::ifstream f(file);
  for (std::string line; std::getline(f, line);) out.push_back(line);
  return out;
}

void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream f(file);
  for (const auto& l : lines) f << l << "\n";
}

class HostilePacks : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new Scratch("hostile_packs");
    bngcert_test::export_pack(dir_->path() / "pack", kPackCampaign);
    bngcert_test::run_harnesses(dir_->path() / "pack");
    const Result r = check(dir_->path() / "pack");
    ASSERT_EQ(r.status, 0) << "the untouched pack passes: " << r.output;
  }
  static void TearDownTestSuite() { delete dir_; }
  static Result check(const fs::path& pack) {
    return bngcert("check --pack " + pack.string() + " --out " + (dir_->path() / "out").string());
  }
  // A copy of the run pack, edited by `edit`.
  static fs::path tampered(const std::string& name,
                           const std::function<void(const fs::path&)>& edit) {
    const fs::path to = dir_->path() / name;
    fs::remove_all(to);
    fs::copy(dir_->path() / "pack", to, fs::copy_options::recursive);
    edit(to);
    return to;
  }
  static Scratch* dir_;
};
Scratch* HostilePacks::dir_ = nullptr;

TEST_F(HostilePacks, ACaseRemovedFromManifestAndListIsRefused) {
  const fs::path p = tampered("removed", [](const fs::path& d) {
    json m = read_json(d / "pack.json");
    m["cases"].erase(m["cases"].begin() + 3);
    m["case_count"] = m["cases"].size();
    std::ofstream(d / "pack.json") << m.dump();
    auto lines = lines_of(d / "cases.txt");
    lines.erase(lines.begin() + 3);
    write_lines(d / "cases.txt", lines);
  });
  expect_exit(check(p), 2, "a case was removed or added after export");
}

TEST_F(HostilePacks, ACaseNamePointedAtAnotherCasesFolderIsRefused) {
  const fs::path p = tampered("pointed", [](const fs::path& d) {
    json m = read_json(d / "pack.json");
    m["cases"][2]["dir"] = m["cases"][3]["dir"];
    std::ofstream(d / "pack.json") << m.dump();
    auto lines = lines_of(d / "cases.txt");
    lines[2] = lines[3];
    write_lines(d / "cases.txt", lines);
  });
  expect_exit(check(p), 2, "not the case list its campaign generates");
}

TEST_F(HostilePacks, AChangedInputWithItsEntryDeletedIsRefused) {
  const fs::path p = tampered("changed", [](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[1];
    const auto a = bng::cert::npy::Array::open(c / "x.npy");
    auto v = a.read_all();
    v[0] = v[0] == 1.0 ? 2.0 : 1.0;
    bng::cert::npy::write(c / "x.npy", a.header().dtype, a.header().shape, v);
    json m = read_json(d / "pack.json");
    m["cases"][1]["files"].erase("x.npy");
    std::ofstream(d / "pack.json") << m.dump();
  });
  Result r = check(p);
  expect_exit(r, 2, "differs from what its seed generates in: files.x.npy (missing)");
  // With the manifest left alone, the input itself is compared.
  const fs::path q = tampered("changed2", [](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[1];
    const auto a = bng::cert::npy::Array::open(c / "x.npy");
    auto v = a.read_all();
    v[0] = v[0] == 1.0 ? 2.0 : 1.0;
    bng::cert::npy::write(c / "x.npy", a.header().dtype, a.header().shape, v);
  });
  expect_exit(check(q), 2, "x.npy: not the input its seed generates");
}

TEST_F(HostilePacks, AMissingCaseIsAFailureNeverASmallerPass) {
  const fs::path p = tampered(
      "missing", [](const fs::path& d) { fs::remove_all(d / lines_of(d / "cases.txt")[4]); });
  expect_exit(check(p), 1, "its folder is missing");
  EXPECT_EQ(read_json(dir_->path() / "out" / "certificate.json")["verdict"], "fail");
}

TEST_F(HostilePacks, SymlinksInsideThePackAreRefused) {
  const fs::path outside = dir_->path() / "outside";
  fs::remove_all(outside);
  fs::copy(dir_->path() / "pack" / lines_of(dir_->path() / "pack" / "cases.txt")[0], outside,
           fs::copy_options::recursive);
  const fs::path folder = tampered("folderlink", [&](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[0];
    fs::remove_all(c);
    fs::create_directory_symlink(outside, c);
  });
  expect_exit(check(folder), 2, "a symbolic link, not a case folder");
  const fs::path file = tampered("filelink", [&](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[0];
    fs::remove(c / "dx.npy");
    fs::create_symlink(outside / "dx.npy", c / "dx.npy");
  });
  expect_exit(check(file), 1, "dx.npy: unreadable");
  const fs::path input = tampered("inputlink", [&](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[0];
    fs::remove(c / "dy.npy");
    fs::create_symlink("/dev/zero", c / "dy.npy");
  });
  expect_exit(check(input), 2, "a symbolic link, refused");
}

TEST_F(HostilePacks, FifosAndOversizedStatusesNeitherHangNorPass) {
  const fs::path fifo = tampered("fifo", [](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[0];
    fs::remove(c / "dx.npy");
    ASSERT_EQ(::mkfifo((c / "dx.npy").c_str(), 0600), 0);
  });
  const auto start = std::chrono::steady_clock::now();
  expect_exit(check(fifo), 1, "a FIFO, not a regular file");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
  // 2^32 narrowed to an int is 0: a status is range-checked, never wrapped.
  const fs::path status = tampered("status", [](const fs::path& d) {
    const fs::path c = d / lines_of(d / "cases.txt")[0];
    std::ofstream(c / "status.json") << R"({"status": 4294967296, "entry_point": "x"})";
  });
  expect_exit(check(status), 1, "'status' must be an integer in [-2147483648, 2147483647]");
}

TEST_F(HostilePacks, HostileManifestsAreRefusedNotCrashedOn) {
  const fs::path deep = tampered("deep", [](const fs::path& d) {
    std::string text = read_text(d / "pack.json");
    text.insert(text.rfind('}'), ",\"x\":" + std::string(200000, '[') + std::string(200000, ']'));
    std::ofstream(d / "pack.json") << text;
  });
  expect_exit(check(deep), 2, "nested deeper than");
  const fs::path twice = tampered("twice", [](const fs::path& d) {
    std::string text = read_text(d / "pack.json");
    text.insert(text.find('{') + 1, "\"schema_version\": 1,");
    std::ofstream(d / "pack.json") << text;
  });
  expect_exit(check(twice), 2, "appears twice");
  const fs::path huge = tampered("huge", [](const fs::path& d) {
    json m = read_json(d / "pack.json");
    m["campaign"]["cases_per_series"] = 2000000000;
    std::ofstream(d / "pack.json") << m.dump();
  });
  expect_exit(check(huge), 2, "'cases_per_series' must be an integer in [1, 100000]");
  const fs::path seed = tampered("seed", [](const fs::path& d) {
    json m = read_json(d / "pack.json");
    m["campaign"]["seed"] = 10;
    std::ofstream(d / "pack.json") << m.dump();
  });
  expect_exit(check(seed), 2, "differs from what its seed generates");
}

// Check shards of a device run with a lane fault: every case fails. Both
// shards' tallies and case records are forged to hide it, consistently, and
// their checksums recomputed.
TEST(HostilePackShards, ForgedFailuresAreCaughtByTheRecheck) {
  Scratch dir("hostile_pack_shards");
  const fs::path pack = dir.path() / "pack";
  bngcert_test::export_pack(pack,
                            " --cases 2 --max-size 6 --seed 9 --targets mt7004 --functions hp");
  const Result h = shell(std::string(HARNESS_LANE_FAULT) + " " + pack.string());
  ASSERT_EQ(h.status, 0) << h.output;
  for (const char* k : {"1", "2"}) {
    const Result r = bngcert("check --pack " + pack.string() + " --shard " + k + "/2 --out " +
                             (dir.path() / ("s" + std::string(k))).string());
    ASSERT_EQ(r.status, 0) << r.output;
  }
  const fs::path s1 = dir.path() / "s1", s2 = dir.path() / "s2";
  for (const fs::path& shard : {s1, s2})
    fs::copy(shard, shard.string() + "-honest", fs::copy_options::recursive);
  for (const fs::path& shard : {s1, s2}) {
    const std::string tally_bytes = read_text(shard / "tally.cbor");
    json t = json::from_cbor(tally_bytes.begin(), tally_bytes.end());
    // Every failing output of every case made a pass that used half its bound.
    const auto hide = [](json& stats) {
      const std::int64_t fails = stats["fails"].get<std::int64_t>();
      if (fails > 0) {
        stats["fails"] = 0;
        stats["max_bound_use"] = std::bit_cast<std::uint64_t>(0.5);
      }
      return fails;
    };
    std::int64_t hidden = 0;
    for (auto& c : t["cases"]) {
      for (auto& o : c[3]) hidden += hide(o);
    }
    ASSERT_GT(hidden, 0) << "the lane fault must fail outputs of " << shard;
    for (auto& k : t["kernels"]) {
      for (std::size_t o = 0; o < 3; ++o) {
        json& all = k["outputs"][o]["all"];
        all["fails"] = 0;
        double most = 0;  // the largest bound use left, as the records now say
        for (const auto& c : t["cases"]) {
          most =
              std::max(most, std::bit_cast<double>(c[3][o]["max_bound_use"].get<std::uint64_t>()));
        }
        all["max_bound_use"] = std::bit_cast<std::uint64_t>(most);
      }
    }
    const std::vector<std::uint8_t> forged = json::to_cbor(t);
    std::ofstream(shard / "tally.cbor", std::ios::binary)
        .write(reinterpret_cast<const char*>(forged.data()),
               static_cast<std::streamsize>(forged.size()));
    json record = read_json(shard / "shard.json");
    record["tally"]["sha256"] = bng::cert::sha256_hex(forged);
    record["failed_cases"] = json::array();
    std::ofstream(shard / "shard.json") << record.dump(1);
  }

  const fs::path out = dir.path() / "merged";
  const std::string merge = "merge " + s1.string() + " " + s2.string() + " --out " + out.string();
  // Consistent records are all merge alone can check (docs/certification.md,
  // threat model): only judging cases again tells a forgery.
  EXPECT_EQ(bngcert(merge).status, 0);
  const Result r = bngcert(merge + " --recheck 2 --recheck-seed 1");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("recheck: shard 1/2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fails: 0 recorded"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("pack case"), std::string::npos) << "names the case: " << r.output;
  // The honest shards pass the same recheck, and fail, as the run did.
  const Result honest = bngcert("merge " + s1.string() + "-honest " + s2.string() +
                                "-honest --out " + out.string() + " --recheck 2 --recheck-seed 1");
  EXPECT_EQ(honest.status, 1) << honest.output;
}

}  // namespace
