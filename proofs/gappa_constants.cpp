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
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "binary32_coefficients.hpp"
#include "bng/optimized/alpha.hpp"
#include "bng/optimized/partition.hpp"
#include "lane_kernels.hpp"
#include "output_rounding.hpp"
#include "tiered_bound.hpp"  // reference/src: the judge's bound (tiered_bound.g)

namespace {

struct Constant {
  const char* name;
  double value;
};

// Every name a proof may use as @NAME@ (docs/accuracy.md §6 maps the proofs
// to the constants they check).
const Constant kConstants[] = {
    // The alpha of each kind of kernel; every target of the registry declares
    // these or looser (static_assert in bng/optimized/targets.hpp).
    {"ALPHA_BINARY64", bng::opt::kAlphaBinary64},
    {"ALPHA_BINARY16_DATA", bng::opt::kAlphaBinary16Data},
    {"ERROR_PER_MAGNITUDE", bng::opt::kErrorPerMagnitude},
    {"ERROR_PER_MAGNITUDE_BINARY32_SUMS", bng::opt::kErrorPerMagnitudeBinary32Sums},
    {"BLOCK_ROWS", static_cast<double>(bng::opt::kBlockRows)},
    {"HALF_SUM_ROWS", static_cast<double>(bng::opt::kHalfSumRows)},
    {"MIDPOINT_MARGIN_ULPS", static_cast<double>(bng::opt::kMidpointMarginUlps)},
    {"SUM_MEAN_MIN", bng::opt::kSumMeanMin},
    {"SUM_MEAN_MAX", bng::opt::kSumMeanMax},
    {"FLOAT_MIN_NORMAL", bng::opt::kFloatMinNormal},
    {"FLOAT_MAX", bng::opt::F32Limits::max},
    {"FLOAT_OVERFLOW", bng::opt::F32Limits::overflow},
    {"FLOAT_ROUNDS_TO_INF", bng::opt::F32Limits::rounds_to_inf},
    {"HALF_MAX", bng::opt::F16Limits::max},
    {"HALF_OVERFLOW", bng::opt::F16Limits::overflow},
    {"HALF_ROUNDS_TO_INF", bng::opt::F16Limits::rounds_to_inf},
    // The tiered reference's radius (reference/src/tiered_bound.hpp).
    {"TIERED_RELATIVE_BOUND", bng::ref::tiered_bound::kRelative},
    {"TIERED_MAGNITUDE_SLACK", bng::ref::tiered_bound::kMagnitudeSlack},
};

// The value of constant `name` in kConstants, scaled where it is the one
// asked for.
double value_of(const char* name, const char* scaled, double factor) {
  for (const Constant& c : kConstants) {
    if (std::strcmp(c.name, name) == 0)
      return scaled != nullptr && std::strcmp(scaled, name) == 0 ? c.value * factor : c.value;
  }
  std::abort();  // only called with names of kConstants
}

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
  if (scaled != nullptr &&
      std::none_of(std::begin(kConstants), std::end(kConstants),
                   [&](const Constant& c) { return std::strcmp(c.name, scaled) == 0; })) {
    std::fprintf(stderr, "gappa_constants: no constant named %s\n", scaled);
    return 2;
  }
  for (const Constant& c : kConstants)
    std::printf("%s=%a\n", c.name, value_of(c.name, scaled, factor));
  // Gappa's intervals are closed, and its relative-error theorem wants its
  // input strictly above the smallest normal: so the proofs get the binary64
  // values just inside the ranges the code tests with < (narrow_coefficient's
  // [kFloatMinNormal, rounds_to_inf), the clamp's MAX < |t| < rounds_to_inf);
  // the ends themselves are checked apart (kFloatMinNormal is kept exactly).
  const auto print_next = [&](const char* name, const char* of, double toward) {
    std::printf("%s=%a\n", name, std::nextafter(value_of(of, scaled, factor), toward));
  };
  print_next("FLOAT_ABOVE_MIN_NORMAL", "FLOAT_MIN_NORMAL", 1.0);
  print_next("FLOAT_BELOW_ROUNDS_TO_INF", "FLOAT_ROUNDS_TO_INF", 0.0);
  print_next("HALF_BELOW_ROUNDS_TO_INF", "HALF_ROUNDS_TO_INF", 0.0);
  return 0;
}
