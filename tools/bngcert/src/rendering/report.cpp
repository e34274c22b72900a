#include "report.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "bng/optimized/isa.hpp"
#include "bng/properties/reproducer.hpp"
#include "bng/properties/runner.hpp"
#include "build_info.hpp"
#include "case_files.hpp"
#include "library_binding.hpp"
#include "library_identity.hpp"
#include "reference_run.hpp"
#include "release_verdict.hpp"

namespace bng::cert {

using nlohmann::json;

json stats_json(const Stats& s) {
  return {{"outputs", s.outputs},
          {"fails", s.fails},
          {"exact", s.exact},
          {"nan_refs", s.nan_refs},
          {"nonfinite_refs", s.nonfinite_refs},
          {"zero_refs", s.zero_refs},
          {"max_ulp_error", number(s.max_ulp_error)},
          {"max_normalised_error", number(s.max_normalised_error)},
          {"max_kappa", number(s.max_kappa)},
          {"max_bound_use", number(s.max_bound_use)},
          {"metrics", metric_counts_json(s.metrics)}};
}

namespace {

std::string_view kind_name(ref::Kind k) {
  switch (k) {
    case ref::Kind::finite:
      return "finite";
    case ref::Kind::nonfinite:
      return "nonfinite";
    case ref::Kind::nan:
      return "nan";
  }
  return "?";
}

json readable_origin(const Origin& o) {
  json j = {{"family", o.family}};
  if (o.spec) {
    j["seed"] = o.seed;
    j["seed_hex"] = fmt::format("{:#x}", o.seed);
    j["size"] = o.size;
    j["case_index"] = o.case_index;
    j["entry_point"] = prop::entry_point(*o.spec);
    j["core_mask"] =
        o.spec->storage == prop::Storage::shared ? json(o.spec->core_mask) : json(nullptr);
    j["call"] = prop::describe(*o.spec);
  }
  return j;
}

}  // namespace

json failure_json(const Failure& f) {
  const Format fmt_out = output_format(f.combo, f.output);
  json e = {{"kind", kind_name(f.expected.kind)}};
  if (f.expected.kind == ref::Kind::finite) {
    e["rounded"] = number(f.expected.rounded);
    e["rounded_hex"] = prop::hex_value(f.expected.rounded, fmt_out);
    e["exact"] = number(static_cast<double>(f.expected.exact));
    e["exact_hex"] = fmt::format("{:La}", f.expected.exact);
    e["magnitude"] = number(static_cast<double>(f.expected.magnitude));
    e["ulp"] = number(f.expected.ulp);
  }
  return {{"output", output_name(f.output)},
          {"n", f.n},
          {"c", f.c},
          {"batch", f.batch},
          {"channel", f.channel},
          {"mode", mode_name(f.is_train)},
          {"origin", readable_origin(f.origin)},
          {"y", number(f.y)},
          {"y_hex", prop::hex_value(f.y, fmt_out)},
          {"expected", e},
          {"ulp_error", number(f.sample.m.ulp_error)},
          {"normalised_error", number(f.sample.m.normalised_error)},
          {"kappa", number(f.sample.m.kappa)},
          {"bound_use", number(f.sample.bound_use)},
          {"pass", f.sample.m.pass},
          {"reason", f.sample.m.reason},
          {"message", f.message()}};
}

json tool_build_json() {
  const BuildInfo& b = build_info();
  return {{"version", b.library_version}, {"git_commit", b.git_commit},
          {"git_dirty", b.git_dirty},     {"compiler", b.compiler},
          {"cxx_flags", b.cxx_flags},     {"build_type", b.build_type}};
}

json isa_json() {
  const std::string& requested = opt::isa_requested();
  const std::string& note = opt::isa_note();
  return {{"path", opt::isa_path()},
          {"highway_target", opt::isa_name()},
          {"requested", requested.empty() ? json(nullptr) : json(requested)},
          {"note", note.empty() ? json(nullptr) : json(note)},
          {"supported", opt::isa_supported_paths()}};
}

std::vector<prop::Target> judged_targets(const std::vector<KernelTally>& kernels) {
  std::vector<prop::Target> judged;
  for (const KernelTally& t : kernels) {
    if (std::find(judged.begin(), judged.end(), t.kernel.target) == judged.end())
      judged.push_back(t.kernel.target);
  }
  return judged;
}

json build_json(const std::vector<prop::Target>& judged) {
  json libs = json::object();
  // The identity taken when the library was bound, before its cases ran: the
  // file hashed is the file that ran (library_binding.hpp).
  for (prop::Target t : judged) {
    libs[std::string(prop::target_name(t))] = identity_json(bind_library(t));
  }
  return {{"tool", tool_build_json()}, {"isa", isa_json()}, {"libraries", libs}};
}

std::vector<std::array<std::string, 3>> write_reproducers(const std::filesystem::path& dir,
                                                          const std::vector<KernelTally>& kernels,
                                                          const std::string& kind) {
  std::vector<std::array<std::string, 3>> paths(kernels.size());
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const Kernel& kernel = kernels[k].kernel;
    for (Output o : kOutputs) {
      const Worst& w = kernels[k][o].worst;
      if (!w.valid()) continue;
      const std::string rel = fmt::format("reproducers/{}-{}-{}", prop::target_name(kernel.target),
                                          combo_name(kernel.combo), output_name(o));
      json params = {{"batch", w.c.batch},
                     {"channel", w.c.channel},
                     {"is_train", w.c.is_train},
                     {"target", prop::target_name(kernel.target)},
                     {"combo", combo_name(kernel.combo)},
                     // For the reader only: `check` judges with the target's declared α,
                     // whatever a file says (an α in the data could loosen the bound).
                     {"judged_alpha", kernel.alpha},
                     {"judged_alpha_hex", hex_double(kernel.alpha)},
                     {"found_by", kind},
                     {"worst", failure_json(w.where)},
                     {"reproduce", fmt::format("bngcert check --dir {} --out <dir>", rel)}};
      if (w.c.channel != w.where.channel) {
        params["note"] =
            fmt::format("channel {} of the {}-channel call, alone (SPEC §4 channel isolation)",
                        w.where.c, w.where.channel);
      }
      write_case_dir(make_subdirectory(dir, rel), w.c, w.got, params);
      paths[k][static_cast<int>(o)] = rel;
    }
  }
  return paths;
}

