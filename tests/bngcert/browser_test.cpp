// The HTML report in a real browser (ctest label `browser`; Debian's
// chromium, headless): the charts are in the rendered DOM and paint pixels,
// and the page fetches nothing — checked in Chromium's own network log, with
// a control page proving the log would show a fetch if there were one.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "tool_support.hpp"

namespace fs = std::filesystem;
using bngcert_test::bngcert;
using bngcert_test::read_text;
using bngcert_test::Scratch;

namespace {

struct Browser {
  int status = -1;
  std::string output;
};

// Headless Chromium on `page` with a fresh profile; `what` is --dump-dom,
// --screenshot=..., plus any extra flags.
Browser chromium(const Scratch& dir, const fs::path& page, const std::string& what) {
  static int profile = 0;
  const fs::path user_data = dir.path() / ("profile" + std::to_string(profile++));
  const std::string cmd =
      std::string("timeout 120 ") + CHROMIUM_EXE +
      " --headless --no-sandbox --disable-gpu --disable-background-networking "
      "--disable-component-update --disable-sync --no-first-run --user-data-dir=" +
      user_data.string() + " --window-size=1200,1600 " + what + " file://" + page.string() +
      " 2>/dev/null";
  Browser b;
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return b;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) b.output.append(buf, n);
  const int st = ::pclose(p);
  b.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return b;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = 0; (p = text.find(what, p)) != std::string::npos; p += what.size()) ++n;
  return n;
}

// URL requests a page started (Chromium's own background traffic carries the
// initiator "not an origin"; anything a file:// page loads carries its origin).
std::vector<std::string> page_requests(const fs::path& netlog) {
  const auto log = bngcert_test::read_json(netlog);
  int start_job = -1;
  for (const auto& [name, id] : log["constants"]["logEventTypes"].items()) {
    if (name == "URL_REQUEST_START_JOB") start_job = id.get<int>();
  }
  std::vector<std::string> urls;
  for (const auto& e : log["events"]) {
    if (e["type"] != start_job || !e.contains("params") || !e["params"].contains("url")) continue;
    const auto& p = e["params"];  // (the job's end event carries only its net_error)
    if (p.value("initiator", "") != "not an origin") urls.push_back(p.value("url", "?"));
  }
  return urls;
}

class BrowserTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_TRUE(fs::exists(CHROMIUM_EXE))
        << "chromium not found at '" << CHROMIUM_EXE << "': BNG_SETUP_BROWSER=1 ./scripts/setup.sh";
  }
};

}  // namespace

TEST_F(BrowserTest, ChartsRenderAndNothingIsFetched) {
  Scratch dir("browser");
  const fs::path report = dir.path() / "report";
  const auto run = bngcert("report --targets mt7004 --functions hp --cases 1 --max-size 10 --out " +
                           report.string());
  ASSERT_EQ(run.status, 0) << run.output;
  const fs::path page = report / "report.html";
  const std::string html = read_text(page);

  // Nothing to fetch: a policy that forbids every load, no URL, no script.
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);

  // The charts are in the DOM the browser built: 3 outputs × (histogram + scatter).
  const fs::path netlog = dir.path() / "netlog.json";
  const Browser dom = chromium(dir, page, "--dump-dom --log-net-log=" + netlog.string());
  ASSERT_EQ(dom.status, 0);
  EXPECT_EQ(count(dom.output, "<svg"), 6u) << dom.output.substr(0, 2000);
  EXPECT_GE(count(dom.output, "class=\"histogram\""), 3u);
  EXPECT_GE(count(dom.output, "class=\"scatter\""), 3u);
  EXPECT_GE(count(dom.output, "<polyline"), 3u) << "the declared bound is drawn in every scatter";
  EXPECT_GE(count(dom.output, "<rect"), 60u) << "bars and density cells";
  EXPECT_NE(dom.output.find("mt7004/hp"), std::string::npos);
  const auto fetched = page_requests(netlog);
  EXPECT_TRUE(fetched.empty()) << "the report fetched " << fetched.size()
                               << " URLs, first: " << (fetched.empty() ? "" : fetched.front());

  // Pixels: the report's screenshot holds far more than a blank page's.
  const fs::path blank = dir.path() / "blank.html";
  { std::ofstream(blank) << "<!DOCTYPE html><html><body></body></html>\n"; }
  const fs::path shot = dir.path() / "report.png", blank_shot = dir.path() / "blank.png";
  ASSERT_EQ(chromium(dir, page, "--screenshot=" + shot.string()).status, 0);
  ASSERT_EQ(chromium(dir, blank, "--screenshot=" + blank_shot.string()).status, 0);
  ASSERT_TRUE(fs::exists(shot) && fs::exists(blank_shot));
  EXPECT_GT(fs::file_size(shot), 8 * fs::file_size(blank_shot))
      << "screenshot " << fs::file_size(shot) << " bytes vs blank " << fs::file_size(blank_shot);
}

TEST_F(BrowserTest, NetworkLogSeesAPageThatDoesFetch) {
  // The control for the check above: were the report to load anything, the
  // same log would list it.
  Scratch dir("browser_control");
  const fs::path page = dir.path() / "fetching.html";
  {
    std::ofstream(page)
        << "<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/x.png\"></body></html>\n";
  }
  const fs::path netlog = dir.path() / "netlog.json";
  ASSERT_EQ(chromium(dir, page, "--dump-dom --log-net-log=" + netlog.string()).status, 0);
  const auto fetched = page_requests(netlog);
  ASSERT_FALSE(fetched.empty())
      << "the network log does not show page loads: the check above would be vacuous";
  EXPECT_NE(fetched.front().find("127.0.0.1:9"), std::string::npos) << fetched.front();
}
