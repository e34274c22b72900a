// The bandwidth limits.
// - stream_*: reads two data arrays and the three per-channel inputs, writes
//   one data array and two per-channel outputs — the compulsory bytes of
//   shapes.hpp — with one add per element, split over OpenMP threads in
//   contiguous halves.
// - stream2_*: the limit of any training kernel, which needs full-batch
//   per-channel sums before its first dx: pass 1 reads both data arrays into
//   per-channel sums (rows split over the threads, partial sums combined
//   after a barrier), pass 2 reads both again and writes dx. On tensors
//   larger than the caches that is four reads and one write per element. Ordinary (write-allocate)
//   stores, as our kernels and
// oneDNN's use; built with -O3 -march=native (see CMakeLists.txt) so the loop
// is not the limit.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "competitors.hpp"
#include "workload.hpp"

namespace bng::bench {
namespace {

template <typename T>
void stream_range(const T* __restrict a, const T* __restrict b, T* __restrict out,
                  std::int64_t begin, std::int64_t end) {
  for (std::int64_t i = begin; i < end; ++i) out[i] = static_cast<T>(a[i] + b[i]);
}

template <typename T, typename S>
void stream_all(const T* a, const T* b, T* out, std::int64_t n, const S* s0, const S* s1,
                const S* s2, S* o0, S* o1, std::int64_t channels, int threads) {
  for (std::int64_t c = 0; c < channels; ++c) {
    o0[c] = static_cast<S>(s0[c] + s1[c]);
    o1[c] = static_cast<S>(s1[c] + s2[c]);
  }
  if (threads == 1) {
    stream_range(a, b, out, 0, n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    // Cache-line-aligned chunk edges so that no line is written by two threads.
    const std::int64_t chunk = ((n + nt - 1) / nt + 15) & ~std::int64_t{15};
    stream_range(a, b, out, std::min(n, t * chunk), std::min(n, (t + 1) * chunk));
  }
}

// Times `call` as every competitor is timed (shapes.hpp: one warm-up call
// unless large), charged the compulsory bytes, so GB/s compare directly.
template <typename Call>
void time_calls(benchmark::State& state, DataType type, Shape s, Call& call) {
  if (wants_warm_up(s)) call();
  for (auto _ : state) {
    call();
    benchmark::ClobberMemory();
  }
  const std::int64_t width = type == DataType::f32 ? 4 : 2;
  state.SetBytesProcessed(state.iterations() * compulsory_bytes(s, width, width));
  state.SetItemsProcessed(state.iterations() * s.elements());
}

// Rows [r0, r1) of a batch x channels matrix: pass 1 adds a + b of each
// element into acc[channel].
template <typename T, typename A>
void sum_rows(const T* __restrict a, const T* __restrict b, A* __restrict acc, std::int64_t r0,
              std::int64_t r1, std::int64_t channels) {
  for (std::int64_t r = r0; r < r1; ++r) {
    const T* ar = a + r * channels;
    const T* br = b + r * channels;
    for (std::int64_t c = 0; c < channels; ++c) acc[c] = static_cast<A>(acc[c] + ar[c] + br[c]);
  }
}

// Pass 2 over rows [r0, r1): out = a + b + the channel's total.
template <typename T, typename A>
void apply_rows(const T* __restrict a, const T* __restrict b, const A* __restrict total,
                T* __restrict out, std::int64_t r0, std::int64_t r1, std::int64_t channels) {
  for (std::int64_t r = r0; r < r1; ++r) {
    const std::int64_t o = r * channels;
    for (std::int64_t c = 0; c < channels; ++c)
      out[o + c] = static_cast<T>(a[o + c] + b[o + c] + total[c]);
  }
}

template <typename T, typename A>
void two_pass_all(const T* a, const T* b, T* out, std::int64_t batch, std::int64_t channels,
                  int threads, std::vector<A>& partial) {
  partial.assign(static_cast<std::size_t>(channels * (threads + 1)), A{});
#pragma omp parallel num_threads(threads)
  {
    const std::int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
    const std::int64_t rows = (batch + nt - 1) / nt;
    const std::int64_t r0 = std::min(batch, t * rows), r1 = std::min(batch, (t + 1) * rows);
    A* mine = partial.data() + t * channels;
    sum_rows(a, b, mine, r0, r1, channels);
#pragma omp barrier
    // Every thread adds up the partial sums of its own slice of channels.
    A* total = partial.data() + nt * channels;
    const std::int64_t cs = (channels + nt - 1) / nt;
    for (std::int64_t c = t * cs; c < std::min(channels, (t + 1) * cs); ++c) {
      A sum{};
      for (std::int64_t u = 0; u < nt; ++u) sum = static_cast<A>(sum + partial[u * channels + c]);
      total[c] = sum;
    }
#pragma omp barrier
    apply_rows(a, b, total, out, r0, r1, channels);
  }
}

void run_two_pass(benchmark::State& state, DataType type, Shape s, int threads) {
  Workload& w = workload(s, type);
  std::vector<float> partial_f;
  std::vector<std::uint16_t> partial_h;
  auto call = [&] {
    if (type == DataType::f32)
      two_pass_all(w.as<const float>(w.x), w.as<const float>(w.dy), w.as<float>(w.dx), s.batch,
                   s.channel, threads, partial_f);
    else  // 16-bit integer adds move the same bytes as binary16 data would
      two_pass_all(w.as<const std::uint16_t>(w.x), w.as<const std::uint16_t>(w.dy),
                   w.as<std::uint16_t>(w.dx), s.batch, s.channel, threads, partial_h);
  };
  time_calls(state, type, s, call);
}

void run(benchmark::State& state, DataType type, Shape s, int threads) {
  Workload& w = workload(s, type);
  const std::int64_t n = s.elements();
  auto call = [&] {
    if (type == DataType::f32)
      stream_all(w.as<const float>(w.x), w.as<const float>(w.dy), w.as<float>(w.dx), n,
                 w.mean.data(), w.invar.data(), w.scale.data(), w.dbias.data(), w.dscale.data(),
                 s.channel, threads);
    else  // 16-bit integer adds move the same bytes as binary16 data would
      stream_all(w.as<const std::uint16_t>(w.x), w.as<const std::uint16_t>(w.dy),
                 w.as<std::uint16_t>(w.dx), n, w.mean_h.data(), w.invar_h.data(), w.scale_h.data(),
                 w.dbias_h.data(), w.dscale_h.data(), s.channel, threads);
  };
  time_calls(state, type, s, call);
}

void add(DataType type, Shape s, int threads) {
  const char* name = type == DataType::f32 ? "stream_f32" : "stream_f16";
  benchmark::RegisterBenchmark(benchmark_name(name, s, threads, "copy").c_str(),
                               [=](benchmark::State& st) { run(st, type, s, threads); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  const char* two_pass = type == DataType::f32 ? "stream2_f32" : "stream2_f16";
  benchmark::RegisterBenchmark(benchmark_name(two_pass, s, threads, "train").c_str(),
                               [=](benchmark::State& st) { run_two_pass(st, type, s, threads); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_streaming(Shape s, int threads) {
  add(DataType::f32, s, threads);
  add(DataType::f16, s, threads);
}

}  // namespace bng::bench
