// Throughput of `bngcert check` on one large dump (issue 11's bar: at least
// 1 M elements/s per core, scaling with cores): a 65536 x 128 fp32 training
// call, its outputs computed by the MT7004 library, judged in-process by
// run_check() with 1 and 2 worker threads. Items are input elements
// (batch*channel); wall-clock time, as a user waits for it.
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

constexpr std::int64_t kBatch = 65536, kChannel = 128;

// Writes the dump once per process: normally distributed activations and
// gradients, the library's outputs.
const fs::path& dump_dir() {
  static const fs::path dir = [] {
    const fs::path d =
        fs::temp_directory_path() / ("bng_check_bench_" + std::to_string(::getpid()));
    std::mt19937_64 rng(7);
    std::normal_distribution<double> normal(0.0, 1.0);
    bng::Case c;
    c.combo = bng::Combo::fp;
    c.batch = kBatch;
    c.channel = kChannel;
    c.is_train = 1;
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
        {{"batch", kBatch}, {"channel", kChannel}, {"is_train", 1}, {"target", "mt7004"}});
    std::atexit([] { fs::remove_all(dump_dir()); });
    return d;
  }();
  return dir;
}

void check(benchmark::State& state) {
  bng::cert::CheckOptions o;
  o.dir = dump_dir();
  o.out = o.dir / "out";
  o.jobs = static_cast<int>(state.range(0));
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
    ->Name("check/65536x128/fp/train")
    ->ArgName("jobs")
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1)
    ->Repetitions(5);
