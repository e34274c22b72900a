// The device harness stays inside its pack (issue 21). Hostile packs: cases.txt
// lines that leave the pack, a case folder or the `cases` folder that is a
// symbolic link to outside, output names planted as links (before the run, and
// between the call and the writes), a FIFO or a device as an input or as
// cases.txt. Each is refused or replaced, the harness finishes promptly, and
// nothing outside the pack changes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::read_text;
using Result = bngcert_test::Run;  // not testing::Test::Run, inside a fixture
using bngcert_test::Scratch;
using bngcert_test::shell;

namespace {

// Every entry under dir, links not followed: all a harness could have changed
// there. Small files by content (the victims: a failure shows what was written
// over them), larger ones by size and hash.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> s;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const std::string rel = e.path().lexically_relative(dir).string();
    if (e.is_symlink()) {
      s[rel] = "link to " + fs::read_symlink(e.path()).string();
    } else if (e.is_directory()) {
      s[rel] = "folder";
    } else {
      const std::string text = read_text(e.path());
      s[rel] = text.size() <= 200 ? "file: " + text
                                  : "file of " + std::to_string(text.size()) + " bytes, hash " +
                                        std::to_string(std::hash<std::string>{}(text));
    }
  }
  return s;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f << text;
}

// With a deadline: a harness waiting on a FIFO is killed (exit 124), not waited for.
Result run_harness(const std::string& exe, const fs::path& pack) {
  return shell("timeout 20 " + exe + " " + pack.string());
}

bool is_regular_file_itself(const fs::path& p) {
  return fs::is_regular_file(fs::symlink_status(p));
}

class HarnessConfinement : public ::testing::Test {
 protected:
  void SetUp() override {
    // One hp case per series on MT7004: a few dozen tiny cases.
    const Result r = bngcert("export --out " + pack().string() +
                             " --cases 1 --max-size 2 --targets mt7004 --functions hp --seed 3");
    ASSERT_EQ(r.status, 0) << r.output;
    std::ifstream f(pack() / "cases.txt");
    for (std::string line; std::getline(f, line);) lines_.push_back(line);
    ASSERT_GE(lines_.size(), 2u);
    fs::create_directories(outside());
  }

  fs::path pack() const { return scratch_.path() / "pack"; }
  fs::path outside() const { return scratch_.path() / "outside"; }
  fs::path case_dir(std::size_t i) const { return pack() / lines_.at(i); }
  void set_cases(std::initializer_list<std::string> lines) const {
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    write(pack() / "cases.txt", text);
  }

  Scratch scratch_{std::string("confine_") +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name()};
  std::vector<std::string> lines_;
};

