// `bngcert check` end to end: device dumps written as .npy, judged against the
// exact reference. Outputs equal to the correctly rounded reference pass; a
// planted error is found at exactly the planted outputs, for every type
// combination, every shape convention and any block size; every kind of bad
// input is refused with a message naming the file and the problem.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <tuple>

#include "bng/reference/reference.hpp"
#include "case_files.hpp"
#include "npy.hpp"
#include "perfect_outputs.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bng::Case;
using bng::Combo;
using bng::Outputs;
using bngcert_test::bngcert;
using bngcert_test::perfect;
using bngcert_test::read_json;
using bngcert_test::Scratch;
using nlohmann::json;

namespace {

// A small call with values exact in binary16 (so one case serves every combo):
// x spread around a per-channel mean, dy of both signs.
Case make_case(Combo combo, std::int64_t batch, std::int64_t channel, int is_train) {
  Case c;
  c.combo = combo;
  c.batch = batch;
  c.channel = channel;
  c.is_train = is_train;
  for (std::int64_t n = 0; n < batch; ++n) {
    for (std::int64_t ch = 0; ch < channel; ++ch) {
      c.x.push_back(static_cast<double>((n * 7 + ch * 3) % 11) / 8.0 - 0.5);
      c.dy.push_back(static_cast<double>((n * 5 + ch * 2) % 9) / 16.0 - 0.125);
    }
  }
  for (std::int64_t ch = 0; ch < channel; ++ch) {
    c.mean.push_back(0.25 * static_cast<double>(ch % 3));
    c.invar.push_back(0.75 + 0.125 * static_cast<double>(ch));
    c.scale.push_back(ch % 2 ? -1.5 : 0.5);
  }
  return c;
}

void write_dump(const fs::path& dir, const Case& c, const Outputs& o, const std::string& target) {
  bng::cert::write_case_dir(
      dir, c, o,
      {{"batch", c.batch}, {"channel", c.channel}, {"is_train", c.is_train}, {"target", target}});
}

// (output, n, c) of every failure the report lists.
std::set<std::tuple<std::string, long, long>> failures_of(const json& report) {
  std::set<std::tuple<std::string, long, long>> f;
  for (const auto& [name, o] : report["kernels"][0]["outputs"].items()) {
    for (const auto& x : o["failures"]) f.insert({name, x["n"].get<long>(), x["c"].get<long>()});
  }
  return f;
}

struct ComboCase {
  Combo combo;
  const char* target;
};

void PrintTo(const ComboCase& c, std::ostream* os) {
  *os << c.target << "/" << bng::combo_name(c.combo);
}

class CheckPlanted : public ::testing::TestWithParam<ComboCase> {};

}  // namespace

