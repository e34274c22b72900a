// Every exported entry point of the library under test, behind one calling
// convention, so that each check runs over all of them. Compiled once per
// target of the registry: BNG_TARGET_HAS_FP/HP/MP say which kernels' entry
// points it has, BNG_TARGET_ID names it (tests/library/CMakeLists.txt).
#pragma once

#include <cstddef>
#include <ostream>
#include <span>
#include <string_view>

// Both test binaries (one per target) run the same tests; ctest needs the
// names distinct, so suites and instantiations carry the target's name.
#define BNG_TEST_TARGET BNG_TARGET_ID
#define BNG_TEST_CAT_(a, b) a##_##b
#define BNG_TEST_CAT(a, b) BNG_TEST_CAT_(a, b)
// For TEST(BNG_SUITE(Name), ...): TEST expands its arguments before pasting.
#define BNG_SUITE(name) BNG_TEST_CAT(BNG_TEST_TARGET, name)
// INSTANTIATE_TEST_SUITE_P pastes its prefix unexpanded: expand it one level up.
#define BNG_INSTANTIATE_(prefix, ...) INSTANTIATE_TEST_SUITE_P(prefix, __VA_ARGS__)
#define BNG_INSTANTIATE(...) BNG_INSTANTIATE_(BNG_TEST_TARGET, __VA_ARGS__)

namespace bng::test {

// Element sizes (and alignments) of a type combination: x, dy, dx are `data`;
// mean, invar, scale, dbias, dscale are `stats`.
struct Sizes {
  std::size_t data;
  std::size_t stats;
};

// Everything a call can carry. The params form reads `params` (whose slots
// the test has filled) instead of mean..is_train; the flat form takes
// batch, channel and is_train as int, so flat cases keep them in int range.
struct Call {
  void* x;
  void* dy;
  void* dx;
  void* mean;
  void* invar;
  void* scale;
  void* dbias;
  void* dscale;
  const long long* params;
  long long batch;
  long long channel;
  long long is_train;
  int core_mask;
};

enum class Form { params, flat };

struct EntryPoint {
  std::string_view name;
  std::string_view combo;  // "fp", "hp", "mp"
  Sizes sizes;
  Form form;
  bool has_core_mask;  // _s
  int (*invoke)(const Call&);
};

// gtest prints a parameter by name, not as bytes.
inline void PrintTo(const EntryPoint& e, std::ostream* os) {
  *os << e.name;
}

// The entry points the library of this test binary exports.
std::span<const EntryPoint> entry_points();

}  // namespace bng::test
