#include "tally.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "bng/properties/reproducer.hpp"
#include "bng/reference/binade.hpp"
#include "call_counts.hpp"

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

namespace {

// The cores a judged call ran on, for its fault map: the campaign's or the
// pack's call; a dump judged by `check --dir` does not say, and is mapped as the
// caller alone would have run it (docs/report-format.md, "faults").
unsigned core_mask_of(const Origin& origin) {
  return origin.spec && origin.spec->storage == prop::Storage::shared ? origin.spec->core_mask : 0u;
}

// Output i of o, located in the whole call (a block of channels is part of one).
Failure located(const Case& c, const Origin& origin, std::uint64_t order, Output o, std::int64_t i,
                double y, const ref::Expected& e, const Sample& s) {
  Failure fl;
  fl.order = order;
  fl.origin = origin;
  fl.output = o;
  fl.combo = c.combo;
  fl.is_train = c.is_train;
  fl.batch = c.batch;
  fl.channel = origin.channel_total ? origin.channel_total : c.channel;
  fl.n = o == Output::dx ? i / c.channel : 0;
  fl.c = (o == Output::dx ? i % c.channel : i) + origin.channel_offset;
  fl.y = y;
  fl.expected = e;
  fl.sample = s;
  return fl;
}

// A failing output i of o: in the fault map, in the failing indices (when
// kept) and, among the first kFailuresKept, in the failures printed.
void note_failure(const Case& c, const Origin& origin, std::uint64_t order, Output o, std::size_t i,
                  double y, const ref::Expected& e, const Sample& s, KernelTally& t) {
  OutputTally& tally = t[o];
  const auto i64 = static_cast<std::int64_t>(i);
  tally.faults.add({t.kernel.target, c.combo, o, c.is_train, c.batch,
                    origin.channel_total ? origin.channel_total : c.channel,
                    o == Output::dx ? i64 / c.channel : 0,
                    (o == Output::dx ? i64 % c.channel : i64) + origin.channel_offset,
                    core_mask_of(origin)});
  if (t.keep_failing) {
    const std::int64_t channels = origin.channel_total ? origin.channel_total : c.channel;
    tally.failing.push_back(o == Output::dx ? (i64 / c.channel) * channels + i64 % c.channel +
                                                  origin.channel_offset
                                            : i64 + origin.channel_offset);
    if (s.kind == ref::Kind::finite && std::isfinite(e.rounded) && !std::isfinite(y)) {
      ++tally.nonfinite_where_finite;
    }
  }
  if (tally.failures.size() < kFailuresKept) {
    tally.failures.push_back(located(c, origin, order, o, i64, y, e, s));
  }
}

// This case's worst output of o (index i), kept with its case when it uses
// more of its bound than the tally's worst (a tie: the earlier case).
void note_worst(const Case& c, const Outputs& got, const Origin& origin, std::uint64_t order,
                Output o, std::int64_t i, double y, const ref::Expected& e, const Sample& s,
                bool column_worst, Worst& w) {
  const bool better = !w.valid() || s.bound_use > w.where.sample.bound_use ||
                      (s.bound_use == w.where.sample.bound_use && order < w.where.order);
  if (!better) return;
  w.where = located(c, origin, order, o, i, y, e, s);
  const std::int64_t ch = o == Output::dx ? i % c.channel : i;
  if (column_worst) {
    w.c = column_case(c, ch);
    w.got = column_outputs(got, c, ch);
  } else {
    w.c = c;
    w.got = got;
  }
}

}  // namespace

void judge(const Case& c, const ref::Result& r, const Outputs& got, const Origin& origin,
           std::uint64_t order, bool column_worst, KernelTally& t) {
  const double alpha = t.kernel.alpha;
  t.exact_fallbacks += r.exact_fallbacks;
  for (Output o : kOutputs) {
    const auto& ys = o == Output::dx ? got.dx : o == Output::dbias ? got.dbias : got.dscale;
    const auto& es = o == Output::dx ? r.dx : o == Output::dbias ? r.dbias : r.dscale;
    const Format f = output_format(c.combo, o);
    OutputTally& tally = t[o];
    const bool rounded_once = judged_correctly_rounded(t.kernel, c.is_train, o);
    std::int64_t worst_index = -1;
    Sample worst_sample;
    // This call's outputs, counted here and added to the tally, its family's
    // line, histogram and density once (merging is what adding would do).
    Stats call;
    HistogramCounts histogram;
    DensityCounts density;
    MetricSums sums;
    for (std::size_t i = 0; i < ys.size(); ++i) {
      Sample s;
      s.m = measure(ys[i], es[i], f, alpha, rounded_once);
      s.kind = es[i].kind;
      s.bound_use = bound_use(s.m, es[i], alpha);
      call.add(s);
      if (s.kind == ref::Kind::finite && std::isfinite(ys[i])) {
        const OutputError err(ys[i], es[i].exact);
        call.metrics.add(ys[i], err, es[i].rounded, es[i].ulp);
        sums.add(ys[i], es[i].exact, err);
      }
      if (s.kind == ref::Kind::finite) {
        histogram.add(s.m.ulp_error);
        density.add(s.m);
      }
      if (worst_index < 0 || s.bound_use > worst_sample.bound_use) {
        worst_index = static_cast<std::int64_t>(i);
        worst_sample = s;
      }
      if (!s.m.pass) note_failure(c, origin, order, o, i, ys[i], es[i], s, t);
    }
    tally.all.merge(call);
    tally.by_family[{origin.family, c.is_train}].merge(call);
    histogram.add_to(tally.histogram);
    density.add_to(tally.density);
    if (sums.yy != 0 || sums.ee != 0 || sums.rel_n != 0) tally.metric_sums[order].merge(sums);
    if (worst_index < 0) continue;
    note_worst(c, got, origin, order, o, worst_index, ys[worst_index], es[worst_index],
               worst_sample, column_worst, tally.worst);
  }
}

}  // namespace bng::cert
