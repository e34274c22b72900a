// Thread safety (SPEC §4): concurrent calls on distinct buffers, with
// overlapping core masks, give the bits of the same calls made one at a time.
// Small enough to run under TSan (label sanitize).
#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "case_builders.hpp"
#include "kernel_runner.hpp"

namespace bng::ktest {
namespace {

TEST(BNG_KSUITE(KernelConcurrency), ConcurrentCallsMatchSerialCalls) {
  constexpr int kThreads = 4;
  constexpr int kCalls = 6;
  std::vector<Case> cases;
  std::vector<RawOutputs> serial;
  for (int t = 0; t < kThreads; ++t) {
    const Combo combo = target_combos()[static_cast<std::size_t>(t) % target_combos().size()];
    // Big enough for several parts (pool workers), small enough for TSan.
    cases.push_back(make_case(combo, Hard::wide_exponents, 9000 + 7 * t, 4 + t, t % 2,
                              0xc0c0 + static_cast<std::uint64_t>(t)));
    serial.push_back(run_raw(cases.back(), 0));
  }
  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < kCalls; ++k) {
        const unsigned mask = (0x3u << (t + k) % 7) | 0x1u;
        if (!(run_raw(cases[static_cast<std::size_t>(t)], mask) ==
              serial[static_cast<std::size_t>(t)]))
          ++mismatches[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(mismatches[static_cast<std::size_t>(t)], 0)
        << "thread " << t << ": shape " << cases[static_cast<std::size_t>(t)].batch << "x"
        << cases[static_cast<std::size_t>(t)].channel << " seed " << 0xc0c0 + t;
  }
}

TEST(BNG_KSUITE(KernelConcurrency), SmallCallsAndWideMasksFromManyThreads) {
  const Case tiny = make_case(target_combos().front(), Hard::random, 4, 64, 1, 7);
  const RawOutputs want = run_raw(tiny, 0);
  std::vector<std::thread> threads;
  std::vector<int> bad(8, 0);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 50; ++k) {
        if (!(run_raw(tiny, 0xffu) == want)) ++bad[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 8; ++t) EXPECT_EQ(bad[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

}  // namespace
}  // namespace bng::ktest
