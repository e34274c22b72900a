// Which library a run judges, end to end (issue 21: "the file judged is not
// the file hashed"): a path without a slash is the file in the current
// directory, never one dlopen finds by searching LD_LIBRARY_PATH; a library
// whose build record names another target is refused before any case runs;
// a --lib-* that would change nothing, or that names no regular file, is
// refused before any work.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "sha256.hpp"
#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using Result = bngcert_test::Run;  // "Run" is a member of every gtest fixture
using bngcert_test::Scratch;
using bngcert_test::shell;

namespace {

// A small campaign of the ft78ne kernels: about a second.
const std::string kSmall = " --targets ft78ne --families ordinary --cases 1 --max-size 5";

// `bngcert <args>` run from `dir` with extra environment assignments first.
Result bngcert_in(const fs::path& dir, const std::string& env, const std::string& args) {
  return shell("cd '" + dir.string() + "' && " + env + " " + BNGCERT_EXE + " " + args +
               " --progress lines");
}

bool has(const Result& r, const std::string& text) {
  return r.output.find(text) != std::string::npos;
}

}  // namespace

// The attack: ./libvendor.so is the ft78ne library, and a directory on
// LD_LIBRARY_PATH holds another libvendor.so that is no BatchNormGrad library
// at all. dlopen("libvendor.so") would load that one (the run then fails: it
// has no bng_status_string) while the certificate named ./libvendor.so.
TEST(BngcertLibraries, APathWithoutASlashIsTheFileInTheCurrentDirectory) {
  Scratch dir("lib_search");
  const fs::path here = dir.path() / "here", elsewhere = dir.path() / "elsewhere";
  fs::create_directories(here);
  fs::create_directories(elsewhere);
  fs::copy_file(BNG_FT78NE_LIBRARY, here / "libvendor.so");
  fs::copy_file(BNG_DECOY_LIBRARY, elsewhere / "libvendor.so");
  const std::string search = "LD_LIBRARY_PATH='" + elsewhere.string() + "'";
  const std::string want_sha256 = bng::cert::sha256_file(BNG_FT78NE_LIBRARY);

  for (const bool from_environment : {false, true}) {
    SCOPED_TRACE(from_environment ? "BNG_LIB_FT78NE=libvendor.so" : "--lib-ft78ne libvendor.so");
    const fs::path out = dir.path() / (from_environment ? "cert_env" : "cert_option");
    const Result run =
        from_environment
            ? bngcert_in(here, search + " BNG_LIB_FT78NE=libvendor.so",
                         "certify" + kSmall + " --out " + out.string())
            : bngcert_in(here, search,
                         "certify --lib-ft78ne libvendor.so" + kSmall + " --out " + out.string());
    ASSERT_EQ(run.status, 0) << "the ft78ne library in the current directory ran, not the decoy "
                                "on LD_LIBRARY_PATH: "
                             << run.output;
    const auto lib = read_json(out / "certificate.json")["build"]["libraries"]["ft78ne"];
    EXPECT_EQ(lib["path"], (here / "libvendor.so").string()) << "absolute: the file loaded";
    EXPECT_EQ(lib["sha256"], want_sha256);
    EXPECT_EQ(lib["build"]["target"], "ft78ne");

    // verify, from elsewhere with the same search path, checks that same file.
    const Result verify = bngcert_in(elsewhere, search, "verify " + out.string());
    EXPECT_EQ(verify.status, 0) << verify.output;
  }
}

TEST(BngcertLibraries, ALibraryBuiltForAnotherTargetIsRefusedBeforeAnyCase) {
  Scratch dir("lib_other_target");
  const fs::path out = dir.path() / "cert";
  const Result run = bngcert("certify --lib-ft78ne " + std::string(BNG_MT7004_LIBRARY) + kSmall +
                             " --out " + out.string());
  EXPECT_EQ(run.status, 2) << run.output;
  EXPECT_TRUE(has(run, "its build record says target=mt7004")) << run.output;
  EXPECT_TRUE(has(run, BNG_MT7004_LIBRARY)) << run.output;
  EXPECT_FALSE(has(run, "campaign:")) << "no case ran: " << run.output;
  EXPECT_FALSE(fs::exists(out / "certificate.json"));
}

