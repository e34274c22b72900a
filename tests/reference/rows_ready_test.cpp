// compute(c, path, r, rows_ready): the dx handed over in chunks of rows (the
// judge's fused loop, bngcert check). Each chunk comes once, in row order, and
// is final when it comes (the same bits as compute(c, path), dbias and dscale
// already final at the first); at the end r is what compute(c, path) gives.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bng/reference/reference.hpp"
#include "case_gen.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

struct Shape {
  std::int64_t batch, channel;
  bool chunked;  // handed over in several chunks on the tiered path
};
// Columns (the lanes take their rows four at a time) of a chunk and a half and
// of a remainder 1 mod 4, and of exactly one chunk (4096 rows); several
// blocks of channels (kBlockWidth is 16); a few channels whose chunk is not a
// multiple of the batch; small cases, one chunk; and more channels than are
// kept prepared (1024), all at once.
constexpr Shape kShapes[] = {{10001, 1, true}, {4096, 1, false}, {500, 40, true}, {3001, 3, true},
                             {7, 2, false},    {1, 17, false},   {9, 1100, false}};

void expect_chunks_final(const Case& c, Path path, bool chunked, const std::string& what) {
  const Result fresh = compute(c, path);
  Expected garbage;
  garbage.rounded = 12345;
  garbage.kind = Kind::nan;
  Result r;
  r.dx.assign(fresh.dx.size(), garbage);
  std::int64_t next = 0, calls = 0;
  const auto w = static_cast<std::size_t>(c.channel);
  compute(c, path, r, [&](std::int64_t n0, std::int64_t n1) {
    ++calls;
    ASSERT_EQ(n0, next) << what << ": chunks out of order";
    ASSERT_GT(n1, n0) << what;
    ASSERT_LE(n1, c.batch) << what;
    next = n1;
    for (std::size_t k = 0; k < w; ++k) {
      ASSERT_TRUE(test::same(r.dbias[k], fresh.dbias[k]) &&
                  test::same(r.dscale[k], fresh.dscale[k]))
          << what << " channel " << k << " not final at rows [" << n0 << ", " << n1 << ")";
    }
    for (auto i = static_cast<std::size_t>(n0) * w; i < static_cast<std::size_t>(n1) * w; ++i) {
      ASSERT_TRUE(test::same(r.dx[i], fresh.dx[i]))
          << what << " dx[" << i << "] not final at rows [" << n0 << ", " << n1 << ")";
    }
  });
  if (::testing::Test::HasFatalFailure()) return;
  EXPECT_EQ(next, c.batch) << what << ": rows left out";
  EXPECT_EQ(r.exact_fallbacks, fresh.exact_fallbacks) << what;
  if (path == Path::tiered && chunked) {
    EXPECT_GT(calls, 1) << what;
  } else {
    EXPECT_EQ(calls, 1) << what;
  }
}

TEST(RowsReady, ChunksInOrderEachFinalWhenHandedOver) {
  constexpr Combo kCombos[] = {Combo::fp, Combo::hp, Combo::mp};
  std::uint64_t seed = 1;
  for (const Shape& s : kShapes) {
    for (Combo combo : kCombos) {
      for (int train = 0; train <= 1; ++train) {
        for (bool specials : {false, true}) {
          std::mt19937_64 rng(seed++);
          const Case c =
              test::random_case_of_shape(rng, combo, train, s.batch, s.channel, specials);
          for (Path path : {Path::tiered, Path::exact}) {
            expect_chunks_final(
                c, path, s.chunked,
                std::to_string(s.batch) + "x" + std::to_string(s.channel) + " " +
                    std::string(combo_name(combo)) + (train ? " training" : " inference") +
                    (specials ? " with NaN/Inf" : "") + " " + std::string(path_name(path)));
            if (HasFailure()) return;
          }
        }
      }
    }
  }
}

// A malformed case throws before any chunk, as compute does.
TEST(RowsReady, MalformedCaseThrowsBeforeAnyChunk) {
  std::mt19937_64 rng(3);
  Case c = test::random_case_of_shape(rng, Combo::fp, 1, 8, 2, false);
  c.x.pop_back();
  Result r;
  bool called = false;
  EXPECT_THROW(compute(c, Path::tiered, r, [&](std::int64_t, std::int64_t) { called = true; }),
               std::invalid_argument);
  EXPECT_FALSE(called);
}

}  // namespace
}  // namespace bng::ref
