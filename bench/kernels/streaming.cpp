// The bandwidth limit: reads two data arrays and the three per-channel inputs,
// writes one data array and two per-channel outputs — the compulsory bytes of
// shapes.hpp — with one add per element, split over OpenMP threads in
// contiguous halves. Ordinary (write-allocate) stores, as our kernels and
// oneDNN's use; built with -O3 -march=native (see CMakeLists.txt) so the loop
// is not the limit.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>

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
  if (wants_warm_up(s)) call();
  for (auto _ : state) {
    call();
    benchmark::ClobberMemory();
  }
  const std::int64_t width = type == DataType::f32 ? 4 : 2;
  state.SetBytesProcessed(state.iterations() * compulsory_bytes(s, width, width));
  state.SetItemsProcessed(state.iterations() * n);
}

void add(DataType type, Shape s, int threads) {
  const char* name = type == DataType::f32 ? "stream_f32" : "stream_f16";
  benchmark::RegisterBenchmark(benchmark_name(name, s, threads, "copy").c_str(),
                               [=](benchmark::State& st) { run(st, type, s, threads); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_streaming(Shape s, int threads) {
  add(DataType::f32, s, threads);
  add(DataType::f16, s, threads);
}

}  // namespace bng::bench
