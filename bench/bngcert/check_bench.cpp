// Throughput of `bngcert check` on one large dump, end to end (reading the
// .npy files included): a 262144 x 64 fp32 call (issue 40's shape), training
// and inference, its outputs computed by the MT7004 library, judged in-process
// by run_check() with 1 and 2 worker threads, by the tiered reference and by
// --reference exact. Items are input elements (batch*channel); wall-clock
// time, as a user waits for it.
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <random>

#include "bng/properties/runner.hpp"
#include "bng/reference/rounding.hpp"
#include "case_files.hpp"
#include "cli.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kBatch = 262144, kChannel = 64;

// Writes the dump of a mode once per process: normally distributed
// activations and gradients, the library's outputs.
fs::path write_dump(int is_train) {
  {
    const fs::path d =
        fs::temp_directory_path() /
        ("bng_check_bench_" + std::to_string(::getpid()) + "_" + std::to_string(is_train));
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    bng::Case c;
    c.combo = bng::Combo::fp;
    c.batch = kBatch;
    c.channel = kChannel;
    c.is_train = is_train;
    for (std::int64_t i = 0; i < kBatch * kChannel; ++i) {
      c.x.push_back(bng::ref::round_to(bng::Format::binary32, 0.5 + 2.0 * normal(rng)));
      c.dy.push_back(bng::ref::round_to(bng::Format::binary32, 1e-3 * normal(rng)));
    }
    for (std::int64_t ch = 0; ch < kChannel; ++ch) {
      c.mean.push_back(bng::ref::round_to(bng::Format::binary32, 0.5 + 0.1 * normal(rng)));
      c.invar.push_back(
          bng::ref::round_to(bng::Format::binary32, 1.0 / std::sqrt(4.0 + std::fabs(normal(rng)))));
      c.scale.push_back(bng::ref::round_to(bng::Format::binary32, 1.0 + 0.2 * normal(rng)));
    }
    bng::prop::CallSpec spec;
    spec.target = bng::prop::target("mt7004");
    spec.combo = bng::Combo::fp;
    spec.storage = bng::prop::Storage::private_;
    const auto got = bng::prop::run(c, spec);
    bng::cert::write_case_dir(
        d, c, got.values,
        {{"batch", kBatch}, {"channel", kChannel}, {"is_train", is_train}, {"target", "mt7004"}});
    return d;
  }
}

const fs::path& dump_dir(int is_train) {
  static const fs::path dirs[2] = {write_dump(0), write_dump(1)};
  static const bool cleanup = [] {
    std::atexit([] {
      for (const auto& d : dirs) fs::remove_all(d);
    });
    return true;
  }();
  (void)cleanup;
  return dirs[is_train];
}

void check(benchmark::State& state) {
  bng::cert::CheckOptions o;
  o.dir = dump_dir(static_cast<int>(state.range(1)));
  o.out = o.dir / "out";
  o.jobs = static_cast<int>(state.range(0));
  o.reference = state.range(2) == 0 ? bng::ref::Path::tiered : bng::ref::Path::exact;
  o.progress = bng::cert::Progress::Style::quiet;
  for (auto _ : state) {
    if (bng::cert::run_check(o) != bng::cert::kExitPass) state.SkipWithError("check failed");
  }
  state.SetItemsProcessed(state.iterations() * kBatch * kChannel);
  state.counters["per_thread"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kBatch * kChannel) / static_cast<double>(o.jobs),
      benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(check)
    ->Name("check/262144x64/fp")
    ->ArgNames({"jobs", "train", "exact"})
    ->ArgsProduct({{1, 2}, {1, 0}, {0, 1}})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1)
    ->Repetitions(3);