TEST_P(CheckPlanted, PerfectOutputsPassAndPlantedErrorsAreFoundExactly) {
  const auto [combo, target] = GetParam();
  Scratch dir(std::string("planted_") + target + std::string(bng::combo_name(combo)));
  for (int is_train : {1, 0}) {
    const Case c = make_case(combo, 6, 5, is_train);
    Outputs o = perfect(c);
    const fs::path clean = dir.path() / "clean", out = dir.path() / "out_clean";
    write_dump(clean, c, o, target);
    auto run = bngcert("check --dir " + clean.string() + " --out " + out.string());
    ASSERT_EQ(run.status, 0) << run.output;
    auto r = read_json(out / "report.json");
    EXPECT_TRUE(r["verdict"]["pass"].get<bool>());
    EXPECT_EQ(r["kernels"][0]["outputs"]["dx"]["stats"]["outputs"], 30);
    EXPECT_EQ(r["kernels"][0]["outputs"]["dx"]["stats"]["max_ulp_error"].get<double>() <= 0.5, true)
        << "correctly rounded outputs are within half an ulp";
    EXPECT_EQ(read_json(out / "certificate.json")["verdict"], "pass");

    // Plant: double three outputs (each reference value chosen nonzero).
    const std::size_t dx_at = 2 * 5 + 3;
    ASSERT_NE(o.dx[dx_at], 0.0);
    ASSERT_NE(o.dbias[1], 0.0);
    ASSERT_NE(o.dscale[4], 0.0);
    o.dx[dx_at] *= 2;
    o.dbias[1] *= 2;
    o.dscale[4] *= 2;
    const fs::path bad = dir.path() / "planted";
    write_dump(bad, c, o, target);
    for (const char* block :
         {"", " --block-elements 6"}) {  // one block, then one channel per block
      const fs::path out2 = dir.path() / "out_planted";
      run = bngcert("check --dir " + bad.string() + " --out " + out2.string() + block);
      EXPECT_EQ(run.status, 1) << run.output;
      r = read_json(out2 / "report.json");
      const std::set<std::tuple<std::string, long, long>> want = {
          {"dx", 2, 3}, {"dbias", 0, 1}, {"dscale", 0, 4}};
      EXPECT_EQ(failures_of(r), want) << "block option '" << block << "'";
      EXPECT_EQ(r["verdict"]["failed_outputs"], 3);
      EXPECT_EQ(read_json(out2 / "certificate.json")["verdict"], "fail");
      EXPECT_EQ(r["kernels"][0]["outputs"]["dx"]["worst"]["n"], 2);
      EXPECT_EQ(r["kernels"][0]["outputs"]["dx"]["worst"]["c"], 3);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryCombo, CheckPlanted,
    ::testing::Values(ComboCase{Combo::fp, "ft78ne"}, ComboCase{Combo::fp, "mt7004"},
                      ComboCase{Combo::hp, "mt7004"}, ComboCase{Combo::mp, "mt7004"}),
    [](const auto& info) {
      return std::string(info.param.target) + "_" + std::string(bng::combo_name(info.param.combo));
    });

// Blocks narrower than a cache line of a row are read in bands of several
// blocks (dump_judge.cpp): one block for the whole call, one channel a block
// in bands of 16 on one thread (the last band partial), two channels a block
// in bands of 4 on two threads all give the same kernels' part of the report,
// planted failures and worst outputs included.
TEST(Check, BandsOfBlocksGiveTheReportOfOneBlock) {
  Scratch dir("bands");
  for (const Combo combo : {Combo::fp, Combo::hp}) {
    const Case c = make_case(combo, 7, 37, 1);
    Outputs o = perfect(c);
    for (const std::size_t at :
         {std::size_t{3}, std::size_t{5 * 37 + 20}, std::size_t{6 * 37 + 36}})
      o.dx[at] = o.dx[at] == 0 ? 1 : o.dx[at] * 2;
    o.dscale[17] = o.dscale[17] == 0 ? 1 : o.dscale[17] * 2;
    const fs::path in = dir.path() / ("in_" + std::string(bng::combo_name(combo)));
    write_dump(in, c, o, "mt7004");
    json want;
    for (const char* blocks : {" --block-elements 1000000", " --block-elements 7 --jobs 1",
                               " --block-elements 14 --jobs 2"}) {
      const fs::path out = dir.path() / "out";
      fs::remove_all(out);
      const auto run = bngcert("check --dir " + in.string() + " --out " + out.string() + blocks);
      EXPECT_EQ(run.status, 1) << run.output;
      const json kernels = read_json(out / "report.json")["kernels"];
      EXPECT_EQ(failures_of(read_json(out / "report.json")).size(), 4u) << blocks;
      if (want.is_null()) {
        want = kernels;
      } else {
        EXPECT_EQ(kernels, want) << bng::combo_name(combo) << blocks;
      }
    }
  }
}

TEST(Check, SpatialShapeAndFlagsInsteadOfParams) {
  Scratch dir("spatial");
  const Case c = make_case(Combo::mp, 6, 5, 1);
  const Outputs o = perfect(c);
  // [N, H, W, C] = [2, 3, 1, 5]: batch = N·H·W (SPEC §1 spatial data).
  const std::array<std::int64_t, 4> nhwc = {2, 3, 1, 5};
  const std::array<std::int64_t, 1> vec = {5};
  const fs::path d = dir.path() / "dump";
  fs::create_directories(d);
  using bng::cert::npy::DType;
  bng::cert::npy::write(d / "x.npy", DType::f2, nhwc, c.x);
  bng::cert::npy::write(d / "dy.npy", DType::f2, nhwc, c.dy);
  bng::cert::npy::write(d / "dx.npy", DType::f2, nhwc, o.dx);
  for (auto [name, v] : {std::pair{"mean", &c.mean},
                         {"invar", &c.invar},
                         {"scale", &c.scale},
                         {"dbias", &o.dbias},
                         {"dscale", &o.dscale}}) {
    bng::cert::npy::write(d / (std::string(name) + ".npy"), DType::f4, vec, *v);
  }
  const auto run = bngcert("check --dir " + d.string() + " --target mt7004 --is-train 1 --out " +
                           (dir.path() / "out").string());
  ASSERT_EQ(run.status, 0) << run.output;
  const auto r = read_json(dir.path() / "out" / "report.json");
  EXPECT_EQ(r["run"]["batch"], 6);
  EXPECT_EQ(r["run"]["channel"], 5);
  EXPECT_EQ(r["run"]["combo"], "mp");
}

namespace {

struct Breakage {
  const char* name;
  void (*apply)(const fs::path& dir);
  const char* file;    // the file (or what names it) the message must name ("" for none)
  const char* phrase;  // what the message must say
};

std::string read_bytes(const fs::path& p) {
  return bngcert_test::read_text(p);
}
void write_bytes(const fs::path& p, const std::string& b) {
  std::ofstream(p, std::ios::binary) << b;
}

void rewrite(const fs::path& p, bng::cert::npy::DType t, std::vector<std::int64_t> shape) {
  // Only the file's dtype and shape matter to these tests; 0.5 is exact in every dtype.
  const auto n = std::accumulate(shape.begin(), shape.end(), std::int64_t{1}, std::multiplies<>());
  const std::vector<double> v(static_cast<std::size_t>(n), 0.5);
  bng::cert::npy::write(p, t, shape, v);
}

}  // namespace

TEST(Check, EveryBadInputIsRefusedClearly) {
  using bng::cert::npy::DType;
  const std::vector<Breakage> cases = {
      {"missing file", [](const fs::path& d) { fs::remove(d / "dscale.npy"); }, "dscale.npy",
       "cannot open"},
      {"float64 data",
       [](const fs::path& d) {
         for (const char* n : {"x", "dy", "dx"})
           rewrite(d / (std::string(n) + ".npy"), DType::f8, {6, 5});
       },
       "", "no type combination"},
      {"mixed data dtypes",
       [](const fs::path& d) {
         rewrite(d / "dy.npy", DType::f2, {6, 5});
       },
       "dy.npy", "share one dtype"},
      {"mixed stats dtypes", [](const fs::path& d) { rewrite(d / "scale.npy", DType::f2, {5}); },
       "scale.npy", "share one dtype"},
      {"stats half, data float",
       [](const fs::path& d) {
         for (const char* n : {"mean", "invar", "scale", "dbias", "dscale"})
           rewrite(d / (std::string(n) + ".npy"), DType::f2, {5});
       },
       "", "no type combination"},
      {"dx shape mismatch",
       [](const fs::path& d) {
         rewrite(d / "dx.npy", DType::f4, {5, 6});
       },
       "dx.npy", "has shape (5, 6)"},
      {"stats shape mismatch", [](const fs::path& d) { rewrite(d / "mean.npy", DType::f4, {4}); },
       "x.npy, dy.npy and dx.npy of shape (6, 5), mean.npy of shape (4,) and invar.npy, scale.npy, "
       "dbias.npy and dscale.npy of shape (5,)",
       "mean.npy, invar.npy, scale.npy, dbias.npy and dscale.npy must all have one shape"},
      {"stats shape mismatch with x.npy",
       [](const fs::path& d) {
         for (const char* n : {"mean", "invar", "scale", "dbias", "dscale"})
           rewrite(d / (std::string(n) + ".npy"), DType::f4, {4});
         write_bytes(d / "params.json", R"({"is_train": 1, "target": "mt7004"})");
       },
       "x.npy, dy.npy and dx.npy of shape (6, 5) and mean.npy, invar.npy, scale.npy, dbias.npy and "
       "dscale.npy of shape (4,)",
       "x.npy's last dimension, the channel count, is 5, so each of mean.npy, invar.npy, "
       "scale.npy, dbias.npy and dscale.npy needs shape (5,)"},
      {"truncated",
       [](const fs::path& d) {
         const auto b = read_bytes(d / "dx.npy");
         write_bytes(d / "dx.npy", b.substr(0, b.size() - 3));
       },
       "dx.npy", "truncated"},
      {"fortran order",
       [](const fs::path& d) {
         auto b = read_bytes(d / "x.npy");
         b.replace(b.find("False"), 5, "True ");
         write_bytes(d / "x.npy", b);
       },
       "x.npy", "Fortran"},
      {"bad magic", [](const fs::path& d) { write_bytes(d / "dbias.npy", "col1,col2\n1,2\n"); },
       "dbias.npy", "magic"},
      // The files are read side by side: of two bad ones, the first in order is named.
      {"two bad files",
       [](const fs::path& d) {
         write_bytes(d / "x.npy", "col1,col2\n1,2\n");
         fs::remove(d / "dscale.npy");
       },
       "x.npy", "magic"},
      {"hp on ft78ne",
       [](const fs::path& d) {
         for (const char* n : {"x", "dy", "dx"})
           rewrite(d / (std::string(n) + ".npy"), DType::f2, {6, 5});
         for (const char* n : {"mean", "invar", "scale", "dbias", "dscale"})
           rewrite(d / (std::string(n) + ".npy"), DType::f2, {5});
         write_bytes(d / "params.json", R"({"is_train": 1, "target": "ft78ne"})");
       },
       "", "ft78ne has no hp kernel"},
      {"broken params", [](const fs::path& d) { write_bytes(d / "params.json", "{\"batch\": 6,"); },
       "params.json", "not valid JSON"},
      // Every field of params.json of another type: the file, the key, what it must be.
      {"is_train a string",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"is_train": "yes", "target": "mt7004"})");
       },
       "params.json", "'is_train' must be an integer in [0, 1], not \"yes\""},
      {"is_train a fraction",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"is_train": 0.5, "target": "mt7004"})");
       },
       "params.json", "'is_train' must be an integer in [0, 1], not 0.5"},
      {"batch a string",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"batch": "6", "is_train": 1, "target": "mt7004"})");
       },
       "params.json", "'batch' must be an integer in [1, 9223372036854775807], not \"6\""},
      {"channel beyond 64 bits",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"channel": 1e30, "is_train": 1, "target": "mt7004"})");
       },
       "params.json", "'channel' must be an integer in [1, 9223372036854775807], not 1e+30"},
      {"target a list",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"is_train": 1, "target": ["mt7004"]})");
       },
       "params.json", "'target' must be a string, not array"},
      {"target unknown",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"is_train": 1, "target": "mt7005"})");
       },
       "params.json", "'target' is \"mt7005\", which is no target"},
      {"params an array", [](const fs::path& d) { write_bytes(d / "params.json", "[1, 2]"); },
       "params.json", "must be a JSON object"},
      {"no target", [](const fs::path& d) { write_bytes(d / "params.json", R"({"is_train": 1})"); },
       "params.json", "the target that produced the outputs (ft78ne or mt7004) is needed"},
      {"no params", [](const fs::path& d) { fs::remove(d / "params.json"); }, "params.json",
       "the mode is needed: give --is-train 1 (training) or 0 (inference), or 'is_train' in"},
      // A batch or channel that disagrees with the data: the file that says so
      // and every array concerned, with their shapes.
      {"batch disagrees",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"batch": 4, "is_train": 1, "target": "mt7004"})");
       },
       "params.json: 'batch' is 4",
       "x.npy, dy.npy and dx.npy of shape (6, 5) and mean.npy, invar.npy, scale.npy, dbias.npy and "
       "dscale.npy of shape (5,): 6 rows of 5 channels, so batch is 6 there"},
      {"channel disagrees",
       [](const fs::path& d) {
         write_bytes(d / "params.json", R"({"channel": 3, "is_train": 1, "target": "mt7004"})");
       },
       "params.json: 'channel' is 3",
       "x.npy, dy.npy and dx.npy of shape (6, 5) and mean.npy, invar.npy, scale.npy, dbias.npy and "
       "dscale.npy of shape (5,): 3 channels need each of mean.npy, invar.npy, scale.npy, "
       "dbias.npy and dscale.npy to have shape (3,) and x.npy's last dimension to be 3"},
      {"channel of a flat x disagrees with the per-channel arrays",
       [](const fs::path& d) {
         for (const char* n : {"x", "dy", "dx"})
           rewrite(d / (std::string(n) + ".npy"), DType::f4, {30});
         write_bytes(d / "params.json", R"({"channel": 6, "is_train": 1, "target": "mt7004"})");
       },
       "params.json: 'channel' is 6",
       "x.npy, dy.npy and dx.npy of shape (30,) and mean.npy, invar.npy, scale.npy, dbias.npy and "
       "dscale.npy of shape (5,): 6 channels need each of mean.npy, invar.npy, scale.npy, "
       "dbias.npy "
       "and dscale.npy to have shape (6,) (leave"},
      // batch × channel = 2^62 × 4 wraps to the 0 elements of empty arrays:
      // refused by division, never multiplied into a reference of 2^62 rows.
      {"batch that would overflow",
       [](const fs::path& d) {
         for (const char* n : {"x", "dy", "dx"})
           rewrite(d / (std::string(n) + ".npy"), DType::f4, {0, 4});
         for (const char* n : {"mean", "invar", "scale", "dbias", "dscale"})
           rewrite(d / (std::string(n) + ".npy"), DType::f4, {4});
         write_bytes(d / "params.json",
                     R"({"batch": 4611686018427387904, "is_train": 1, "target": "mt7004"})");
       },
       "params.json: 'batch' is 4611686018427387904", "0 rows of 4 channels, so batch is 0 there"},
      {"no rows",
       [](const fs::path& d) {
         for (const char* n : {"x", "dy", "dx"})
           rewrite(d / (std::string(n) + ".npy"), DType::f4, {0, 5});
         write_bytes(d / "params.json", R"({"is_train": 1, "target": "mt7004"})");
       },
       "x.npy, dy.npy and dx.npy of shape (0, 5)", "no rows: a call has at least one"},
  };
  Scratch dir("badinput");
  const Case c = make_case(Combo::fp, 6, 5, 1);
  const Outputs o = perfect(c);
  for (const auto& b : cases) {
    const fs::path d = dir.path() / "dump";
    fs::remove_all(d);
    write_dump(d, c, o, "mt7004");
    b.apply(d);
    const auto run =
        bngcert("check --dir " + d.string() + " --out " + (dir.path() / "out").string());
    EXPECT_EQ(run.status, 2) << b.name << ": " << run.output;
    EXPECT_NE(run.output.find(b.phrase), std::string::npos) << b.name << ": " << run.output;
    if (*b.file) {
      EXPECT_NE(run.output.find(b.file), std::string::npos) << b.name << ": " << run.output;
    }
    EXPECT_EQ(run.output.find("terminate"), std::string::npos)
        << b.name << ": crashed: " << run.output;
  }
}

