// compute() from several threads at once gives what it gives alone (no shared
// mutable state; run under TSan by the `sanitize` label), compute_channels()
// agrees with compute(), and validate() rejects malformed cases.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "bng/reference/reference.hpp"
#include "case_gen.hpp"
#include "show.hpp"

namespace bng::ref {
namespace {

TEST(ReferenceThreadSafety, ConcurrentComputeMatchesSerial) {
  std::vector<Case> cases;
  for (int i = 0; i < 4; ++i) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(i) + 7);
    cases.push_back(test::random_case(rng, static_cast<Combo>(i % 3), i % 2, i == 3));
  }
  std::vector<Result> serial;
  for (const Case& c : cases) serial.push_back(compute(c));
  std::vector<std::vector<Result>> parallel(cases.size());
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < cases.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 20; ++rep) parallel[t].push_back(compute(cases[t]));
    });
  }
  for (std::thread& th : threads) th.join();
  for (std::size_t t = 0; t < cases.size(); ++t) {
    for (const Result& r : parallel[t]) {
      for (std::size_t i = 0; i < r.dx.size(); ++i) {
        ASSERT_TRUE(test::same(r.dx[i], serial[t].dx[i])) << "case " << t << " dx[" << i << "]";
      }
      for (std::size_t i = 0; i < r.dbias.size(); ++i) {
        ASSERT_TRUE(test::same(r.dbias[i], serial[t].dbias[i]));
        ASSERT_TRUE(test::same(r.dscale[i], serial[t].dscale[i]));
      }
    }
  }
}

TEST(ReferenceComputeChannels, RangeMatchesWholeCompute) {
  std::mt19937_64 rng(99);
  Case c = test::random_case(rng, Combo::mp, 1, true);
  c.channel = 3;
  c.x.resize(static_cast<std::size_t>(c.elements()), 1.0);
  c.dy.resize(c.x.size(), 0.5);
  c.mean.resize(3, 0.25);
  c.invar.resize(3, 2.0);
  c.scale.resize(3, 1.5);
  const Result whole = compute(c);
  const Result part = compute_channels(c, 1, 2);
  ASSERT_EQ(part.dx.size(), whole.dx.size());
  for (std::int64_t n = 0; n < c.batch; ++n) {
    for (std::int64_t ch = 0; ch < c.channel; ++ch) {
      const std::size_t i = static_cast<std::size_t>(n * c.channel + ch);
      if (ch == 1) {
        EXPECT_TRUE(test::same(part.dx[i], whole.dx[i])) << "dx[" << i << "]";
      } else {
        EXPECT_TRUE(test::same(part.dx[i], Expected{})) << "dx[" << i << "] outside the range";
      }
    }
  }
  EXPECT_TRUE(test::same(part.dbias[1], whole.dbias[1]));
  EXPECT_TRUE(test::same(part.dscale[1], whole.dscale[1]));
  EXPECT_TRUE(test::same(part.dbias[0], Expected{}));
}

TEST(ReferenceValidation, RejectsMalformedCases) {
  Case c;
  c.x = {1.0};
  c.dy = {1.0};
  c.mean = {0.0};
  c.invar = {1.0};
  c.scale = {1.0};
  EXPECT_NO_THROW(validate(c));
  Case bad = c;
  bad.is_train = 2;
  EXPECT_THROW(compute(bad), std::invalid_argument);
  bad = c;
  bad.x = {0.1};  // not a binary32 value
  EXPECT_THROW(compute(bad), std::invalid_argument);
  // binary32 values, NaN, ±Inf and zeros pass the quick scan; a value beyond
  // binary32's range, or one bit finer than its subnormals, fails it and is
  // named by the exact test.
  bad = c;
  bad.x = {std::numeric_limits<double>::quiet_NaN()};
  bad.dy = {-std::numeric_limits<double>::infinity()};
  bad.mean = {-0.0};
  bad.invar = {0x1p-149};
  bad.scale = {0x1.fffffep127};
  EXPECT_NO_THROW(validate(bad));
  for (const double v : {0x1p128, 0x1p-150, 0x1.fffffe8p0, -std::numeric_limits<double>::max()}) {
    bad = c;
    bad.dy = {v};
    EXPECT_THROW(validate(bad), std::invalid_argument) << v;
  }
  // The scan runs in vectors (AVX2 where there is): a bad value at every
  // position of a longer column, the vector body's and the remainder's.
  Case tall = c;
  tall.batch = 37;
  tall.x.assign(37, 0.5);
  tall.dy.assign(37, -0.25);
  for (std::size_t i = 0; i < 37; ++i) {
    bad = tall;
    bad.dy[i] = 0x1.fffffe8p0;
    EXPECT_THROW(validate(bad), std::invalid_argument) << "at " << i;
    bad.dy[i] = std::numeric_limits<double>::quiet_NaN();
    EXPECT_NO_THROW(validate(bad)) << "NaN at " << i;
  }
  bad = c;
  bad.combo = Combo::hp;
  bad.dy = {1.0 / 1024 + 1.0};  // 1 + 2^-10 is binary16; 1 + 2^-11 is not
  EXPECT_NO_THROW(validate(bad));
  bad.dy = {1.0 + 1.0 / 2048};
  EXPECT_THROW(validate(bad), std::invalid_argument);
  bad = c;
  bad.batch = 2;
  EXPECT_THROW(compute(bad), std::invalid_argument);
  bad = c;
  bad.channel = 0;
  EXPECT_THROW(compute(bad), std::invalid_argument);
  EXPECT_THROW(compute_channels(c, 0, 2), std::invalid_argument);
  bad = c;
  bad.x = {NAN};  // special values are inputs, not errors
  EXPECT_NO_THROW(validate(bad));
}

}  // namespace
}  // namespace bng::ref
