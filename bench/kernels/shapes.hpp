// The sweep of issue 3 and the one byte definition every competitor is
// charged with, so that GB/s figures compare like with like.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace bng::bench {

struct Shape {
  std::int64_t batch;
  std::int64_t channel;
  constexpr std::int64_t elements() const { return batch * channel; }
};

inline constexpr std::array<Shape, 9> kShapes{{{4, 64},
                                               {64, 256},
                                               {256, 1024},
                                               {1024, 1024},
                                               {4096, 1024},
                                               {65536, 64},
                                               {1048576, 4},
                                               {16384, 4096},
                                               {256, 65536}}};

// Compulsory traffic of one call, whatever the algorithm: x and dy read once,
// dx written once, and the five per-channel vectors (mean, invar, scale read;
// dbias, dscale written) once each. A two-pass training kernel that re-reads
// x and dy from memory moves more than this; it is still charged this much,
// so its GB/s is "useful bytes per second" and directly comparable to the
// streaming kernel, which moves exactly these bytes.
inline constexpr std::int64_t compulsory_bytes(Shape s, std::int64_t data_bytes,
                                               std::int64_t stat_bytes) {
  return 3 * s.elements() * data_bytes + 5 * s.channel * stat_bytes;
}

// Each benchmark run starts with one untimed call (warm caches, awake
// threads) unless a call moves this much: no cache can be warmed by it, waking
// threads is negligible against it, and the generic oneDNN path takes seconds
// per call there, so skipping it halves the run.
inline constexpr std::int64_t kWarmUpBelowBytes = std::int64_t{128} << 20;

inline constexpr bool wants_warm_up(Shape s) {
  return compulsory_bytes(s, 4, 4) < kWarmUpBelowBytes;
}

}  // namespace bng::bench
