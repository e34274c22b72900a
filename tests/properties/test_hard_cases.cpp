// Example-based tests: the hard cases kept as data in tests/data/hard-cases/,
// each file saying how it was found. Every case runs on every entry point of
// every target that has its type combination, for accuracy and bit identity
// (masks, forms, in place, canonical NaN).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bng/properties/properties.hpp"
#include "bng/reference/rounding.hpp"
#include "hard_case_file.hpp"

namespace bng::prop {
namespace {

std::vector<std::filesystem::path> case_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(BNG_HARD_CASES_DIR)) {
    if (e.path().extension() == ".case") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(HardCases, there_are_hard_cases) {
  EXPECT_GE(case_files().size(), 5u);
}

TEST(HardCases, accuracy_and_identity_on_every_entry_point) {
  for (const auto& path : case_files()) {
    SCOPED_TRACE(path.filename().string());
    const Case c = test::read_hard_case(path);
    for (Target t : all_targets()) {
      const auto cs = combos(t);
      if (std::find(cs.begin(), cs.end(), c.combo) == cs.end()) continue;
      const CallSpec base{t, c.combo, Storage::private_, Form::params, 0};
      EXPECT_EQ(check_accuracy(c, base), "");
      std::vector<CallSpec> others;
      for (unsigned mask : {0x1u, 0x3u, 0x81u, kAllCores}) {
        for (const CallSpec& s : entry_points(t, c.combo, mask)) others.push_back(s);
      }
      EXPECT_EQ(check_reproducible(c, base, others), "");
      for (const CallSpec& s : {base, others.back()}) {
        EXPECT_EQ(check_in_place(c, s, InPlace::dx_is_x), "");
        EXPECT_EQ(check_in_place(c, s, InPlace::dx_is_dy), "");
        EXPECT_EQ(check_canonical_nans(c, s), "");
      }
    }
  }
}

}  // namespace
}  // namespace bng::prop
