// Every part of the tool chain enumerates the target registry
// (optimized/include/bng/optimized/targets.inc), and nothing else: CMake's
// reading of it (cmake/BngTargets.cmake, passed in as BNG_CMAKE_*) is what C++
// compiles (bng/optimized/targets.hpp); the libraries, their exports, the
// properties' Target, bngcert's choices, the harnesses, the kernel tests and
// the property tests' instances each cover every target of it. Nothing here
// names a target: a third entry is tested as the first two are.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "bng/optimized/targets.hpp"
#include "bng/properties/properties.hpp"
#include "tool_support.hpp"

namespace bng::prop {
namespace {

using bngcert_test::bngcert;
using bngcert_test::read_json;
using bngcert_test::Scratch;
using bngcert_test::shell;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) out.push_back(part);
  return out;
}

// "a=x|b=y" -> {a: x, b: y}, in order.
std::vector<std::pair<std::string, std::string>> pairs(const std::string& s, char eq) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& item : split(s, '|')) {
    const auto at = item.find(eq);
    out.emplace_back(item.substr(0, at), at == std::string::npos ? "" : item.substr(at + 1));
  }
  return out;
}

std::vector<std::string> registry_names() {
  std::vector<std::string> names;
  for (const opt::TargetInfo& t : opt::kTargets) names.emplace_back(t.name);
  return names;
}

std::vector<std::string> registry_kernels(const opt::TargetInfo& t) {
  std::vector<std::string> out;
  for (std::size_t k = 0; k < opt::kKernelKinds; ++k) {
    if (t.has_kernel(k)) out.emplace_back(opt::kKernelPrefixes[k]);
  }
  return out;
}

TEST(TargetRegistry, CmakeReadsWhatCxxCompiles) {
  const auto cmake = pairs(BNG_CMAKE_REGISTRY, ':');
  ASSERT_EQ(cmake.size(), opt::kTargetCount) << BNG_CMAKE_REGISTRY;
  for (std::size_t i = 0; i < cmake.size(); ++i) {
    EXPECT_EQ(cmake[i].first, opt::kTargets[i].name);
    EXPECT_EQ(split(cmake[i].second, ','), registry_kernels(opt::kTargets[i])) << cmake[i].first;
  }
}

TEST(TargetRegistry, PropertiesTargetIsTheRegistry) {
  const std::vector<Target> all = all_targets();
  ASSERT_EQ(all.size(), opt::kTargetCount);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < all.size(); ++i) {
    const opt::TargetInfo& info = opt::kTargets[i];
    const Target t = all[i];
    names.emplace_back(target_name(t));
    EXPECT_EQ(target(info.name), t);
    std::vector<std::string> kernels;
    for (Combo c : combos(t)) {
      kernels.emplace_back(combo_name(c));
      EXPECT_EQ(declared_alpha(t, c), info.alpha[static_cast<std::size_t>(c)]) << info.name;
    }
    EXPECT_EQ(kernels, registry_kernels(info));
    for (Combo c : {Combo::fp, Combo::hp, Combo::mp}) {
      if (!info.has_kernel(static_cast<std::size_t>(c))) {
        EXPECT_THROW(declared_alpha(t, c), std::invalid_argument) << info.name;
      }
    }
  }
  EXPECT_EQ(names, registry_names());
  EXPECT_FALSE(find_target("no_such_target").has_value());
  EXPECT_THROW(target("no_such_target"), std::invalid_argument);
}

TEST(TargetRegistry, EveryLibraryExportsExactlyItsKernelsEntryPoints) {
  const auto cmake = pairs(BNG_CMAKE_EXPORTS, '=');
  ASSERT_EQ(cmake.size(), opt::kTargetCount);
  for (std::size_t i = 0; i < cmake.size(); ++i) {
    const Target t = target(cmake[i].first);
    // CMake's list (the version script's) and C++'s (SPEC §2's rules over the
    // registry's kernels) agree ...
    std::vector<std::string> from_cmake = split(cmake[i].second, ',');
    std::sort(from_cmake.begin(), from_cmake.end());
    EXPECT_EQ(from_cmake, spec_exports(t)) << cmake[i].first;
    // ... and the built library exports exactly that.
    EXPECT_EQ(check_exports(t), "");
    EXPECT_EQ(check_status_strings(t), "");
    std::string env = "BNG_LIB_";
    for (char ch : cmake[i].first)
      env += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    EXPECT_EQ(library_env_var(t), env);
  }
}

// A few cases through every entry point of every target, so that a new
// target is exercised before any test names it.
TEST(TargetRegistry, EveryEntryPointOfEveryTargetIsAccurate) {
  const Family& ordinary = *find_family("ordinary");
  for (Target t : all_targets()) {
    for (Combo c : combos(t)) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const Case k = sample(ordinary, c, seed, 12);
        for (unsigned mask : {0x1u, 0x3u}) {
          for (const CallSpec& spec : entry_points(t, c, mask)) {
            EXPECT_EQ(check_accuracy(k, spec), "") << describe(spec);
          }
        }
      }
    }
  }
}

