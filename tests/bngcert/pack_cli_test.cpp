// The hardware round trip end to end (issue 11): `bngcert export` writes a
// campaign as a pack, the C99 harness runs it through our two libraries (the
// stand-ins for the boards), `bngcert check --pack` judges the whole run.
// A perfect run passes; a harness with a planted lane fault fails and the
// fault map points at the lane; every kind of bad pack is a named failed case
// (or exit 2 when the pack itself is unusable), never a crash or a pass.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "bng/properties/families.hpp"
#include "bng/reference/reference.hpp"
#include "case_files.hpp"
#include "npy.hpp"
#include "pack_support.hpp"
#include "sha256.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::bngcert_with_deadline;
using bngcert_test::read_json;
using bngcert_test::read_text;
using Result = bngcert_test::Run;
using bngcert_test::export_pack;
using bngcert_test::run_harnesses;
using bngcert_test::Scratch;
using bngcert_test::shell;
using nlohmann::json;

namespace {

// The failed cases of a pack check, by case name.
std::map<std::string, std::string> failed_cases(const fs::path& out) {
  std::map<std::string, std::string> f;
  const json report = read_json(out / "report.json");  // kept alive for the loop
  for (const auto& c : report["run"]["failed_cases"]) {
    f[c["case"].get<std::string>()] = c["reason"].get<std::string>();
  }
  return f;
}

std::vector<std::string> case_dirs(const fs::path& pack) {
  std::vector<std::string> dirs;
  std::ifstream f(pack / "cases.txt");
  for (std::string line; std::getline(f, line);) dirs.push_back(line);
  return dirs;
}

// The first case folder of the pack whose name contains `part`.
fs::path first_case(const fs::path& pack, const std::string& part) {
  for (const auto& d : case_dirs(pack)) {
    if (d.find(part) != std::string::npos) return pack / d;
  }
  ADD_FAILURE() << "no case matching " << part;
  return pack;
}

}  // namespace

