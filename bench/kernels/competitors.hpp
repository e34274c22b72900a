// Each competitor registers its benchmarks for one shape, mode and thread
// count. Names are "<competitor>/<batch>x<channel>/t<threads>/<mode>", which
// scripts/perf_table.py parses and --benchmark_filter can select
// (e.g. --benchmark_filter='/4096x1024/' or '^onednn_nhwc/').
#pragma once

#include <string>

#include "shapes.hpp"

namespace bng::bench {

enum class Mode { train, infer };

inline const char* mode_name(Mode m) {
  return m == Mode::train ? "train" : "infer";
}

std::string benchmark_name(const char* competitor, Shape s, int threads, const char* mode);

// Our kernels: fp_s (mask 0x1 for 1 thread, 0x3 for 2), fp_p (1 thread
// only: it runs on the caller), hp_s, mp_s.
void register_ours(Shape s, Mode m, int threads);

// oneDNN f32 batch-normalization backward, as a 4-D N x C x 1 x 1 nhwc tensor
// (its JIT path) and as a 2-D nc tensor (its generic path), on `threads`
// OpenMP threads.
void register_onednn(Shape s, Mode m, int threads);

// A kernel moving exactly the compulsory bytes (shapes.hpp) with no
// arithmetic to speak of: the bandwidth limit, in binary32 and binary16.
void register_streaming(Shape s, int threads);

}  // namespace bng::bench