TEST(TargetRegistry, BngcertOffersEveryTargetAndNoOther) {
  // export and check run no library: there --lib-* is refused, not offered
  // (tests/bngcert/library_cli_test.cpp).
  for (const char* command : {"report", "certify", "verify"}) {
    const auto help = bngcert(std::string(command) + " --help");
    ASSERT_EQ(help.status, 0) << help.output;
    std::size_t libs = 0;
    for (std::size_t at = 0; (at = help.output.find("--lib-", at)) != std::string::npos; ++at)
      ++libs;
    EXPECT_EQ(libs, opt::kTargetCount) << command << ":\n" << help.output;
    for (const std::string& name : registry_names())
      EXPECT_NE(help.output.find("--lib-" + name), std::string::npos) << command;
  }
  EXPECT_NE(bngcert("report --targets no_such_target --out /nonexistent").status, 0);
  EXPECT_NE(bngcert("check --dir /nonexistent --target no_such_target").status, 0);

  // The default campaign runs every kernel of every target.
  Scratch dir("registry");
  const auto run =
      bngcert("report --families ordinary --cases 1 --max-size 4 --modes training --seed 3 --out " +
              dir.path().string());
  ASSERT_EQ(run.status, 0) << run.output;
  std::set<std::string> kernels, want;
  const auto report = read_json(dir.path() / "report.json");
  for (const auto& k : report["kernels"])
    kernels.insert(k["target"].get<std::string>() + "/" + k["combo"].get<std::string>());
  for (const opt::TargetInfo& t : opt::kTargets) {
    for (const std::string& k : registry_kernels(t)) want.insert(std::string(t.name) + "/" + k);
  }
  EXPECT_EQ(kernels, want);
}

TEST(TargetRegistry, EveryTargetHasItsHarnessAndKernelTests) {
  const auto harnesses = pairs(BNG_CMAKE_HARNESSES, '=');
  ASSERT_EQ(harnesses.size(), opt::kTargetCount);
  for (std::size_t i = 0; i < harnesses.size(); ++i) {
    EXPECT_EQ(harnesses[i].first, opt::kTargets[i].name);
    // Without arguments a harness says which target's library it calls.
    const auto usage = shell(harnesses[i].second);
    EXPECT_EQ(usage.status, 2) << usage.output;
    EXPECT_NE(usage.output.find("(the " + harnesses[i].first + " harness)"), std::string::npos)
        << usage.output;
  }
  const auto kernel_tests = pairs(BNG_CMAKE_KERNEL_TESTS, '=');
  ASSERT_EQ(kernel_tests.size(), opt::kTargetCount);
  for (std::size_t i = 0; i < kernel_tests.size(); ++i) {
    EXPECT_EQ(kernel_tests[i].first, opt::kTargets[i].name);
    const auto list = shell(kernel_tests[i].second + " --gtest_list_tests");
    EXPECT_EQ(list.status, 0) << list.output;
    EXPECT_NE(list.output.find("_" + kernel_tests[i].first + "."), std::string::npos)
        << list.output;
  }
}

// The property tests are instantiated over the registry
// (tests/properties/support.hpp): each per-kernel property lists an instance
// for every kernel of every target, FormsIdentical for every kernel with the
// flat form, Accuracy for every entry point; instances are named
// "<Property>.holds/<target>_<combo>[_<shared|private>_<form>]".
TEST(TargetRegistry, EveryPropertyHasAnInstanceForEveryKernel) {
  const auto list = shell(std::string(BNG_PROPERTIES_TESTS) + " --gtest_list_tests");
  ASSERT_EQ(list.status, 0) << list.output;
  std::map<std::string, std::set<std::string>> instances;  // property -> instance names
  std::string suite;
  for (const std::string& line : split(list.output, '\n')) {
    if (line.empty() || line.back() == '.') {
      suite = line.empty() ? "" : line.substr(0, line.size() - 1);
      continue;
    }
    if (line.rfind("  ", 0) != 0) continue;  // gtest_main's banner
    const std::string test = line.substr(2, line.find("  #", 2) - 2);
    const auto slash = test.find('/');
    if (slash != std::string::npos) instances[suite].insert(test.substr(slash + 1));
  }

  std::set<std::string> kernels, with_flat_form, entry_point_names;
  for (Target t : all_targets()) {
    for (Combo c : combos(t)) {
      const std::string kernel = std::string(target_name(t)) + "_" + std::string(combo_name(c));
      kernels.insert(kernel);
      for (const CallSpec& s : entry_points(t, c, 0x1)) {
        if (s.form == Form::flat) with_flat_form.insert(kernel);
        entry_point_names.insert(kernel +
                                 (s.storage == Storage::shared ? "_shared_" : "_private_") +
                                 std::string(form_name(s.form)));
      }
    }
  }
  const std::map<std::string, std::set<std::string>> want = {{"Accuracy", entry_point_names},
                                                             {"OverlappingInputs", kernels},
                                                             {"Reproducible", kernels},
                                                             {"ReproducibleLarge", kernels},
                                                             {"EveryMask", kernels},
                                                             {"FormsIdentical", with_flat_form},
                                                             {"ChannelIsolation", kernels},
                                                             {"Pow2Scaling", kernels},
                                                             {"InPlace", kernels},
                                                             {"Status", kernels},
                                                             {"EveryFault", kernels}};
  // Every parameterized property is checked here: a new one must be added.
  EXPECT_EQ(instances, want) << list.output;
}

}  // namespace
}  // namespace bng::prop
