#include "call_judge.hpp"

#include <cmath>

namespace bng::cert {

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

CallJudge::CallJudge(const Case& c, const Outputs& got, const Origin& origin, std::uint64_t order,
                     bool column_worst, KernelTally& t)
    : c_(c), got_(got), origin_(origin), order_(order), column_worst_(column_worst), t_(t) {}

void CallJudge::judge_range(Output o, const std::vector<double>& ys,
                            const std::vector<ref::Expected>& es, std::size_t i0, std::size_t i1,
                            Running& run) {
  const double alpha = t_.kernel.alpha;
  const Format f = output_format(c_.combo, o);
  const bool rounded_once = judged_correctly_rounded(t_.kernel, c_.is_train, o);
  // The counts and sums in locals for the loop (as members of run, behind a
  // reference, they would go through memory at every output).
  Stats call = run.call;
  MetricSums sums = run.sums;
  for (std::size_t i = i0; i < i1; ++i) {
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
      run.histogram.add(s.m.ulp_error);
      run.density.add(s.m);
    }
    if (run.worst_index < 0 || s.bound_use > run.worst_sample.bound_use) {
      run.worst_index = static_cast<std::int64_t>(i);
      run.worst_sample = s;
    }
    if (!s.m.pass) note_failure(c_, origin_, order_, o, i, ys[i], es[i], s, t_);
  }
  run.call = call;
  run.sums = sums;
}

void CallJudge::close(Output o, const std::vector<double>& ys, const std::vector<ref::Expected>& es,
                      Running& run) {
  OutputTally& tally = t_[o];
  tally.all.merge(run.call);
  tally.by_family[{origin_.family, c_.is_train}].merge(run.call);
  run.histogram.add_to(tally.histogram);
  run.density.add_to(tally.density);
  if (run.sums.yy != 0 || run.sums.ee != 0 || run.sums.rel_n != 0) {
    tally.metric_sums[order_].merge(run.sums);
  }
  if (run.worst_index < 0) return;
  const auto w = static_cast<std::size_t>(run.worst_index);
  note_worst(c_, got_, origin_, order_, o, run.worst_index, ys[w], es[w], run.worst_sample,
             column_worst_, tally.worst);
}

void CallJudge::dx_rows(const ref::Result& r, std::int64_t n0, std::int64_t n1) {
  judge_range(Output::dx, got_.dx, r.dx, static_cast<std::size_t>(n0 * c_.channel),
              static_cast<std::size_t>(n1 * c_.channel), dx_);
}

void CallJudge::finish(const ref::Result& r) {
  t_.exact_fallbacks += r.exact_fallbacks;
  close(Output::dx, got_.dx, r.dx, dx_);
  for (Output o : {Output::dbias, Output::dscale}) {
    const auto& ys = o == Output::dbias ? got_.dbias : got_.dscale;
    const auto& es = o == Output::dbias ? r.dbias : r.dscale;
    Running run;
    judge_range(o, ys, es, 0, ys.size(), run);
    close(o, ys, es, run);
  }
}

void judge(const Case& c, const ref::Result& r, const Outputs& got, const Origin& origin,
           std::uint64_t order, bool column_worst, KernelTally& t) {
  CallJudge j(c, got, origin, order, column_worst, t);
  j.dx_rows(r, 0, c.batch);
  j.finish(r);
}

}  // namespace bng::cert
