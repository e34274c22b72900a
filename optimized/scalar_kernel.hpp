// Straightforward kernel: double arithmetic, plain accumulation, one thread.
// The first working version, so that the libraries link; replaced by the
// vector kernels.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "bng/optimized/compute.hpp"
#include "half_bits.hpp"

namespace bng::opt::scalar {

struct F32 {
  using Storage = float;
  static double load(const void* p, std::int64_t i) { return static_cast<const float*>(p)[i]; }
  static void store(void* p, std::int64_t i, double v) {
    static_cast<float*>(p)[i] = static_cast<float>(v);
  }
};
struct F16 {
  using Storage = std::uint16_t;
  static double load(const void* p, std::int64_t i) {
    return half_to_float(static_cast<const std::uint16_t*>(p)[i]);
  }
  static void store(void* p, std::int64_t i, double v) {
    static_cast<std::uint16_t*>(p)[i] = double_to_half_rn(v);
  }
};

template <class Data, class Stats>
void compute(const Args& a) {
  const std::int64_t m = a.batch, C = a.channel;
  std::vector<double> sb(static_cast<std::size_t>(C), 0.0), ss(static_cast<std::size_t>(C), 0.0);
  for (std::int64_t n = 0; n < m; ++n) {
    for (std::int64_t c = 0; c < C; ++c) {
      const double dy = Data::load(a.dy, n * C + c);
      const double xh =
          (Data::load(a.x, n * C + c) - Stats::load(a.mean, c)) * Stats::load(a.invar, c);
      sb[c] += dy;
      ss[c] += dy * xh;
    }
  }
  for (std::int64_t n = 0; n < m; ++n) {
    for (std::int64_t c = 0; c < C; ++c) {
      const double k = Stats::load(a.scale, c) * Stats::load(a.invar, c);
      const double dy = Data::load(a.dy, n * C + c);
      double v = k * dy;
      if (a.is_train) {
        const double xh =
            (Data::load(a.x, n * C + c) - Stats::load(a.mean, c)) * Stats::load(a.invar, c);
        v = (v - k * sb[c] / m) - xh * (k * ss[c] / m);
      }
      Data::store(a.dx, n * C + c, v);
    }
  }
  for (std::int64_t c = 0; c < C; ++c) {
    Stats::store(a.dbias, c, sb[c]);
    Stats::store(a.dscale, c, ss[c]);
  }
}

}  // namespace bng::opt::scalar
