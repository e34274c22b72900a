// Judging one call: every output against the reference's Expected, into a
// KernelTally. The dx can come in chunks of rows as the reference hands them
// over (ref::RowsReady), so that each chunk is judged while it is still in
// the cache; the tally is the same as judging the whole call at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "bng/reference/case.hpp"
#include "bng/reference/reference.hpp"
#include "call_counts.hpp"
#include "metrics.hpp"
#include "tally.hpp"

namespace bng::cert {

class CallJudge {
 public:
  // Case `c` and the kernel's outputs `got` (both outlive the judge); `order`
  // ranks this case among all others for deterministic tie-breaks. With
  // `column_worst`, a new worst output keeps only its channel as the
  // reproducer case (channel isolation makes it complete).
  CallJudge(const Case& c, const Outputs& got, const Origin& origin, std::uint64_t order,
            bool column_worst, KernelTally& t);
  CallJudge(const CallJudge&) = delete;
  CallJudge& operator=(const CallJudge&) = delete;

  // The dx of rows [n0, n1), final in r.dx: rows in order, each once.
  void dx_rows(const ref::Result& r, std::int64_t n0, std::int64_t n1);
  // dbias and dscale, and the call's counts into the tally; once dx_rows has
  // had every row.
  void finish(const ref::Result& r);

 private:
  // One output's judged values so far: counted here and added to the tally,
  // its family's line, histogram and density once (merging is what adding
  // would do), and its worst output located at the end.
  struct Running {
    Stats call;
    HistogramCounts histogram;
    DensityCounts density;
    MetricSums sums;
    std::int64_t worst_index = -1;
    Sample worst_sample;
  };
  void judge_range(Output o, const std::vector<double>& ys, const std::vector<ref::Expected>& es,
                   std::size_t i0, std::size_t i1, Running& run);
  void close(Output o, const std::vector<double>& ys, const std::vector<ref::Expected>& es,
             Running& run);

  const Case& c_;
  const Outputs& got_;
  const Origin& origin_;
  std::uint64_t order_;
  bool column_worst_;
  KernelTally& t_;
  Running dx_;
};

// Judges every output of one call at once (CallJudge over all its rows).
void judge(const Case& c, const ref::Result& r, const Outputs& got, const Origin& origin,
           std::uint64_t order, bool column_worst, KernelTally& t);

}  // namespace bng::cert
