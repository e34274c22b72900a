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

}  // namespace bng::bench