namespace {

// One output of a kernel: its statistics, histogram, density, families, worst
// output (with its reproducer, when one was written), failures, faults, metrics.
json output_json(const KernelTally& t, Output o, const std::string& reproducer) {
  const OutputTally& ot = t[o];
  const Format f = output_format(t.kernel.combo, o);
  json bins = json::array();
  for (const auto& [b, n] : ot.histogram.bins) bins.push_back({{"log2_lo", b}, {"count", n}});
  json cells = json::array();
  for (const auto& [key, cell] : ot.density.cells) {
    cells.push_back({key.first, key.second, cell.pass, cell.fail});
  }
  json fams = json::array();
  for (const auto& [key, s] : ot.by_family) {
    fams.push_back(
        {{"family", key.first}, {"mode", mode_name(key.second)}, {"stats", stats_json(s)}});
  }
  json worst = nullptr;
  if (ot.worst.valid()) {
    worst = failure_json(ot.worst.where);
    if (!reproducer.empty()) {
      worst["reproducer"] = reproducer;
    }
  }
  json fails = json::array();
  for (const auto& fl : ot.failures) fails.push_back(failure_json(fl));
  return {{"format", format_name(f)},
          {"unit_roundoff", unit_roundoff(f)},
          {"alpha_over_u", t.kernel.alpha / unit_roundoff(f)},
          {"stats", stats_json(ot.all)},
          {"histogram",
           {{"zero", ot.histogram.zero}, {"infinite", ot.histogram.infinite}, {"bins", bins}}},
          {"density",
           {{"cells_per_binade", Density::kCellsPerBinade},
            {"infinite_cell", Density::kInfinite},
            {"cells", cells}}},
          {"by_family", fams},
          {"worst", worst},
          {"failures", fails},
          {"faults", fault_map_json(ot.faults)},
          {"metrics", metrics_json(ot.all.metrics, ot.metric_sums)}};
}

json kernel_json(const KernelTally& t, const json& outs, const json& build) {
  json call_error_messages = json::array();
  for (const auto& [order, m] : t.call_error_messages) call_error_messages.push_back(m);
  const json& lib =
      build["libraries"].value(std::string(prop::target_name(t.kernel.target)), json::object());
  const double declared = prop::declared_alpha(t.kernel.target, t.kernel.combo);
  return {{"name", t.kernel.name()},
          {"target", prop::target_name(t.kernel.target)},
          {"isa", lib.value("isa_ran", json(nullptr))},
          {"combo", combo_name(t.kernel.combo)},
          {"alpha", t.kernel.alpha},
          {"alpha_hex", hex_double(t.kernel.alpha)},
          {"declared_alpha", declared},
          {"declared_alpha_hex", hex_double(declared)},
          {"correctly_rounded", correctly_rounded_outputs(t.kernel)},
          {"cases", t.cases},
          {"calls", t.calls},
          {"call_errors", t.call_errors},
          {"call_error_messages", call_error_messages},
          {"pass", t.passed()},
          {"outputs", outs}};
}

json verdict_json(const json& run, const std::vector<KernelTally>& kernels, std::int64_t failed,
                  std::int64_t call_errors) {
  // A merge of some shards only (bngcert merge --partial) judged part of the
  // run: whatever it found, it cannot pass.
  const json missing = run.value("sharding", json::object()).value("missing", json::array());
  json verdict = {{"pass", failed == 0 && call_errors == 0 && missing.empty()},
                  {"failed_outputs", failed},
                  {"call_errors", call_errors}};
  if (!missing.empty()) verdict["partial"] = true;
  // Pass or fail, a verdict at another α than the kernels' own says nothing
  // about a release (release_verdict.hpp).
  const ReleaseStatus release = release_status(kernels);
  verdict["is_release_verdict"] = release.is_release_verdict;
  verdict["release_note"] = release.note;
  return verdict;
}

}  // namespace