// A vendor's own build carries no record: judged as given, as before, with
// the missing record said in the certificate.
TEST(BngcertLibraries, ALibraryWithoutABuildRecordIsJudged) {
  Scratch dir("lib_no_record");
  const fs::path lib = dir.path() / "libvendor.so", out = dir.path() / "cert";
  const Result strip = shell("objcopy --remove-section=.bng_build '" +
                             std::string(BNG_FT78NE_LIBRARY) + "' '" + lib.string() + "'");
  ASSERT_EQ(strip.status, 0) << "objcopy (binutils) is needed: " << strip.output;
  const Result run =
      bngcert("certify --lib-ft78ne " + lib.string() + kSmall + " --out " + out.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const auto judged = read_json(out / "certificate.json")["build"]["libraries"]["ft78ne"];
  EXPECT_TRUE(judged["build"].is_null()) << judged.dump();
  EXPECT_NE(judged["build_error"].get<std::string>().find("no build record"), std::string::npos);
}

// Where no library runs, --lib-* is refused saying why, not ignored.
TEST(BngcertLibraries, ALibraryWhereNoneRunsIsRefused) {
  Scratch dir("lib_no_effect");
  const std::string lib = " --lib-ft78ne " + std::string(BNG_FT78NE_LIBRARY);
  const fs::path report = dir.path() / "report";
  ASSERT_EQ(bngcert("report" + kSmall + " --out " + report.string()).status, 0);
  const auto worst = read_json(report / "report.json")["kernels"][0]["outputs"]["dx"]["worst"];
  const fs::path dump = report / worst["reproducer"].get<std::string>();
  const std::string check_out = " --out " + (dir.path() / "check").string();
  ASSERT_EQ(bngcert("check --dir " + dump.string() + check_out).status, 0);

  Result r = bngcert("check --dir " + dump.string() + lib + check_out);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "check: --lib-ft78ne")) << r.output;
  EXPECT_TRUE(has(r, "has no effect there")) << r.output;
  EXPECT_TRUE(has(r, "runs no library")) << r.output;

  const fs::path refused_pack = dir.path() / "refused_pack";
  r = bngcert("export" + kSmall + lib + " --out " + refused_pack.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "export: --lib-ft78ne")) << r.output;
  EXPECT_TRUE(has(r, "has no effect there")) << r.output;
  EXPECT_FALSE(fs::exists(refused_pack)) << "refused before any work";
  EXPECT_EQ(bngcert("export --help").output.find("--lib-"), std::string::npos)
      << "not offered where it is refused";

  const fs::path pack = dir.path() / "pack";
  ASSERT_EQ(bngcert("export" + kSmall + " --out " + pack.string()).status, 0);
  r = bngcert("check --pack " + pack.string() + lib + check_out);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "has no effect there")) << r.output;

  // A target the run does not load.
  r = bngcert("certify --targets mt7004 --families ordinary --cases 1 --max-size 5" + lib +
              " --out " + (dir.path() / "cert_targets").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "--targets do not include ft78ne")) << r.output;

  // Two files for one library (both the ft78ne library): the variable would
  // silently win over the option.
  const fs::path copy = dir.path() / "copy.so";
  fs::copy_file(BNG_FT78NE_LIBRARY, copy);
  r = shell("BNG_LIB_FT78NE='" + copy.string() + "' " + BNGCERT_EXE + " certify" + kSmall + lib +
            " --out " + (dir.path() / "cert_env").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_TRUE(has(r, "name different files")) << r.output;
}

// A library path that names no regular file: refused at once (no --out
// written), naming the option or variable and the path, absolute.
TEST(BngcertLibraries, APathThatIsNoRegularFileIsRefusedAtOnce) {
  Scratch dir("lib_missing");
  int runs = 0;
  const auto expect_refused = [&](const std::string& env, const std::string& lib_option,
                                  const std::string& want) {
    const std::string out = "cert" + std::to_string(++runs);
    const Result r = bngcert_in(dir.path(), env, "certify" + lib_option + kSmall + " --out " + out);
    EXPECT_EQ(r.status, 2) << r.output;
    EXPECT_TRUE(has(r, want)) << r.output;
    EXPECT_FALSE(fs::exists(dir.path() / out)) << "refused before any work: " << r.output;
  };
  expect_refused(
      "", " --lib-ft78ne no_such.so",
      "--lib-ft78ne no_such.so (" + (dir.path() / "no_such.so").string() + "): no such file");
  expect_refused("", " --lib-ft78ne " + dir.path().string(),
                 "--lib-ft78ne " + dir.path().string() + ": a directory, not a regular file");
  expect_refused(
      "BNG_LIB_FT78NE=gone.so", "",
      "BNG_LIB_FT78NE gone.so (" + (dir.path() / "gone.so").string() + "): no such file");

  // "link/../libvendor.so" is real/libvendor.so for the kernel but would be
  // dir/libvendor.so once normalised: two files, so refused.
  fs::create_directories(dir.path() / "real" / "sub");
  fs::create_directory_symlink(dir.path() / "real" / "sub", dir.path() / "link");
  fs::copy_file(BNG_FT78NE_LIBRARY, dir.path() / "real" / "libvendor.so");
  fs::copy_file(BNG_DECOY_LIBRARY, dir.path() / "libvendor.so");
  expect_refused("", " --lib-ft78ne link/../libvendor.so", "its '..' follows a symbolic link");
}
