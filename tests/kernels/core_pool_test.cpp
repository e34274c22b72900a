// The core pool: every part of every phase runs exactly once, no part of a
// phase starts before the phase before it has ended, whatever the mask, and
// calls from several threads at once do not mix.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "core_pool.hpp"
#include "kernel_runner.hpp"

namespace bng::opt {
namespace {

constexpr unsigned kMasks[] = {0x0, 0x1, 0x3, 0x5, 0xff};

void spin_for(std::chrono::microseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
  }
}

// Runs `parts` phases through pool::run (in one call) and checks each part
// ran once and saw every part of the phase before it done.
void check_phases(unsigned mask, const std::vector<int>& parts) {
  std::vector<std::vector<std::atomic<int>>> runs;
  for (int n : parts) runs.emplace_back(static_cast<std::size_t>(std::max(n, 0)));
  std::atomic<int> early{0};
  const auto body_of = [&](std::size_t k) {
    return [&, k](int part) {
      // Every part of every earlier phase (with parts) must be done already.
      for (std::size_t j = 0; j < k; ++j) {
        for (const auto& r : runs[j]) {
          if (r.load() != 1) early.fetch_add(1);
        }
      }
      // Long enough for the threads to overlap: a missing barrier shows.
      spin_for(std::chrono::microseconds(20));
      runs[k][static_cast<std::size_t>(part)].fetch_add(1);
    };
  };
  const auto b0 = body_of(0), b1 = body_of(1), b2 = body_of(2);
  if (parts.size() == 3) {
    pool::run(mask,
              {pool::phase(parts[0], b0), pool::phase(parts[1], b1), pool::phase(parts[2], b2)});
  } else {
    const auto b3 = body_of(3);
    pool::run(mask, {pool::phase(parts[0], b0), pool::phase(parts[1], b1),
                     pool::phase(parts[2], b2), pool::phase(parts[3], b3)});
  }
  EXPECT_EQ(early.load(), 0) << "a part started before the phase before it ended";
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (std::size_t p = 0; p < runs[k].size(); ++p) {
      EXPECT_EQ(runs[k][p].load(), 1) << "phase " << k << " part " << p;
    }
  }
}

TEST(BNG_KSUITE(CorePool), EveryPartOnceAndPhasesInOrder) {
  const std::vector<std::vector<int>> cases = {{8, 8, 8}, {2, 8, 8}, {1, 1, 8}, {8, 1, 8},
                                               {0, 5, 0}, {3, 0, 7}, {0, 0, 0}, {16, 3, 1}};
  for (unsigned mask : kMasks) {
    for (const auto& parts : cases) {
      SCOPED_TRACE(testing::Message() << "mask " << mask << " parts " << parts[0] << "," << parts[1]
                                      << "," << parts[2]);
      check_phases(mask, parts);
    }
  }
}

TEST(BNG_KSUITE(CorePool), MorePhasesThanOneJobTakesStillRunInOrder) {
  static_assert(pool::kMaxPhases == 3, "the case below has one phase more than a job takes");
  for (unsigned mask : kMasks) {
    SCOPED_TRACE(testing::Message() << "mask " << mask);
    check_phases(mask, {4, 2, 8, 3});
  }
}

TEST(BNG_KSUITE(CorePool), ConcurrentCallsDoNotMix) {
  std::vector<std::thread> callers;
  std::array<std::atomic<int>, 4> failures{};
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([t, &failures] {
      for (int i = 0; i < 50; ++i) {
        std::atomic<int> a{0}, b{0}, early{0};
        const auto first = [&](int) {
          spin_for(std::chrono::microseconds(20));
          a.fetch_add(1);
        };
        const auto second = [&](int) {
          if (a.load() != 6) early.fetch_add(1);
          b.fetch_add(1);
        };
        pool::run(0x3, {pool::phase(6, first), pool::phase(5, second)});
        if (a.load() != 6 || b.load() != 5 || early.load() != 0) {
          failures[static_cast<std::size_t>(t)].fetch_add(1);
        }
      }
    });
  }
  for (auto& c : callers) c.join();
  for (const auto& f : failures) EXPECT_EQ(f.load(), 0);
}

}  // namespace
}  // namespace bng::opt
