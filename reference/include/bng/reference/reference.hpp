// The exact reference (SPEC §5): SPEC §1 computed without rounding, rounded
// once to nearest-even into each output's format. docs/reference.md argues why
// no step before the final rounding is inexact.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "bng/reference/case.hpp"

namespace bng::ref {

// What the reference knows about one output.
enum class Kind : std::uint8_t {
  finite,     // y* is a real number (its rounding may still overflow to ±Inf)
  nonfinite,  // an input it depends on is ±Inf (and none NaN): a kernel passes with NaN or ±Inf
  nan,        // an input it depends on is NaN: a kernel must return a NaN
};

struct Expected {
  double rounded = 0;  // RN(y*) in the output format, exactly (±Inf on overflow, NaN for Kind::nan)
  long double exact = 0;      // y* rounded to long double (64-bit significand); 0 unless finite
  long double magnitude = 0;  // M of SPEC §5, rounded to long double; 0 unless finite
  double ulp = 0;             // ulp(y*) in the output format (exact power of two); 0 unless finite
  Kind kind = Kind::finite;
  // For Kind::nonfinite, rounded is NaN too (no real y* exists); error_measure
  // judges both non-finite kinds by kind, not by rounded.
};

struct Result {
  std::vector<Expected> dx;             // batch*channel
  std::vector<Expected> dbias, dscale;  // channel each
  // Outputs the tiered path could not decide and took to the exact path (0 on
  // Path::exact, where everything is exact). Counts dx, dbias and dscale.
  std::int64_t exact_fallbacks = 0;
};

// Which way the reference computes. Both give the same Result bit for bit
// (exact_fallbacks aside); docs/reference.md has the tiers and their proof.
enum class Path : std::uint8_t {
  tiered,  // exact sums in a superaccumulator, a fast evaluation with a proved
           // error bound and a rounding test; the exact path only where it cannot decide
  exact,   // BigInt arithmetic for every output (the original reference)
};
std::string_view path_name(Path p);  // "tiered", "exact"
// "tiered" or "exact"; nullopt for anything else.
std::optional<Path> parse_path(std::string_view name);

// Whether the tiered path's dx loop runs its variant compiled for FMA (x86
// with FMA, unless the environment sets BNG_REFERENCE_FMA=off; false where
// FMA is in the baseline ISA, as on aarch64). Both give the same bits.
bool tiered_uses_fma();

// Whether the tiered dx loop decides four outputs at a time in AVX2 lanes
// (x86 with AVX2 and FMA, unless the environment sets BNG_REFERENCE_LANES=off
// or BNG_REFERENCE_FMA=off), the scalar loop taking what they leave. The
// same bits either way.
bool tiered_uses_lanes();

// The whole reference for one case. Throws std::invalid_argument if the case is
// malformed (sizes, values not representable in their format, is_train not 0/1).
Result compute(const Case& c, Path path = Path::tiered);

// The same into r, reusing its storage (a judge calling it block after block
// allocates, and the kernel zeroes, its pages once): every entry of r is
// written, exact_fallbacks included, whatever r held before.
void compute(const Case& c, Path path, Result& r);

// Called by the compute below as the dx of rows [n0, n1) of every channel
// become final in r.dx: in row order, each row once, [0, batch) in all. The
// dbias and dscale of every channel are final at the first call.
using RowsReady = std::function<void(std::int64_t n0, std::int64_t n1)>;

// compute(c, path, r), handing the dx over as they are ready: on the tiered
// path, for a case taller than one chunk and of at most 1024 channels, in
// chunks of a few thousand outputs, so that a caller judging each chunk at
// once finds it, and the inputs behind it, still in the cache (a tall case's
// Expected run to tens of megabytes, written out and read back otherwise);
// otherwise (and on the exact path) all rows in one call at the end. r ends
// as compute(c, path, r) leaves it.
void compute(const Case& c, Path path, Result& r, const RowsReady& rows_ready);

// The same for the channels [c_begin, c_end) only: result vectors are sized for
// the whole case, entries outside the range left default.
Result compute_channels(const Case& c, std::int64_t c_begin, std::int64_t c_end,
                        Path path = Path::tiered);

}  // namespace bng::ref
