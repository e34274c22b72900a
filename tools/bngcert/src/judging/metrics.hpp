// The comparison metrics accelerator teams already use for golden data
// (issue 11), beside the exact ones: cosine similarity, maximum absolute and
// relative error, mean relative error, and the share of outputs whose relative
// error exceeds 1e-3 and 1e-4; with the share correctly rounded and within
// 1 ulp that a reader decides on. They inform; the verdict stays SPEC §5's
// bound. docs/report-format.md defines each and relates it to the ulp bound.
//
// All are taken over outputs with a finite reference and a finite y (a
// non-finite y for a finite y* is a failure already, and has no place in a
// sum). Counts and maxima merge in any order; the sums behind cosine
// similarity and mean relative error are kept per job order and added in that
// order, so the figures do not depend on the number of threads.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

#include <nlohmann/json.hpp>

namespace bng::cert {

// std::fmax(a, b) (NaN only if both are), inline: std::fmax is a call into
// libm, and judge() takes several maxima an output.
inline double larger(double a, double b) {
  if (a != a) return b;
  return b > a ? b : a;
}

// One output's error as the metrics take it: |y - y*| and, for y* != 0, the
// relative error |y - y*| / |y*|, both in long double (one division for both
// MetricCounts and MetricSums).
struct OutputError {
  long double abs = 0, rel = 0;
  bool has_rel = false;  // y* != 0
  OutputError(double y, long double exact);
};

// Order-independent part: counts and maxima (also kept per family).
struct MetricCounts {
  std::int64_t compared = 0;           // finite reference and finite y
  std::int64_t correctly_rounded = 0;  // y == RN(y*)
  std::int64_t within_1ulp = 0;        // |y - y*| <= ulp(y*)
  std::int64_t rel_over_1e3 = 0;       // |y - y*| / |y*| > 1e-3 (y* = 0: any error)
  std::int64_t rel_over_1e4 = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;  // +inf when some y* = 0 had an error
  // y: the kernel's value, err its error; rounded: RN(y*); ulp: ulp(y*).
  void add(double y, const OutputError& err, double rounded, double ulp);
  void merge(const MetricCounts& o);
};

// Sums of one job (a case or a block of channels).
struct MetricSums {
  long double yy = 0, ee = 0, ye = 0;  // Σy², Σy*², Σy·y*
  long double rel = 0;                 // Σ|y - y*| / |y*| over y* != 0
  std::int64_t rel_n = 0;
  void add(double y, long double exact, const OutputError& err);
  void merge(const MetricSums& o);
};

using MetricSumsByOrder = std::map<std::uint64_t, MetricSums>;  // job order -> sums
void merge_sums(MetricSumsByOrder& into, const MetricSumsByOrder& from);

// The figures of one output, for report.json ("metrics").
nlohmann::json metrics_json(const MetricCounts& counts, const MetricSumsByOrder& sums);
// The counts alone, for per-family rows.
nlohmann::json metric_counts_json(const MetricCounts& c);

// Inline: judge() takes these for every output.
inline OutputError::OutputError(double y, long double exact)
    : abs(std::fabs(static_cast<long double>(y) - exact)),
      rel(exact != 0 ? abs / std::fabs(exact) : 0),
      has_rel(exact != 0) {}

inline void MetricCounts::add(double y, const OutputError& err, double rounded, double ulp) {
  ++compared;
  correctly_rounded += y == rounded;
  within_1ulp += err.abs <= ulp;
  const double rel = err.has_rel    ? static_cast<double>(err.rel)
                     : err.abs == 0 ? 0.0
                                    : std::numeric_limits<double>::infinity();
  rel_over_1e3 += rel > 1e-3;
  rel_over_1e4 += rel > 1e-4;
  max_abs_error = larger(max_abs_error, static_cast<double>(err.abs));
  max_rel_error = larger(max_rel_error, rel);
}

inline void MetricSums::add(double y, long double exact, const OutputError& err) {
  const long double v = y;
  yy += v * v;
  ee += exact * exact;
  ye += v * exact;
  if (err.has_rel) {
    rel += err.rel;
    ++rel_n;
  }
}

}  // namespace bng::cert
