// Helpers of the pack round-trip tests: run the C harnesses, export packs.
// BNG_HARNESSES: the built harnesses' paths, one per target of the registry.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "tool_support.hpp"

namespace bngcert_test {

namespace fs = std::filesystem;

// Every family, both modes, every entry point of both targets (4 cases per
// series rotate through them); sizes kept small, though large_cancel stays large.
inline const std::string kSmallCampaign = " --cases 4 --max-size 6 --seed 11";

inline void export_pack(const fs::path& dir, const std::string& options = kSmallCampaign) {
  const Run r = bngcert("export --out " + dir.string() + options);
  ASSERT_EQ(r.status, 0) << r.output;
}

inline void run_harnesses(const fs::path& pack) {
  for (const char* h : {BNG_HARNESSES}) {
    const Run r = shell(std::string(h) + " " + pack.string());
    ASSERT_EQ(r.status, 0) << h << ": " << r.output;
  }
}

}  // namespace bngcert_test
