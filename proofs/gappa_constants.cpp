// Prints, one `NAME=value` a line, the constants the Gappa proofs check,
// read from the very headers the kernels compile with, so that a proof can
// never check a copy: changing a constant changes what its proof is run on.
// Values are printed as C99 hexadecimal floats (exact; Gappa reads them).
//
//   gappa_constants                    the code's values
//   gappa_constants --scale NAME F     the same with NAME multiplied by F
//                                      (the tests that tighten or loosen a
//                                      claimed bound and expect Gappa to
//                                      reject it)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "binary32_coefficients.hpp"
#include "bng/optimized/alpha.hpp"
#include "lane_kernels.hpp"
#include "output_rounding.hpp"
#include "partition.hpp"

namespace {

struct Constant {
  const char* name;
  double value;
};

// Every name a proof may use as @NAME@ (docs/accuracy.md §6 maps the proofs
// to the constants they check).
const Constant kConstants[] = {
    {"ALPHA_FP_FT78NE", bng::opt::ft78ne::alpha_fp},
    {"ALPHA_FP_MT7004", bng::opt::mt7004::alpha_fp},
    {"ALPHA_HP_MT7004", bng::opt::mt7004::alpha_hp},
    {"ALPHA_MP_MT7004", bng::opt::mt7004::alpha_mp},
    {"ERROR_PER_MAGNITUDE", bng::opt::kErrorPerMagnitude},
    {"ERROR_PER_MAGNITUDE_BINARY32_SUMS", bng::opt::kErrorPerMagnitudeBinary32Sums},
    {"BLOCK_ROWS", static_cast<double>(bng::opt::kBlockRows)},
    {"HALF_SUM_ROWS", static_cast<double>(bng::opt::kHalfSumRows)},
    {"SUM_MEAN_MIN", bng::opt::kSumMeanMin},
    {"SUM_MEAN_MAX", bng::opt::kSumMeanMax},
    {"FLOAT_MIN_NORMAL", bng::opt::kFloatMinNormal},
    {"FLOAT_MAX", bng::opt::F32Limits::max},
    {"FLOAT_OVERFLOW", bng::opt::F32Limits::overflow},
    {"FLOAT_ROUNDS_TO_INF", bng::opt::F32Limits::rounds_to_inf},
    {"HALF_MAX", bng::opt::F16Limits::max},
    {"HALF_OVERFLOW", bng::opt::F16Limits::overflow},
    {"HALF_ROUNDS_TO_INF", bng::opt::F16Limits::rounds_to_inf},
};

}  // namespace

int main(int argc, char** argv) {
  const char* scaled = nullptr;
  double factor = 1;
  if (argc == 4 && std::strcmp(argv[1], "--scale") == 0) {
    scaled = argv[2];
    factor = std::strtod(argv[3], nullptr);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [--scale NAME FACTOR]\n", argv[0]);
    return 2;
  }
  bool found = scaled == nullptr;
  double min_normal = 0, rounds_to_inf = 0, half_rounds_to_inf = 0;
  for (const Constant& c : kConstants) {
    double v = c.value;
    if (scaled != nullptr && std::strcmp(scaled, c.name) == 0) {
      v *= factor;
      found = true;
    }
    if (std::strcmp(c.name, "FLOAT_MIN_NORMAL") == 0) min_normal = v;
    if (std::strcmp(c.name, "FLOAT_ROUNDS_TO_INF") == 0) rounds_to_inf = v;
    if (std::strcmp(c.name, "HALF_ROUNDS_TO_INF") == 0) half_rounds_to_inf = v;
    std::printf("%s=%a\n", c.name, v);
  }
  // Gappa's intervals are closed and its relative-error theorem wants the
  // input strictly inside the normal range, so narrow_coefficient's range
  // [kFloatMinNormal, rounds_to_inf) reaches the proof as the binary64 values
  // just above the lower end (the end itself is a binary32 value, kept
  // exactly, which the proof checks too) and just below the upper one.
  std::printf("FLOAT_NARROW_LOW=%a\n", std::nextafter(min_normal, 1.0));
  std::printf("FLOAT_NARROW_HIGH=%a\n", std::nextafter(rounds_to_inf, 0.0));
  // The clamp below the overflow threshold: the binary64 values just below
  // the point from which rounding to nearest gives Inf.
  std::printf("FLOAT_BELOW_ROUNDS_TO_INF=%a\n", std::nextafter(rounds_to_inf, 0.0));
  std::printf("HALF_BELOW_ROUNDS_TO_INF=%a\n", std::nextafter(half_rounds_to_inf, 0.0));
  if (!found) {
    std::fprintf(stderr, "gappa_constants: no constant named %s\n", scaled);
    return 2;
  }
  return 0;
}
