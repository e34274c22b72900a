// Our kernels, called through the public C API of the MT7004 static library
// exactly as a user would, with the packed params array of SPEC §2.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "batchnormgrad.h"
#include "competitors.hpp"
#include "workload.hpp"

namespace bng::bench {
namespace {

enum class Kernel { fp_s, fp_p, hp_s, mp_s };

const char* kernel_name(Kernel k) {
  switch (k) {
    case Kernel::fp_s:
      return "fp_s";
    case Kernel::fp_p:
      return "fp_p";
    case Kernel::hp_s:
      return "hp_s";
    case Kernel::mp_s:
      return "mp_s";
  }
  return "?";
}

template <typename T>
long long slot(T* p) {
  return static_cast<long long>(reinterpret_cast<std::intptr_t>(p));
}

void run(benchmark::State& state, Kernel k, Shape s, Mode m, int threads) {
  const bool half_data = k == Kernel::hp_s || k == Kernel::mp_s;
  Workload& w = workload(s, half_data ? DataType::f16 : DataType::f32);
  long long params[BNG_PARAM_COUNT] = {};
  if (k == Kernel::hp_s) {
    params[BNG_PARAM_MEAN] = slot(w.mean_h.data());
    params[BNG_PARAM_INVAR] = slot(w.invar_h.data());
    params[BNG_PARAM_SCALE] = slot(w.scale_h.data());
    params[BNG_PARAM_DBIAS] = slot(w.dbias_h.data());
    params[BNG_PARAM_DSCALE] = slot(w.dscale_h.data());
  } else {
    params[BNG_PARAM_MEAN] = slot(w.mean.data());
    params[BNG_PARAM_INVAR] = slot(w.invar.data());
    params[BNG_PARAM_SCALE] = slot(w.scale.data());
    params[BNG_PARAM_DBIAS] = slot(w.dbias.data());
    params[BNG_PARAM_DSCALE] = slot(w.dscale.data());
  }
  params[BNG_PARAM_BATCH] = s.batch;
  params[BNG_PARAM_CHANNEL] = s.channel;
  params[BNG_PARAM_IS_TRAIN] = m == Mode::train ? 1 : 0;
  const int mask = threads == 1 ? 0x1 : 0x3;

  auto call = [&]() -> int {
    switch (k) {
      case Kernel::fp_s:
        return fp_batch_norm_grad_s(w.as<float>(w.x), w.as<float>(w.dy), w.as<float>(w.dx), params,
                                    mask);
      case Kernel::fp_p:
        return fp_batch_norm_grad_p(w.as<float>(w.x), w.as<float>(w.dy), w.as<float>(w.dx), params);
      case Kernel::hp_s:
        return hp_batch_norm_grad_s(w.as<half>(w.x), w.as<half>(w.dy), w.as<half>(w.dx), params,
                                    mask);
      case Kernel::mp_s:
        return mp_batch_norm_grad_s(w.as<half>(w.x), w.as<half>(w.dy), w.as<half>(w.dx), params,
                                    mask);
    }
    return BNG_ERR_NULL;
  };

  // Untimed first call: wakes the pool and warms the caches, as the untimed
  // primitive creation and warm-up do for oneDNN.
  if (wants_warm_up(s)) {
    if (const int status = call(); status != BNG_OK) {
      state.SkipWithError(bng_status_string(status));
      return;
    }
  }
  for (auto _ : state) {
    if (const int status = call(); status != BNG_OK) {
      state.SkipWithError(bng_status_string(status));
      break;
    }
    benchmark::ClobberMemory();
  }
  const std::int64_t stat_bytes = k == Kernel::hp_s ? 2 : 4;
  state.SetBytesProcessed(state.iterations() * compulsory_bytes(s, half_data ? 2 : 4, stat_bytes));
  state.SetItemsProcessed(state.iterations() * s.elements());
  state.SetLabel(threads == 1 ? "mask 0x1" : "mask 0x3");
  if (k == Kernel::fp_p) state.SetLabel("caller only");
}

void add(Kernel k, Shape s, Mode m, int threads) {
  benchmark::RegisterBenchmark(benchmark_name(kernel_name(k), s, threads, mode_name(m)).c_str(),
                               [=](benchmark::State& st) { run(st, k, s, m, threads); })
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace

void register_ours(Shape s, Mode m, int threads) {
  add(Kernel::fp_s, s, m, threads);
  if (threads == 1) add(Kernel::fp_p, s, m, threads);
  add(Kernel::hp_s, s, m, threads);
  add(Kernel::mp_s, s, m, threads);
}

}  // namespace bng::bench