TEST_F(HarnessConfinement, LinesLeavingThePackAreRefusedByNumberAndTouchNothing) {
  // The victim looks like a case folder that already has outputs: the old
  // harness deleted them and wrote its own status.json there.
  const fs::path victim = outside() / "victim";
  fs::create_directories(victim);
  write(victim / "status.json", "the victim's status\n");
  write(victim / "dx.npy", "the victim's dx\n");
  set_cases({lines_.at(0), "../outside/victim", victim.string(), "cases/../../outside/victim"});
  const auto before = snapshot(outside());
  // The lexical checks are ISO C: the build without POSIX refuses the same lines.
  for (const char* harness : {HARNESS_MT7004, HARNESS_NO_POSIX}) {
    SCOPED_TRACE(harness);
    fs::remove(case_dir(0) / "status.json");
    const Result r = run_harness(harness, pack());
    EXPECT_EQ(r.status, 1) << r.output;
    for (const char* line : {"cases.txt line 2: '../outside/victim' refused",
                             "cases.txt line 3: '/", "cases.txt line 4: 'cases/../../outside"}) {
      EXPECT_NE(r.output.find(line), std::string::npos) << line << "\n" << r.output;
    }
    EXPECT_NE(r.output.find("an absolute path"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("a '.' or '..' name"), std::string::npos) << r.output;
    EXPECT_EQ(snapshot(outside()), before) << "nothing outside the pack is deleted or written";
    EXPECT_EQ(read_json(case_dir(0) / "status.json")["status"], 0) << "the good line still ran";
  }
}

TEST_F(HarnessConfinement, SymlinkedCaseFolderIsRefusedNotWrittenThrough) {
  // The case's own inputs, moved outside and linked back: a complete case the
  // old harness ran, writing its outputs outside the pack.
  const fs::path moved = outside() / "moved_case";
  fs::rename(case_dir(0), moved);
  fs::create_directory_symlink(moved, case_dir(0));
  const auto before = snapshot(outside());
  const Result r = run_harness(HARNESS_MT7004, pack());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("cases.txt line 1: '" + lines_.at(0) + "' not run"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find(lines_.at(0) + ": a symbolic link (refused"), std::string::npos)
      << r.output;
  EXPECT_EQ(snapshot(outside()), before) << "nothing written through the link";
  EXPECT_EQ(read_json(case_dir(1) / "status.json")["status"], 0) << "the other cases ran";
}

TEST_F(HarnessConfinement, SymlinkedCasesFolderIsRefusedNotWrittenThrough) {
  const fs::path moved = outside() / "cases";
  fs::rename(pack() / "cases", moved);
  fs::create_directory_symlink(moved, pack() / "cases");
  const auto before = snapshot(outside());
  const Result r = run_harness(HARNESS_MT7004, pack());
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("/pack/cases: a symbolic link"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0 cases run"), std::string::npos) << "every line refused: " << r.output;
  EXPECT_EQ(snapshot(outside()), before) << "nothing written through the link";
}

TEST_F(HarnessConfinement, PlantedOutputLinksAreReplacedNotWrittenThrough) {
  write(outside() / "status_victim", "the victim's status\n");
  write(outside() / "dx_victim", "the victim's dx\n");
  // Planted before the run, one of them dangling: writing through it would create the file.
  fs::create_symlink(outside() / "status_victim", case_dir(0) / "status.json");
  fs::create_symlink(outside() / "dx_victim", case_dir(0) / "dx.npy");
  fs::create_symlink(outside() / "not_there", case_dir(0) / "dbias.npy");
  const auto before = snapshot(outside());
  Result r = run_harness(HARNESS_MT7004, pack());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(snapshot(outside()), before) << "nothing written through the planted links";

  // Planted after the harness removed the old outputs, between the call and
  // the writes: the moment a concurrent attacker would choose.
  set_cases({lines_.at(0)});
  r = shell("BNG_TEST_PLANT_DIR=" + case_dir(0).string() +
            " BNG_TEST_PLANT_TARGET=" + (outside() / "dx_victim").string() + " timeout 20 " +
            HARNESS_PLANT_LINKS + " " + pack().string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(snapshot(outside()), before) << "nothing written through the links planted late";

  for (const char* name : {"status.json", "dx.npy", "dbias.npy", "dscale.npy"}) {
    EXPECT_TRUE(is_regular_file_itself(case_dir(0) / name)) << name << " replaced the link";
  }
  EXPECT_EQ(read_json(case_dir(0) / "status.json")["status"], 0);
}

TEST_F(HarnessConfinement, FifoOrDeviceInputIsRefusedAtOnce) {
  fs::remove(case_dir(0) / "x.npy");
  ASSERT_EQ(::mkfifo((case_dir(0) / "x.npy").c_str(), 0600), 0);
  fs::remove(case_dir(1) / "dy.npy");
  fs::create_symlink("/dev/zero", case_dir(1) / "dy.npy");
  Result r = run_harness(HARNESS_MT7004, pack());
  EXPECT_EQ(r.status, 1) << "finished (not killed by the timeout), cases not run: " << r.output;
  const auto fifo = read_json(case_dir(0) / "status.json");
  EXPECT_TRUE(fifo["status"].is_null());
  const std::string fifo_error = fifo["harness_error"].get<std::string>();
  EXPECT_NE(fifo_error.find("x.npy: not a regular file"), std::string::npos) << fifo_error;
  const std::string device_error =
      read_json(case_dir(1) / "status.json")["harness_error"].get<std::string>();
  EXPECT_NE(device_error.find("dy.npy: a symbolic link"), std::string::npos) << device_error;
  EXPECT_EQ(read_json(case_dir(2) / "status.json")["status"], 0) << "the other cases ran";

  // cases.txt itself a FIFO: the pack is unusable (exit 2), said at once.
  fs::remove(pack() / "cases.txt");
  ASSERT_EQ(::mkfifo((pack() / "cases.txt").c_str(), 0600), 0);
  r = run_harness(HARNESS_MT7004, pack());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cases.txt: not a regular file"), std::string::npos) << r.output;
}

}  // namespace
