// What bngcert writes and the command line it takes, tried as an attacker or
// an unlucky operator would: a link planted in --out is replaced, never
// written through; a bad --out fails before any case runs; out-of-range
// numbers are refused, never wrapped; FIFOs and deeply nested files neither
// hang nor crash a reader.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "tool_support.hpp"

namespace {

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::expect_exit;
using bngcert_test::read_json;
using bngcert_test::read_text;
using bngcert_test::Scratch;
using Result = bngcert_test::Run;

const std::string kTiny = " --targets mt7004 --functions hp --cases 1 --max-size 2";

// bngcert diff (it takes no --progress).
Result diff(const std::string& args) {
  return bngcert_test::shell(std::string(BNGCERT_EXE) + " diff " + args);
}

TEST(HostileFiles, ALinkPlantedInOutIsReplacedNotWrittenThrough) {
  Scratch dir("planted_link");
  const fs::path out = dir.path() / "out", victim = dir.path() / "victim";
  fs::create_directories(out);
  std::ofstream(victim) << "keep me";
  fs::create_symlink(victim, out / "report.json");
  fs::create_symlink(victim, out / "certificate.md");
  fs::create_directory_symlink(dir.path(), out / "reproducers");
  const Result r = bngcert("certify" + kTiny + " --out " + out.string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_text(victim), "keep me");
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out / "report.json")));
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out / "certificate.md")));
  EXPECT_EQ(read_json(out / "report.json")["schema"], "bngcert-report");
  EXPECT_TRUE(fs::exists(dir.path() / "victim")) << "the link's target directory was not emptied";
}

TEST(HostileFiles, AnOutThatIsAFileFailsBeforeAnyCaseRuns) {
  Scratch dir("out_file");
  const fs::path out = dir.path() / "out";
  std::ofstream(out) << "a file";
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& command : {"certify" + kTiny, "report" + kTiny, "export" + kTiny,
                                     "check --dir " + dir.path().string()}) {
    const Result r = bngcert(command + " --out " + out.string());
    expect_exit(r, 2, "exists and is not a directory");
    EXPECT_EQ(r.output.find("campaign:"), std::string::npos) << "no case may run: " << r.output;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  EXPECT_EQ(read_text(out), "a file");
}

TEST(HostileFiles, OutOfRangeNumbersAreRefusedNeverWrapped) {
  Scratch dir("numbers");
  const std::string out = " --out " + (dir.path() / "out").string();
  for (const char* seed : {"-1", "18446744073709551616", "1e3", "0x10", ""}) {
    expect_exit(bngcert("report" + kTiny + " --seed '" + std::string(seed) + "'" + out), 2, "seed");
  }
  ASSERT_EQ(bngcert("report" + kTiny + " --seed 18446744073709551615" + out).status, 0);
  EXPECT_EQ(read_json(dir.path() / "out" / "report.json")["run"]["seed"].get<std::uint64_t>(),
            18446744073709551615ull);
  expect_exit(bngcert("report" + kTiny + " --jobs 100000" + out), 2, "--jobs");
  expect_exit(bngcert("report" + kTiny + " --jobs -1" + out), 2, "--jobs");
  expect_exit(bngcert("report --targets mt7004 --functions hp --cases 1000000000" + out), 2,
              "--cases");
  expect_exit(bngcert("report" + kTiny + " --max-size 101" + out), 2, "--max-size");
  expect_exit(bngcert("check --dir " + dir.path().string() + " --block-elements 0" + out), 2,
              "--block-elements");
}

TEST(HostileFiles, FifosAndDeepFilesNeitherHangNorCrashAReader) {
  Scratch dir("fifos");
  const fs::path fifo = dir.path() / "report.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  expect_exit(diff(fifo.string() + " " + fifo.string()), 2, "a FIFO, not a regular file");
  expect_exit(bngcert("verify " + fifo.string()), 2, "a FIFO, not a regular file");
  const fs::path dump = dir.path() / "dump";
  fs::create_directories(dump);
  ASSERT_EQ(::mkfifo((dump / "params.json").c_str(), 0600), 0);
  expect_exit(bngcert("check --dir " + dump.string() + " --out " + (dir.path() / "o").string()), 2,
              "a FIFO, not a regular file");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));

  const fs::path deep = dir.path() / "deep.json";
  std::ofstream(deep) << R"({"schema": "bngcert-certificate", "x": )" << std::string(300000, '[')
                      << std::string(300000, ']') << "}";
  expect_exit(bngcert("verify " + deep.string()), 2, "nested deeper than");
  expect_exit(diff(deep.string() + " " + deep.string()), 2, "nested deeper than");
  fs::remove(dump / "params.json");
  fs::copy_file(deep, dump / "params.json");
  expect_exit(bngcert("check --dir " + dump.string() + " --out " + (dir.path() / "o").string()), 2,
              "nested deeper than");
}

}  // namespace
