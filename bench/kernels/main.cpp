// bng_bench_kernels: our kernels, oneDNN and the bandwidth limit side by side
// on the same buffers (docs/performance.md).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <dnnl.hpp>
#include <string>
#include <vector>

#include "bng/optimized/isa.hpp"
#include "competitors.hpp"
#include "shapes.hpp"
#include "workload.hpp"

namespace bng::bench {

std::string benchmark_name(const char* competitor, Shape s, int threads, const char* mode) {
  return std::string(competitor) + "/" + std::to_string(s.batch) + "x" + std::to_string(s.channel) +
         "/t" + std::to_string(threads) + "/" + mode;
}

namespace {

void register_all() {
  for (const Shape s : kShapes) {
    for (const int threads : {1, 2}) {
      for (const Mode m : {Mode::train, Mode::infer}) {
        register_ours(s, m, threads);
        register_onednn(s, m, threads);
      }
      register_streaming(s, threads);
    }
  }
}

void add_context() {
  const dnnl_version_t* v = dnnl_version();
  benchmark::AddCustomContext(
      "onednn_version",
      std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch));
  benchmark::AddCustomContext("onednn_cpu_runtime", "OpenMP");
  benchmark::AddCustomContext("bng_isa", bng::opt::isa_name());
  benchmark::AddCustomContext("huge_pages", huge_pages() ? "madvise" : "off");
  benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));
  benchmark::AddCustomContext(
      "byte_definition",
      "3*batch*channel*data_bytes + 5*channel*stat_bytes (x, dy read; dx written; "
      "mean, invar, scale read; dbias, dscale written; once each)");
}

}  // namespace
}  // namespace bng::bench

int main(int argc, char** argv) {
  // Defaults for a shared 2-core machine: short repetitions, interleaved at
  // random across all benchmarks so that a burst of load from elsewhere hits
  // one repetition of many competitors rather than every repetition of one
  // (two-thread runs stall for a whole time slice whenever a core is taken),
  // then reported by their median. They come first, so the same flags given
  // by the caller win.
  std::vector<char*> args{argv[0]};
  std::string defaults[] = {"--benchmark_repetitions=5", "--benchmark_min_time=0.05",
                            "--benchmark_enable_random_interleaving=true",
                            "--benchmark_display_aggregates_only=true"};
  for (std::string& d : defaults) args.push_back(d.data());
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  int count = static_cast<int>(args.size());

  benchmark::Initialize(&count, args.data());
  if (benchmark::ReportUnrecognizedArguments(count, args.data())) return 1;
  bng::bench::add_context();
  bng::bench::register_all();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
