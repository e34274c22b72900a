// Reference throughput in input elements (x and dy pairs, batch*channel) per
// second on one core. Inputs are normally distributed like real activations and
// gradients, so exponents vary across the column the way they do in practice.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "bng/reference/reference.hpp"
#include "bng/reference/rounding.hpp"

namespace {

// Every value a random finite bit pattern: exponents span the whole format, so
// the column integers reach hundreds of bits (the reference's worst case).
double any_finite(std::mt19937_64& rng, bng::Format f) {
  for (;;) {
    const double v = f == bng::Format::binary16
                         ? bng::ref::half_bits_to_double(static_cast<std::uint16_t>(rng()))
                         : bng::ref::float_bits_to_double(static_cast<std::uint32_t>(rng()));
    if (std::isfinite(v)) return v;
  }
}

bng::Case make_case(bng::Combo combo, int is_train, std::int64_t batch, std::int64_t channel,
                    bool wide = false) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> normal(0.0, 1.0);
  const bng::Format df = bng::data_format(combo);
  const bng::Format sf = bng::stats_format(combo);
  bng::Case c;
  c.combo = combo;
  c.batch = batch;
  c.channel = channel;
  c.is_train = is_train;
  const auto n = static_cast<std::size_t>(batch * channel);
  c.x.resize(n);
  c.dy.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    c.x[i] = wide ? any_finite(rng, df) : bng::ref::round_to(df, 0.5 + 2.0 * normal(rng));
    c.dy[i] = wide ? any_finite(rng, df) : bng::ref::round_to(df, 1e-3 * normal(rng));
  }
  for (std::int64_t ch = 0; ch < channel; ++ch) {
    c.mean.push_back(bng::ref::round_to(sf, 0.5 + 0.1 * normal(rng)));
    c.invar.push_back(bng::ref::round_to(sf, 1.0 / std::sqrt(4.0 + std::fabs(normal(rng)))));
    c.scale.push_back(bng::ref::round_to(sf, 1.0 + 0.2 * normal(rng)));
  }
  return c;
}

// Both paths of the reference: the tiered one (the default every user takes)
// and the exact one it falls back on, so the ratio is read off one run.
void run(benchmark::State& state, bng::Combo combo, int is_train, bool wide, bng::ref::Path path) {
  const bng::Case c = make_case(combo, is_train, state.range(0), state.range(1), wide);
  std::int64_t fallbacks = 0;
  for (auto _ : state) {
    bng::ref::Result r = bng::ref::compute(c, path);
    fallbacks = r.exact_fallbacks;
    benchmark::DoNotOptimize(r.dx.data());
  }
  state.SetItemsProcessed(state.iterations() * c.elements());
  state.counters["elements"] = static_cast<double>(c.elements());
  state.counters["exact_fallbacks"] = static_cast<double>(fallbacks);
}

constexpr auto kTiered = bng::ref::Path::tiered;
constexpr auto kExact = bng::ref::Path::exact;

// The bar is stated for the first shape; the others show the trend.
BENCHMARK_CAPTURE(run, fp_train_tiered, bng::Combo::fp, 1, false, kTiered)
    ->Args({1024, 64})
    ->Args({16384, 4})
    ->Args({8, 4096})
    ->Args({262144, 4})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, fp_train_exact, bng::Combo::fp, 1, false, kExact)
    ->Args({1024, 64})
    ->Args({16384, 4})
    ->Args({8, 4096})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, fp_infer_tiered, bng::Combo::fp, 0, false, kTiered)
    ->Args({1024, 64})
    ->Args({262144, 4})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, fp_infer_exact, bng::Combo::fp, 0, false, kExact)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, hp_train_tiered, bng::Combo::hp, 1, false, kTiered)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, hp_train_exact, bng::Combo::hp, 1, false, kExact)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, mp_train_tiered, bng::Combo::mp, 1, false, kTiered)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, mp_train_exact, bng::Combo::mp, 1, false, kExact)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, fp_train_wide_exponents_tiered, bng::Combo::fp, 1, true, kTiered)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, fp_train_wide_exponents_exact, bng::Combo::fp, 1, true, kExact)
    ->Args({1024, 64})
    ->Unit(benchmark::kMillisecond);

}  // namespace
