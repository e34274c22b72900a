#include "tally.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "bng/properties/reproducer.hpp"
#include "bng/reference/binade.hpp"

namespace bng::cert {

void Stats::merge(const Stats& o) {
  outputs += o.outputs;
  fails += o.fails;
  exact += o.exact;
  nan_refs += o.nan_refs;
  nonfinite_refs += o.nonfinite_refs;
  zero_refs += o.zero_refs;
  max_ulp_error = larger(max_ulp_error, o.max_ulp_error);
  max_normalised_error = larger(max_normalised_error, o.max_normalised_error);
  max_kappa = larger(max_kappa, o.max_kappa);
  max_bound_use = larger(max_bound_use, o.max_bound_use);
  metrics.merge(o.metrics);
}

void Histogram::merge(const Histogram& o) {
  zero += o.zero;
  infinite += o.infinite;
  for (const auto& [k, n] : o.bins) bins[k] += n;
}

void Density::merge(const Density& o) {
  for (const auto& [k, c] : o.cells) {
    cells[k].pass += c.pass;
    cells[k].fail += c.fail;
  }
}

std::string Origin::label() const {
  if (!spec) return family == "input" ? "dumped files" : family;
  const std::string where = fmt::format("family {} case {} (seed {:#x}, size {}) via {}", family,
                                        case_index, seed, size, prop::describe(*spec));
  return case_name.empty() ? where : fmt::format("pack case {}: {}", case_name, where);
}

std::string Failure::message() const {
  const Format f = output_format(combo, output);
  std::string at = output == Output::dx ? fmt::format("dx[n={}, c={}]", n, c)
                                        : fmt::format("{}[c={}]", output_name(output), c);
  std::string text = fmt::format("{} of a {}x{} {} call ({}): got {}", at, batch, channel,
                                 mode_name(is_train), origin.label(), prop::hex_value(y, f));
  if (expected.kind == ref::Kind::finite) {
    text += fmt::format(
        ", exact y* = {:La} (rounded {}), M = {:La}, ulp = {:a}; error {:.4g} ulp, "
        "{:.4g} u*M, {:.4g} of the bound",
        expected.exact, prop::hex_value(expected.rounded, f), expected.magnitude, expected.ulp,
        sample.m.ulp_error, sample.m.normalised_error, sample.bound_use);
  } else {
    text += expected.kind == ref::Kind::nan ? ", reference NaN (an input is NaN)"
                                            : ", reference non-finite (an input is infinite)";
  }
  if (!sample.m.pass) text += fmt::format(" — FAIL: {}", sample.m.reason);
  return text;
}

void OutputTally::merge(OutputTally&& o) {
  all.merge(o.all);
  histogram.merge(o.histogram);
  density.merge(o.density);
  faults.merge(o.faults);
  merge_sums(metric_sums, o.metric_sums);
  for (const auto& [k, s] : o.by_family) by_family[k].merge(s);
  if (o.worst.valid() &&
      (!worst.valid() || o.worst.where.sample.bound_use > worst.where.sample.bound_use ||
       (o.worst.where.sample.bound_use == worst.where.sample.bound_use &&
        o.worst.where.order < worst.where.order))) {
    worst = std::move(o.worst);
  }
  failures.insert(failures.end(), std::make_move_iterator(o.failures.begin()),
                  std::make_move_iterator(o.failures.end()));
  std::stable_sort(failures.begin(), failures.end(),
                   [](const Failure& a, const Failure& b) { return a.order < b.order; });
  if (failures.size() > kFailuresKept) failures.resize(kFailuresKept);
  // A job's blocks of channels interleave in flat order: sort the union.
  failing.insert(failing.end(), o.failing.begin(), o.failing.end());
  std::sort(failing.begin(), failing.end());
  nonfinite_where_finite += o.nonfinite_where_finite;
}

bool KernelTally::passed() const {
  if (call_errors > 0) return false;
  for (const auto& o : outputs) {
    if (o.all.fails > 0) return false;
  }
  return true;
}

void KernelTally::note_call_error(std::uint64_t order, std::string message) {
  call_error_messages.emplace(order, std::move(message));
  if (call_error_messages.size() > kFailuresKept)
    call_error_messages.erase(std::prev(call_error_messages.end()));
}

void KernelTally::merge(KernelTally&& o) {
  cases += o.cases;
  for (const auto& [k, n] : o.calls) calls[k] += n;
  call_errors += o.call_errors;
  exact_fallbacks += o.exact_fallbacks;
  for (auto& [order, m] : o.call_error_messages) note_call_error(order, std::move(m));
  for (int i = 0; i < 3; ++i) outputs[i].merge(std::move(o.outputs[i]));
}

Case column_case(const Case& c, std::int64_t channel) {
  Case col;
  col.combo = c.combo;
  col.batch = c.batch;
  col.channel = 1;
  col.is_train = c.is_train;
  col.x.resize(static_cast<std::size_t>(c.batch));
  col.dy.resize(static_cast<std::size_t>(c.batch));
  for (std::int64_t n = 0; n < c.batch; ++n) {
    col.x[n] = c.x[n * c.channel + channel];
    col.dy[n] = c.dy[n * c.channel + channel];
  }
  col.mean = {c.mean[channel]};
  col.invar = {c.invar[channel]};
  col.scale = {c.scale[channel]};
  return col;
}

Outputs column_outputs(const Outputs& o, const Case& c, std::int64_t channel) {
  Outputs col;
  col.dx.resize(static_cast<std::size_t>(c.batch));
  for (std::int64_t n = 0; n < c.batch; ++n) col.dx[n] = o.dx[n * c.channel + channel];
  col.dbias = {o.dbias[channel]};
  col.dscale = {o.dscale[channel]};
  return col;
}

}  // namespace bng::cert
