// Accumulated error statistics of judged outputs: counts and maxima, the ULP
// histogram, the (κ, normalised error) density behind the scatter plot, a
// per-family breakdown, the worst output (with its whole case, to write as a
// reproducer) and the first failures. Every part merges associatively, and
// ties are broken by a job order, so a campaign's result does not depend on
// how many threads ran it.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bng/properties/target.hpp"
#include "bng/reference/binade.hpp"
#include "bng/reference/case.hpp"
#include "bng/reference/error_measure.hpp"
#include "bng/reference/reference.hpp"
#include "fault_map.hpp"
#include "kernel.hpp"
#include "metrics.hpp"

namespace bng::cert {

// One judged output: the error measure (bng::measure), what the reference knew,
// and how much of the allowed error 1·ulp(y*) + α·M it used.
struct Sample {
  Measure m;
  ref::Kind kind = ref::Kind::finite;
  double bound_use = 0;
};
// |y - y*| / (ulp(y*) + α·M), from the measure's ULP error; 0 for a passing
// non-finite reference, and clamped to the verdict (≤ 1 iff the output passed;
// a finite y* that rounds to ±Inf passes with y = ±Inf, though |y - y*| is infinite).
double bound_use(const Measure& m, const ref::Expected& e, double alpha);

struct Stats {
  std::int64_t outputs = 0;
  std::int64_t fails = 0;
  std::int64_t exact = 0;           // finite reference, |y - y*| = 0
  std::int64_t nan_refs = 0;        // reference NaN (an input was NaN)
  std::int64_t nonfinite_refs = 0;  // reference non-finite (an input was ±Inf)
  double max_ulp_error = 0;         // over finite references
  double max_normalised_error = 0;  // over finite references with M > 0
  double max_kappa = 0;             // over finite references with y* != 0
  std::int64_t zero_refs = 0;       // finite references with y* = 0 (κ infinite)
  double max_bound_use = 0;
  MetricCounts metrics;  // the golden-data metrics (metrics.hpp), added by judge()
  void add(const Sample& s);
  void merge(const Stats& o);
};

// ULP errors of finite references in power-of-two bins [2^k, 2^(k+1)).
struct Histogram {
  std::int64_t zero = 0;      // no error at all
  std::int64_t infinite = 0;  // not finite (a non-finite y for a finite y*)
  std::map<int, std::int64_t> bins;
  void merge(const Histogram& o);  // outputs are added through HistogramCounts
};

// Outputs counted in cells of a grid over (log2 κ, log2 normalised error),
// half a binade wide (fine enough to see the bound, coarse enough to keep
// report.html small); κ = ∞ (y* = 0) and an infinite error get their
// own edge cell. Outputs without error are left out (they have no place on a
// log axis) — Stats::exact counts them.
struct Density {
  static constexpr int kCellsPerBinade = 2;
  static constexpr int kInfinite = 1 << 20;  // cell index of an infinite coordinate
  struct Cell {
    std::int64_t pass = 0, fail = 0;
  };
  std::map<std::pair<int, int>, Cell> cells;  // (κ cell, error cell)
  static int cell_of(double v);  // floor(log2(v) * kCellsPerBinade), kInfinite for +inf
  void merge(const Density& o);  // outputs are added through DensityCounts
};

// Where a case came from, so a reader can regenerate it.
struct Origin {
  std::string family;                  // a properties family, or "input" for `check`
  std::uint64_t seed = 0;              // prop::sample seed (campaign)
  int size = 0;                        // prop::sample size (campaign)
  std::int64_t case_index = 0;         // index within its (kernel, family, mode) series
  std::optional<prop::CallSpec> spec;  // the entry point called (campaign)
  std::int64_t channel_offset = 0;     // check: first channel of the block judged
  std::int64_t channel_total = 0;      // check: channels of the whole call (0: the case's own)
  std::string case_name;               // check --pack: the case folder's name
  std::string label() const;           // one line, for tables and messages
};

// One failing output, ready to print.
struct Failure {
  std::uint64_t order = 0;
  Origin origin;
  Output output = Output::dx;
  Combo combo = Combo::fp;
  int is_train = 1;
  std::int64_t batch = 0, channel = 0;  // of the whole call
  std::int64_t n = 0, c = 0;            // element (n, c); n = 0 for dbias/dscale
  double y = 0;                         // the kernel's value
  ref::Expected expected;
  Sample sample;
  std::string message() const;  // values in hex and %a, error, bound, reason
};

// The output using the largest part of its bound, with its case.
struct Worst {
  Failure where;  // the same fields a failure has (it may not have failed)
  Case c;         // the whole case (campaign) or its one channel (check)
  Outputs got;    // the kernel's outputs for c
  bool valid() const { return where.order != UINT64_MAX; }
  Worst() { where.order = UINT64_MAX; }
};

inline constexpr std::size_t kFailuresKept = 20;

struct OutputTally {
  Stats all;
  Histogram histogram;
  Density density;
  std::map<std::pair<std::string, int>, Stats> by_family;  // (family, is_train)
  Worst worst;
  std::vector<Failure> failures;  // the first kFailuresKept, by order
  FaultMap faults;                // where all the failures are
  MetricSumsByOrder metric_sums;  // cosine similarity and mean relative error, per job
  // Only when KernelTally::keep_failing is set (judging arrays in memory: the
  // Python judge), never in report.json or shards: every failing output's
  // flat index in the whole call (n·channel + c for dx, c for dbias and
  // dscale), ascending, and how many of them are NaN or ±Inf where the
  // correctly rounded result RN(y*) is finite.
  std::vector<std::int64_t> failing;
  std::int64_t nonfinite_where_finite = 0;
  void merge(OutputTally&& o);
};

struct KernelTally {
  Kernel kernel;
  std::int64_t cases = 0;
  std::map<std::string, std::int64_t> calls;  // by entry point
  std::int64_t call_errors = 0;  // valid calls that returned a status or wrote outside outputs
  // The first kFailuresKept by job order, so they do not depend on threads or shards.
  std::map<std::uint64_t, std::string> call_error_messages;
  void note_call_error(std::uint64_t order, std::string message);
  std::array<OutputTally, 3> outputs;
  // Outputs the tiered reference took to its exact path (ref::Result::exact_fallbacks).
  std::int64_t exact_fallbacks = 0;
  bool keep_failing = false;  // fill OutputTally::failing and nonfinite_where_finite
  OutputTally& operator[](Output o) { return outputs[static_cast<int>(o)]; }
  const OutputTally& operator[](Output o) const { return outputs[static_cast<int>(o)]; }
  bool passed() const;
  void merge(KernelTally&& o);
};

// The one-channel case (and outputs) of column `channel` of `c`.
Case column_case(const Case& c, std::int64_t channel);
Outputs column_outputs(const Outputs& o, const Case& c, std::int64_t channel);

// Inline: the judge (call_judge.hpp) takes these for every output.
inline double bound_use(const Measure& m, const ref::Expected& e, double alpha) {
  if (e.kind != ref::Kind::finite) return m.pass ? 0.0 : std::numeric_limits<double>::infinity();
  const long double error = static_cast<long double>(m.ulp_error) * e.ulp;
  const long double allowed = e.ulp + static_cast<long double>(alpha) * e.magnitude;
  double use = static_cast<double>(error / allowed);
  if (std::isnan(use)) use = std::numeric_limits<double>::infinity();
  return m.pass ? std::min(use, 1.0) : std::max(use, std::nextafter(1.0, 2.0));
}

inline void Stats::add(const Sample& s) {
  ++outputs;
  fails += !s.m.pass;
  max_bound_use = std::max(max_bound_use, s.bound_use);
  if (s.kind == ref::Kind::nan) {
    ++nan_refs;
    return;
  }
  if (s.kind == ref::Kind::nonfinite) {
    ++nonfinite_refs;
    return;
  }
  exact += s.m.ulp_error == 0;
  // NaN errors (a NaN y for a finite y*) already count as failures; fmax keeps the maxima
  // finite-or-inf.
  max_ulp_error = larger(max_ulp_error, std::isnan(s.m.ulp_error) ? INFINITY : s.m.ulp_error);
  max_normalised_error = larger(max_normalised_error,
                                std::isnan(s.m.normalised_error) ? INFINITY : s.m.normalised_error);
  if (std::isinf(s.m.kappa)) {
    ++zero_refs;
  } else {
    max_kappa = larger(max_kappa, s.m.kappa);
  }
}

inline int Density::cell_of(double v) {
  static_assert(kCellsPerBinade == 2, "the half-binade split below");
  if (std::isinf(v) || std::isnan(v)) return kInfinite;
  if (!(v > 0)) return -kInfinite;  // no place on a log axis; judge() never asks
  // floor(2 log2 v) exactly, without a logarithm: v = m * 2^e with m in [1, 2),
  // and the upper half of the binade starts at sqrt(2). No double is sqrt(2),
  // and RN(sqrt(2)) = 0x1.6a09e667f3bcdp0 lies above it, so m > sqrt(2) iff
  // m >= RN(sqrt(2)). (log2 rounded could put a v next to the split in the
  // other cell.)
  return 2 * ref::binade(v) + (ref::significand(v) >= 0x1.6a09e667f3bcdp0 ? 1 : 0);
}

}  // namespace bng::cert