// A mistyped --dir is said first and plainly, not as a missing is_train.
TEST(Check, ADumpDirectoryThatIsNotThereIsSaidFirst) {
  Scratch dir("nodir");
  const fs::path out = dir.path() / "out";
  auto run = bngcert("check --dir " + (dir.path() / "nope").string() + " --out " + out.string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find((dir.path() / "nope").string() + ": no such directory"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("is_train"), std::string::npos) << run.output;

  write_bytes(dir.path() / "file.npy", "not a directory");
  run = bngcert("check --dir " + (dir.path() / "file.npy").string() + " --out " + out.string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find("file.npy: a regular file, not a directory"), std::string::npos)
      << run.output;
}

// A call whose reference does not fit in memory: said with the shape and what
// could help, never a bare std::bad_alloc. The process gets 100 MB of address
// space: enough for bngcert and a small dump, not for the exact reference of
// 2^20 rows (about 150 bytes a row).
TEST(Check, ADumpTooLargeForMemoryIsSaidSo) {
  Scratch dir("memory");
  using bng::cert::npy::DType;
  const fs::path small = dir.path() / "small", large = dir.path() / "large";
  write_dump(small, make_case(Combo::fp, 6, 5, 1), perfect(make_case(Combo::fp, 6, 5, 1)),
             "mt7004");
  fs::create_directories(large);
  const std::int64_t rows = std::int64_t{1} << 20;
  for (const char* n : {"x", "dy", "dx"})
    rewrite(large / (std::string(n) + ".npy"), DType::f4, {rows, 1});
  for (const char* n : {"mean", "invar", "scale", "dbias", "dscale"})
    rewrite(large / (std::string(n) + ".npy"), DType::f4, {1});
  write_bytes(large / "params.json", R"({"is_train": 1, "target": "mt7004"})");

  const auto limited = [&](const fs::path& dump) {
    return bngcert_test::shell("ulimit -v 100000 && " + std::string(BNGCERT_EXE) + " check --dir " +
                               dump.string() + " --out " + (dir.path() / "out").string() +
                               " --jobs 1 --progress none");
  };
  auto run = limited(small);
  ASSERT_EQ(run.status, 0) << "the limit leaves room for bngcert itself: " << run.output;
  run = limited(large);
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_NE(run.output.find(large.string() + ": out of memory judging the dump (1048576 × 1)"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("its 1048576 rows cannot be judged"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("bad_alloc"), std::string::npos) << run.output;
}

// What may differ between two judgings of the same files: when they ran, and
// which reference judged (the issue's "apart from run times and the name of
// the reference"), and the certificate's digest, which covers those.
json without_run_details(json j) {
  if (j.is_object()) {
    for (const char* key : {"started_utc", "generated_utc", "duration_s", "reference", "digest"}) {
      j.erase(key);
    }
    for (auto& [key, v] : j.items()) v = without_run_details(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = without_run_details(v);
  }
  return j;
}

// --reference exact forces the BigInt path: the same report and certificate as
// the tiered default, which says how many outputs it took to the exact path
// (a NaN in channel 0 sends that whole channel there: batch + 2 outputs).
TEST_P(CheckPlanted, BothReferencePathsJudgeAlike) {
  const auto [combo, target] = GetParam();
  Scratch dir(std::string("paths_") + target + std::string(bng::combo_name(combo)));
  for (int is_train : {1, 0}) {
    Case c = make_case(combo, 6, 5, is_train);
    c.x[0] = NAN;
    Outputs o = perfect(c);
    o.dx[2 * 5 + 3] *= 2;  // one failure, so that the failure lists are compared too
    const fs::path dump = dir.path() / "dump";
    write_dump(dump, c, o, target);
    std::map<std::string, json> report, certificate;
    for (const char* path : {"tiered", "exact"}) {
      const fs::path out = dir.path() / path;
      const auto run = bngcert("check --dir " + dump.string() + " --out " + out.string() +
                               " --reference " + path);
      ASSERT_EQ(run.status, 1) << run.output;
      report[path] = read_json(out / "report.json");
      certificate[path] = read_json(out / "certificate.json");
      EXPECT_EQ(report[path]["run"]["reference"]["path"], path);
      EXPECT_EQ(certificate[path]["runs"][0]["reference"]["path"], path);
    }
    // Inference dx is always decided; a training dx whose y* is 0 exactly (as one is
    // here) cannot be, since its interval holds both signs.
    const auto fallbacks = report["tiered"]["run"]["reference"]["exact_fallbacks"].get<int>();
    if (is_train == 1) {
      EXPECT_GE(fallbacks, 6 + 2);
      EXPECT_LE(fallbacks, 6 * 5 + 2 * 5);
    } else {
      EXPECT_EQ(fallbacks, 6 + 2);
    }
    EXPECT_EQ(report["exact"]["run"]["reference"]["exact_fallbacks"], 0);
    EXPECT_EQ(without_run_details(report["tiered"]), without_run_details(report["exact"]));
    EXPECT_EQ(without_run_details(certificate["tiered"]),
              without_run_details(certificate["exact"]));
  }
}

TEST(Check, AnUnknownReferencePathIsRefused) {
  Scratch dir("unknown_path");
  const Case c = make_case(Combo::fp, 2, 2, 1);
  write_dump(dir.path() / "dump", c, perfect(c), "ft78ne");
  const auto run = bngcert("check --dir " + (dir.path() / "dump").string() + " --out " +
                           (dir.path() / "out").string() + " --reference fast");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.output.find("--reference"), std::string::npos) << run.output;
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}