TEST(Pack, RoundTripOnBothLibrariesPasses) {
  Scratch dir("pack_roundtrip");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  export_pack(pack);
  const json manifest = read_json(pack / "pack.json");
  ASSERT_EQ(manifest["schema"], "bngcert-pack");
  const auto& cases = manifest["cases"];
  std::set<std::string> families, entries, modes;
  for (const auto& c : cases) {
    families.insert(c["family"].get<std::string>());
    entries.insert(c["entry_point"].get<std::string>());
    modes.insert(c["is_train"].dump());
  }
  EXPECT_EQ(families.size(), bng::prop::families().size()) << "every family is exported";
  EXPECT_EQ(modes.size(), 2u);
  for (const char* e : {"fp_batch_norm_grad_s", "fp_batchnormgrad_p", "hp_batch_norm_grad_s",
                        "hp_batchnormgrad_p", "mp_batch_norm_grad_s", "mp_batch_norm_grad_p"}) {
    EXPECT_TRUE(entries.count(e)) << e << " is exported";
  }

  // Before the board ran: every case is a named failure, not a pass.
  Result r = bngcert("check --pack " + pack.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_EQ(failed_cases(out).size(), cases.size());

  run_harnesses(pack);
  r = bngcert("check --pack " + pack.string() + " --out " + out.string() + " --jobs 2");
  ASSERT_EQ(r.status, 0) << r.output;
  const json report = read_json(out / "report.json");
  EXPECT_TRUE(report["verdict"]["pass"].get<bool>());
  EXPECT_EQ(report["run"]["kind"], "pack");
  EXPECT_EQ(report["run"]["cases"], cases.size());
  EXPECT_TRUE(report["run"]["failed_cases"].empty());
  EXPECT_EQ(report["kernels"].size(), 4u) << "ft78ne/fp, mt7004/fp, mt7004/hp, mt7004/mp";
  EXPECT_EQ(read_json(out / "certificate.json")["verdict"], "pass");
  // The manifest itself is accepted as the pack's name too.
  r = bngcert("check --pack " + (pack / "pack.json").string() + " --out " +
              (dir.path() / "out2").string());
  EXPECT_EQ(r.status, 0) << r.output;
}

// --device-lib-<target>: the library the board ran is identified from its file
// (SHA-256, build record, architecture) into report and certificate, never
// loaded; a file that cannot be read refuses the check before anything is
// judged. (The aarch64 library of tests/aarch64/pack_round_trip.sh is recorded
// the same way, with architecture aarch64.)
TEST(Pack, DeviceLibraryIsRecordedNotRun) {
  Scratch dir("pack_device_lib");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  export_pack(pack, " --cases 1 --max-size 6 --seed 12 --targets mt7004 --functions mp");
  run_harnesses(pack);
  Result r = bngcert("check --pack " + pack.string() + " --out " + out.string() +
                     " --device-lib-mt7004 " + BNG_MT7004_LIBRARY);
  ASSERT_EQ(r.status, 0) << r.output;
  const json lib = read_json(out / "certificate.json")["build"]["libraries"]["mt7004"];
  EXPECT_EQ(lib["sha256"], bng::cert::sha256_file(BNG_MT7004_LIBRARY)) << lib.dump();
  EXPECT_EQ(lib["build"]["architecture"], "x86_64") << lib.dump();
  EXPECT_EQ(lib["build"]["target"], "mt7004") << lib.dump();
  EXPECT_FALSE(lib.contains("isa_ran")) << "which path ran is the board's: " << lib.dump();
  EXPECT_NE(read_text(out / "certificate.md").find("not run by bngcert"), std::string::npos);

  // A file without our build record (a vendor's library, or no library at
  // all) is recorded with the reason; a file that cannot be read refuses.
  const fs::path not_a_library = dir.path() / "not-a-library.so";
  std::ofstream(not_a_library) << "not an ELF file";
  r = bngcert("check --pack " + pack.string() + " --out " + (dir.path() / "out2").string() +
              " --device-lib-mt7004 " + not_a_library.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const json other = read_json(dir.path() / "out2" / "certificate.json")["build"]["libraries"];
  EXPECT_TRUE(other["mt7004"]["build"].is_null()) << other.dump();
  EXPECT_NE(other["mt7004"]["build_error"].get<std::string>().find("no build record"),
            std::string::npos)
      << other.dump();
  r = bngcert("check --pack " + pack.string() + " --out " + (dir.path() / "out3").string() +
              " --device-lib-mt7004 " + (dir.path() / "missing.so").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("device library"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "out3" / "certificate.json"));
  // Hostile device libraries: a FIFO is refused without being opened (no
  // hang, nothing written); a truncated library is recorded with the reason.
  // With a deadline: a bngcert that opened the FIFO would wait for a writer,
  // so it is killed (exit 124) and the test fails at once.
  const fs::path fifo = dir.path() / "fifo.so";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  r = bngcert_with_deadline("check --pack " + pack.string() + " --out " +
                                (dir.path() / "out4").string() + " --device-lib-mt7004 " +
                                fifo.string(),
                            60);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("FIFO"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir.path() / "out4"));
  const fs::path truncated = dir.path() / "truncated.so";
  const std::string library = read_text(BNG_MT7004_LIBRARY);
  std::ofstream(truncated, std::ios::binary) << library.substr(0, 4096);
  r = bngcert("check --pack " + pack.string() + " --out " + (dir.path() / "out5").string() +
              " --device-lib-mt7004 " + truncated.string());
  ASSERT_EQ(r.status, 0) << r.output;
  const json cut = read_json(dir.path() / "out5" / "certificate.json")["build"]["libraries"];
  EXPECT_TRUE(cut["mt7004"]["build"].is_null()) << cut.dump();
  EXPECT_NE(cut["mt7004"]["build_error"].get<std::string>().find("outside the file"),
            std::string::npos)
      << cut.dump();
  // Only with --pack.
  r = bngcert("check --dir " + pack.string() + " --device-lib-mt7004 " + BNG_MT7004_LIBRARY);
  EXPECT_NE(r.status, 0) << r.output;
}

TEST(Pack, SameSeedGivesByteIdenticalPacksAndChecksumsMatch) {
  Scratch dir("pack_identical");
  const std::string opts = " --cases 2 --max-size 8 --seed 5 --targets mt7004 --functions hp,mp";
  export_pack(dir.path() / "a", opts);
  export_pack(dir.path() / "b", opts);
  std::size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir.path() / "a")) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), dir.path() / "a");
    EXPECT_EQ(read_text(e.path()), read_text(dir.path() / "b" / rel)) << rel;
    ++files;
  }
  EXPECT_GT(files, 20u);
  const json manifest = read_json(dir.path() / "a" / "pack.json");
  for (const auto& c : manifest["cases"]) {
    for (const auto& [name, f] : c["files"].items()) {
      EXPECT_EQ(bng::cert::sha256_file(dir.path() / "a" / c["dir"].get<std::string>() / name),
                f["sha256"])
          << c["case"] << "/" << name;
    }
  }
  export_pack(dir.path() / "c",
              " --cases 2 --max-size 8 --seed 6 --targets mt7004 --functions hp,mp");
  EXPECT_NE(read_text(dir.path() / "a" / "pack.json"), read_text(dir.path() / "c" / "pack.json"));
  // A pack is never overwritten.
  const Result r = bngcert("export --out " + (dir.path() / "a").string() + opts);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("already holds a pack"), std::string::npos) << r.output;
}

