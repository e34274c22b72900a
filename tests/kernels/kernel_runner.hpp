// Runs a bng::Case through this executable's target kernels (the target's
// static library; tests/kernels/CMakeLists.txt builds one executable per
// target of the registry, with BNG_TARGET_NAME, BNG_TARGET_ID and
// BNG_TARGET_HAS_FP/HP/MP) and judges the outputs against the exact reference
// at the kernel's declared alpha.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bng/optimized/partition.hpp"
#include "bng/reference/case.hpp"

// Test suite names carry the target, so that ctest names (Suite_target.Test,
// "portable." prefixed for the portable path) say which library failed.
#define BNG_KSUITE_CAT_(suite, target) suite##_##target
#define BNG_KSUITE_CAT(suite, target) BNG_KSUITE_CAT_(suite, target)
#define BNG_KSUITE(suite) BNG_KSUITE_CAT(suite, BNG_TARGET_ID)

namespace bng::ktest {

// The combos this target has, and their alphas (the registry's).
std::vector<Combo> target_combos();
double declared_alpha(Combo c);
// The target's partitioning model, as its compute.cpp builds it.
opt::TargetModel target_model();

// Output bits as stored by the kernel, for bit-identity checks.
struct RawOutputs {
  std::vector<std::uint8_t> dx, dbias, dscale;
  bool operator==(const RawOutputs&) const = default;
};

// A case's inputs in their storage formats, to run it many times.
struct Encoded {
  const Case* c;
  std::vector<std::uint8_t> x, dy, mean, invar, scale;
};
Encoded encode_case(const Case& c);

// core_mask 0 runs as _p (the caller alone). In place: dx is the x or dy
// buffer (a copy of it, so the case stays intact).
enum class InPlace : std::uint8_t { none, x, dy };
RawOutputs run_raw(const Encoded& e, unsigned core_mask, InPlace in_place = InPlace::none);
RawOutputs run_raw(const Case& c, unsigned core_mask);
Outputs decode(const Case& c, const RawOutputs& raw);

// A double as C's "%a" (exact hexadecimal), for failure messages.
std::string hex_a(double v);

// Checks every output against the reference; returns "" or a report of the
// first failures (index, kernel value, reference, tolerance, in hex and %a).
// `what` (seed, shape) heads the report.
std::string check_against_reference(const Case& c, const Outputs& out, const std::string& what);

// The guarantees every hand-built case is held to (gtest expectations): the
// same bits for core masks 0 and 0x3 and for both in-place forms (dx == x,
// dx == dy), and every output within the declared alpha of the reference.
void expect_same_bits_within_alpha(const Case& c, const std::string& what);

}  // namespace bng::ktest
