#include "metrics.hpp"

#include <cmath>
#include <limits>

#include "json_number.hpp"

namespace bng::cert {

using nlohmann::json;

void MetricCounts::merge(const MetricCounts& o) {
  compared += o.compared;
  correctly_rounded += o.correctly_rounded;
  within_1ulp += o.within_1ulp;
  rel_over_1e3 += o.rel_over_1e3;
  rel_over_1e4 += o.rel_over_1e4;
  max_abs_error = larger(max_abs_error, o.max_abs_error);
  max_rel_error = larger(max_rel_error, o.max_rel_error);
}

void MetricSums::merge(const MetricSums& o) {
  yy += o.yy;
  ee += o.ee;
  ye += o.ye;
  rel += o.rel;
  rel_n += o.rel_n;
}

void merge_sums(MetricSumsByOrder& into, const MetricSumsByOrder& from) {
  for (const auto& [order, s] : from) into[order].merge(s);
}

json metric_counts_json(const MetricCounts& c) {
  const auto share = [&](std::int64_t n) {
    return c.compared ? json(static_cast<double>(n) / static_cast<double>(c.compared))
                      : json(nullptr);
  };
  return {{"compared", c.compared},
          {"correctly_rounded", c.correctly_rounded},
          {"within_1ulp", c.within_1ulp},
          {"share_correctly_rounded", share(c.correctly_rounded)},
          {"share_within_1ulp", share(c.within_1ulp)},
          {"max_abs_error", number(c.max_abs_error)},
          {"max_rel_error", number(c.max_rel_error)},
          {"share_rel_error_over_1e-3", share(c.rel_over_1e3)},
          {"share_rel_error_over_1e-4", share(c.rel_over_1e4)}};
}

json metrics_json(const MetricCounts& counts, const MetricSumsByOrder& sums) {
  MetricSums total;
  for (const auto& [order, s] : sums) total.merge(s);  // in job order: thread-independent
  json j = metric_counts_json(counts);
  // Both vectors zero: identical (similarity 1); one zero: nothing in common (0).
  const long double norms = std::sqrt(total.yy) * std::sqrt(total.ee);
  j["cosine_similarity"] = counts.compared == 0   ? json(nullptr)
                           : norms > 0            ? number(static_cast<double>(total.ye / norms))
                           : total.yy == total.ee ? json(1.0)
                                                  : json(0.0);
  j["mean_rel_error"] =
      total.rel_n ? number(static_cast<double>(total.rel / static_cast<long double>(total.rel_n)))
                  : json(nullptr);
  return j;
}

}  // namespace bng::cert