TEST(Pack, LaneFaultFailsAndTheMapPointsAtTheLane) {
  Scratch dir("pack_lane_fault");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  export_pack(pack, " --cases 4 --max-size 10 --seed 3 --targets mt7004");
  const Result h = shell(std::string(HARNESS_LANE_FAULT) + " " + pack.string());
  ASSERT_EQ(h.status, 0) << h.output;
  const Result r = bngcert("check --pack " + pack.string() + " --out " + out.string());
  ASSERT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("failed case"), std::string::npos) << r.output;
  const json report = read_json(out / "report.json");
  std::int64_t total = 0, lane5 = 0;
  for (const auto& k : report["kernels"]) {
    const json& f = k["outputs"]["dx"]["faults"];
    EXPECT_EQ(f["vector_lanes"], 32) << k["name"];
    for (const auto& l : f["by_lane"]) {
      total += l["fails"].get<std::int64_t>();
      if (l["lane"] == 5) lane5 += l["fails"].get<std::int64_t>();
    }
    // dbias and dscale were not touched.
    EXPECT_EQ(k["outputs"]["dbias"]["stats"]["fails"], 0) << k["name"];
    EXPECT_EQ(k["outputs"]["dscale"]["stats"]["fails"], 0) << k["name"];
  }
  ASSERT_GT(total, 0);
  // Lane 5 of the kernel wherever rows fill whole vectors (most shapes): the
  // pattern stands out; other lanes only where a row is not a multiple of 32.
  EXPECT_GT(lane5 * 2, total) << report["kernels"].dump();
  EXPECT_NE(read_text(out / "report.html").find("where the failures are"), std::string::npos);
}

TEST(Pack, UnwrittenLastBandFailsAndTheMapPointsAtTheLastRows) {
  Scratch dir("pack_band_fault");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  export_pack(pack, " --cases 4 --max-size 20 --seed 4 --targets mt7004 --functions fp");
  const Result h = shell(std::string(HARNESS_BAND_FAULT) + " " + pack.string());
  ASSERT_EQ(h.status, 0) << h.output;
  const Result r = bngcert("check --pack " + pack.string() + " --out " + out.string());
  ASSERT_EQ(r.status, 1) << r.output;
  const auto failed = failed_cases(out);
  ASSERT_FALSE(failed.empty());
  for (const auto& [name, reason] : failed) {
    EXPECT_NE(name.find("grad_s-"), std::string::npos) << "only _s calls lost a band: " << name;
  }
  const json f = read_json(out / "report.json")["kernels"][0]["outputs"]["dx"]["faults"];
  ASSERT_GT(f["fails"].get<std::int64_t>(), 0);
  // Rows n >= batch - batch/8 fall in the last two of 16 row bins; nothing above.
  for (int row = 0; row < 14; ++row) {
    for (int col = 0; col < 32; ++col) EXPECT_EQ(f["cells"][row][col], 0) << row << "," << col;
  }
}