json report_json(const json& run, const std::vector<KernelTally>& kernels,
                 const std::vector<std::array<std::string, 3>>& reproducers,
                 const std::optional<json>& recorded_build) {
  // A campaign judges the libraries it loaded; a check judges files.
  const json build = recorded_build ? *recorded_build
                     : run.value("kind", "campaign") == "campaign"
                         ? build_json(judged_targets(kernels))
                         : build_json({});
  json ks = json::array();
  std::int64_t failed = 0, call_errors = 0;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    const KernelTally& t = kernels[k];
    json outs = json::object();
    for (Output o : kOutputs) {
      const std::string none;
      const std::string& reproducer =
          k < reproducers.size() ? reproducers[k][static_cast<int>(o)] : none;
      outs[std::string(output_name(o))] = output_json(t, o, reproducer);
      failed += t[o].all.fails;
    }
    call_errors += t.call_errors;
    ks.push_back(kernel_json(t, outs, build));
  }
  const json verdict = verdict_json(run, kernels, failed, call_errors);
  // The fall-backs are counted by the tallies, summed here once for every kind of run.
  json judged_run = run;
  std::int64_t fallbacks = 0;
  for (const KernelTally& t : kernels) fallbacks += t.exact_fallbacks;
  if (!judged_run.contains("reference") || !judged_run["reference"].is_object()) {
    judged_run["reference"] = {{"path", "unrecorded"}};
  }
  judged_run["reference"]["exact_fallbacks"] = fallbacks;
  return {{"schema", "bngcert-report"},
          {"schema_version", kReportSchemaVersion},
          {"generated_utc", run.value("started_utc", "")},
          {"build", build},
          {"run", judged_run},
          {"verdict", verdict},
          {"kernels", ks}};
}

json write_report(const std::filesystem::path& dir, const json& run,
                  const std::vector<KernelTally>& kernels, const std::optional<json>& build) {
  // Stale reproducers of an earlier run would contradict this report.
  std::filesystem::remove_all(dir / "reproducers");
  const auto repro = write_reproducers(dir, kernels, run.value("kind", "campaign"));
  const json report = report_json(run, kernels, repro, build);
  write_text(dir / "report.json", report.dump(1) + "\n");
  write_text(dir / "report.md", render_markdown(report));
  write_text(dir / "report.html", render_html(report));
  return report;
}

}  // namespace bng::cert