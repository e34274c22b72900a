// The tensors of one shape, allocated and filled once and shared by every
// competitor run on that shape (filling 768 MiB per repetition would cost
// more than the measurement itself). Every workload stays allocated until
// exit (about 1.7 GiB for the whole sweep) so that repetitions can be
// interleaved at random across shapes without refilling.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "shapes.hpp"

namespace bng::bench {

enum class DataType { f32, f16 };

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Bytes = std::unique_ptr<unsigned char[], FreeDeleter>;

// BNG_BENCH_HUGE_PAGES=1: large buffers on transparent huge pages
// (madvise); otherwise ordinary 4 KiB pages. docs/performance.md shows both.
bool huge_pages();

struct Workload {
  Shape shape{};
  DataType type = DataType::f32;
  Bytes x, dy, dx;  // batch*channel elements of `type`, 64-byte aligned
  // Per-channel statistics in both widths: hp_* reads the binary16 ones,
  // fp_*/mp_* and oneDNN the binary32 ones. oneDNN takes a variance instead
  // of invar, held in `variance` (1/invar^2 - kEpsilon), and insists on a
  // shift argument under use_shift even though backward never reads it.
  std::vector<float> mean, invar, scale, variance, shift, dbias, dscale;
  std::vector<std::uint16_t> mean_h, invar_h, scale_h, dbias_h, dscale_h;

  template <typename T>
  T* as(const Bytes& b) const {
    return reinterpret_cast<T*>(b.get());
  }
};

inline constexpr float kEpsilon = 1e-5f;

// Returns the cached workload for (shape, type), building it on first use.
Workload& workload(Shape shape, DataType type);

}  // namespace bng::bench