TEST(Pack, BadCasesAreNamedFailuresNeverPasses) {
  Scratch dir("pack_bad");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  export_pack(pack, " --cases 2 --max-size 6 --seed 9 --targets mt7004 --modes training");
  run_harnesses(pack);
  ASSERT_EQ(bngcert("check --pack " + pack.string() + " --out " + out.string()).status, 0);

  const fs::path missing = first_case(pack, "fp_batch_norm_grad_s-ordinary");
  const fs::path dtype = first_case(pack, "fp_batch_norm_grad_s-integers");
  const fs::path truncated = first_case(pack, "hp_batch_norm_grad_s-ordinary");
  const fs::path status = first_case(pack, "hp_batch_norm_grad_s-integers");
  const fs::path shape = first_case(pack, "mp_batch_norm_grad_s-integers");
  const fs::path corrupted = first_case(pack, "fp_batch_norm_grad_s-log_uniform");

  fs::remove(missing / "dscale.npy");
  {  // dbias as float64: the right values, the wrong dtype
    const auto a = bng::cert::npy::Array::open(dtype / "dbias.npy");
    const auto v = a.read_all();
    bng::cert::npy::write(dtype / "dbias.npy", bng::cert::npy::DType::f8, a.header().shape, v);
  }
  fs::resize_file(truncated / "dx.npy", fs::file_size(truncated / "dx.npy") - 3);
  {
    std::ofstream f(status / "status.json");
    f << R"({"status": -2, "message": "invalid shape", "entry_point": "hp_batch_norm_grad_s"})";
  }
  {  // dx written flat
    const auto a = bng::cert::npy::Array::open(shape / "dx.npy");
    const auto v = a.read_all();
    const std::vector<std::int64_t> flat = {static_cast<std::int64_t>(v.size())};
    bng::cert::npy::write(shape / "dx.npy", a.header().dtype, flat, v);
  }
  {  // an output value corrupted on the way back from the board
    const auto a = bng::cert::npy::Array::open(corrupted / "dx.npy");
    auto v = a.read_all();
    v[0] = v[0] == 0 ? 1e30 : -v[0] * 3;
    bng::cert::npy::write(corrupted / "dx.npy", a.header().dtype, a.header().shape, v);
  }

  const Result r = bngcert("check --pack " + pack.string() + " --out " + out.string());
  ASSERT_EQ(r.status, 1) << r.output;
  const auto failed = failed_cases(out);
  const auto reason = [&](const fs::path& c) {
    const auto it = failed.find(c.filename().string());
    return it == failed.end() ? std::string("(not listed)") : it->second;
  };
  EXPECT_NE(reason(missing).find("dscale.npy: missing"), std::string::npos) << reason(missing);
  EXPECT_NE(reason(dtype).find("dbias.npy: dtype '<f8'"), std::string::npos) << reason(dtype);
  EXPECT_NE(reason(truncated).find("dx.npy: unreadable"), std::string::npos) << reason(truncated);
  EXPECT_NE(reason(status).find("status -2"), std::string::npos) << reason(status);
  EXPECT_NE(reason(shape).find("dx.npy: shape"), std::string::npos) << reason(shape);
  EXPECT_NE(reason(corrupted).find("outputs failed their kernel's criterion"), std::string::npos)
      << reason(corrupted);
  EXPECT_EQ(failed.size(), 6u) << r.output;
  EXPECT_EQ(read_json(out / "certificate.json")["verdict"], "fail");
  EXPECT_NE(r.output.find(corrupted.filename().string()), std::string::npos) << r.output;
}

TEST(Pack, HarnessRecordsCasesItCannotRun) {
  Scratch dir("pack_harness_error");
  const fs::path pack = dir.path() / "pack", out = dir.path() / "out";
  export_pack(pack, " --cases 1 --max-size 4 --seed 2 --targets ft78ne --families ordinary");
  const fs::path broken = pack / case_dirs(pack).at(0);
  fs::remove(broken / "mean.npy");
  const Result h = shell(std::string(HARNESS_FT78NE) + " " + pack.string());
  EXPECT_EQ(h.status, 1) << "a case it could not run: " << h.output;
  EXPECT_NE(h.output.find("mean.npy"), std::string::npos) << h.output;
  const json st = read_json(broken / "status.json");
  EXPECT_TRUE(st["status"].is_null());
  EXPECT_NE(st["harness_error"].get<std::string>().find("mean.npy"), std::string::npos);
  const Result r = bngcert("check --pack " + pack.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(failed_cases(out)[broken.filename().string()].find("mean.npy"), std::string::npos);
  // One case folder given directly runs too.
  const fs::path other = pack / case_dirs(pack).at(1);
  fs::remove(other / "status.json");
  EXPECT_EQ(shell(std::string(HARNESS_FT78NE) + " " + other.string()).status, 0);
  EXPECT_EQ(read_json(other / "status.json")["status"], 0);
}

TEST(Pack, UnusablePacksExitTwoNamingTheProblem) {
  Scratch dir("pack_unusable");
  const fs::path empty = dir.path() / "empty", out = dir.path() / "out";
  fs::create_directories(empty);
  Result r = bngcert("check --pack " + empty.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("no pack manifest"), std::string::npos) << r.output;

  {
    std::ofstream f(empty / "pack.json");
    f << R"({"schema": "bngcert-pack", "schema_version": 1, "cases": []})";
  }
  r = bngcert("check --pack " + empty.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("lists no cases"), std::string::npos) << r.output;

  {
    std::ofstream f(empty / "pack.json");
    f << "{ not json";
  }
  r = bngcert("check --pack " + empty.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("pack.json: not valid JSON"), std::string::npos) << r.output;

  {
    std::ofstream f(empty / "pack.json");
    f << R"({"schema": "bngcert-pack", "schema_version": 1, "cases": [{"case": "a"}]})";
  }
  r = bngcert("check --pack " + empty.string() + " --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("'campaign' is missing"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out / "report.json")) << "an unusable pack writes no report";

  r = bngcert("check --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.output;
  r = bngcert("check --pack " + empty.string() + " --target mt7004 --out " + out.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--target applies to --dir only"), std::string::npos) << r.output;
}
