#include <fmt/format.h>

#include "fault_map.hpp"
#include "reference_run.hpp"
#include "render_common.hpp"
#include "report.hpp"
#include "svg.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

// Everything inline; the policy forbids the page from loading anything at all.
constexpr const char* kHead = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>BatchNormGrad error report</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;padding:0 16px;color:#222}
h1{margin-bottom:4px}h2{border-bottom:2px solid #ddd;padding-bottom:4px;margin-top:36px}
table{border-collapse:collapse;margin:8px 0 16px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
th{background:#f3f3f3}td.l,th.l{text-align:left}tr.fail td{background:#fde8e8}
.verdict{display:inline-block;padding:6px 14px;border-radius:4px;font-weight:bold;color:#fff}
.pass{background:#2e7d32}.failv{background:#c62828}.notrelease{background:#6d4c41}
.charts{display:flex;flex-wrap:wrap;gap:12px}
svg{border:1px solid #ddd;background:#fff;max-width:100%;height:auto}
svg .t{font:bold 13px sans-serif}svg .xl{font:11px sans-serif;text-anchor:middle}
svg .yl{font:11px sans-serif;text-anchor:end}svg .axis{font:12px sans-serif;text-anchor:middle}
svg .bl{font:11px sans-serif;fill:#b26a00;text-anchor:end}svg .grid{stroke:#eee}
svg .bar{fill:#4a78b5}svg .bar.over{fill:#d08a2a}svg .bound{stroke:#b26a00;stroke-width:1.5;stroke-dasharray:5 3}
svg .band{fill:#f5c16c;fill-opacity:.25;stroke:none}svg .cell{fill:#2b5fa4}svg .cell.fail{fill:#d32f2f}
code,.msg{font:12px ui-monospace,monospace}.msg{white-space:pre-wrap;background:#f7f7f7;padding:6px;border-radius:3px}
.note{color:#555}
</style></head><body>
)";

std::string td(const json& v) {
  return "<td>" + html_escape(show(v)) + "</td>";
}
std::string tdl(const std::string& s) {
  return "<td class=\"l\">" + html_escape(s) + "</td>";
}

std::string td_share(const json& v) {
  return "<td>" + html_escape(show_share(v)) + "</td>";
}

// What a reader decides on first (shares, worst bound use), then the raw maxima.
std::string stats_cells(const json& s) {
  const json none = json::object();
  const json& m = s.contains("metrics") ? s["metrics"] : none;
  return td(s["outputs"]) + td(s["fails"]) + td_share(m.value("share_correctly_rounded", json())) +
         td_share(m.value("share_within_1ulp", json())) + td(s["max_bound_use"]) +
         td(s["max_ulp_error"]) + td(s["max_normalised_error"]) + td(s["max_kappa"]);
}

constexpr const char* kStatsHeader =
    "<th>outputs</th><th>fails</th><th>correctly rounded</th><th>within 1 ulp</th><th>worst "
    "bound use</th><th>max ULP error</th><th>max normalised error</th><th>max κ</th>";

std::string metric_cells(const json& m) {
  return td(m["cosine_similarity"]) + td(m["max_rel_error"]) + td(m["mean_rel_error"]) +
         td_share(m["share_rel_error_over_1e-3"]) + td_share(m["share_rel_error_over_1e-4"]);
}

constexpr const char* kMetricsHeader =
    "<th>cosine similarity</th><th>max rel. error</th><th>mean rel. error</th><th>rel. error "
    "&gt; 1e-3</th><th>rel. error &gt; 1e-4</th>";

// The verdict, and why it is not a release's when it is not.
void html_verdict(std::string& h, const json& r) {
  const json& run = r["run"];
  const json& v = r["verdict"];
  const bool pass = v["pass"].get<bool>();
  // A verdict at another α than the kernels' own (check --alpha) must not look like a release's.
  const bool release = v.value("is_release_verdict", true);
  h += fmt::format(
      "<p><span class=\"verdict {}\">{}{}</span> {} outputs of {} cases judged; {} failed their "
      "kernel's criterion ({}); {} failed calls.</p>\n",
      !release ? "notrelease"
      : pass   ? "pass"
               : "failv",
      verdict_word(v), release ? "" : " — NOT a release verdict", html_escape(show(run["outputs"])),
      html_escape(show(run["cases"])), html_escape(show(v["failed_outputs"])),
      html_escape(kCriterionWords), html_escape(show(v["call_errors"])));
  if (!release) {
    h += fmt::format("<p><strong>{}</strong></p>\n", html_escape(v.value("release_note", "")));
  }
}

// What ran: shards, build, the checked call or the campaign, when.
void html_run_table(std::string& h, const json& r) {
  const json& run = r["run"];
  h += "<table>";
  if (run.contains("sharding")) {
    h += "<tr><th class=\"l\">shards</th>" + tdl(sharding_line(run["sharding"])) + "</tr>";
  }
  for (const auto& [label, value] : build_rows(r["build"])) {
    h += "<tr><th class=\"l\">" + html_escape(label) + "</th>" + tdl(value) + "</tr>";
  }
  h += "<tr><th class=\"l\">reference</th>" + tdl(reference_words(run)) + "</tr>";
  if (run.value("kind", "") == "check") {
    h += "<tr><th class=\"l\">checked files</th>" + tdl(run.value("input_dir", "?")) + "</tr>";
    h += "<tr><th class=\"l\">call</th>" +
         tdl(fmt::format("{} batch={} channel={} {}", run.value("kernel", "?"), show(run["batch"]),
                         show(run["channel"]), run.value("mode", "?"))) +
         "</tr>";
  } else {
    std::string fams;
    for (const auto& f : run["families"])
      fams += (fams.empty() ? "" : ", ") + f["name"].get<std::string>();
    h +=
        "<tr><th class=\"l\">campaign</th>" +
        tdl(fmt::format("seed {}, {} cases per kernel × family × mode, sizes up to {}",
                        run["seed"].dump(), show(run["cases_per_series"]), show(run["max_size"]))) +
        "</tr>";
    h += "<tr><th class=\"l\">families</th>" + tdl(fams) + "</tr>";
  }
  h += "<tr><th class=\"l\">started, duration</th>" +
       tdl(fmt::format("{}, {:.1f} s", run.value("started_utc", "?"),
                       run.value("duration_s", 0.0))) +
       "</tr>";
  h += "</table>\n";
  h += "<p class=\"note\">ULP error = |y − y*| / ulp(y*); normalised error = |y − y*| / (u·M), u "
       "the unit "
       "roundoff; κ = M / |y*| (cancellation); bound use = |y − y*| / (ulp(y*) + α·M): an output "
       "passes "
       "when it is at most 1. docs/certification.md explains every number.</p>\n";
}

// One row per kernel output, then the cases that failed as a whole.
void html_summary(std::string& h, const json& r) {
  const json& run = r["run"];
  h += std::string(
           "<h2>Summary</h2><table><tr><th class=\"l\">kernel</th><th>α</th><th "
           "class=\"l\">output</th>") +
       kStatsHeader + kMetricsHeader + "</tr>\n";
  for (const auto& k : r["kernels"]) {
    for (const auto& [name, o] : k["outputs"].items()) {
      const json& s = o["stats"];
      h += fmt::format("<tr{}>", s["fails"].get<std::int64_t>() ? " class=\"fail\"" : "") +
           tdl(k["name"].get<std::string>()) + tdl(k["alpha_hex"].get<std::string>()) + tdl(name) +
           stats_cells(s) + (o.contains("metrics") ? metric_cells(o["metrics"]) : "") + "</tr>\n";
    }
  }
  h += "</table>\n";
  h += std::string("<p class=\"note\">") + html_escape(kUlpNote) + "</p>\n";
  if (run.contains("failed_cases") && !run["failed_cases"].empty()) {
    h += fmt::format(
        "<h2>Failed cases ({})</h2>\n<table><tr><th class=\"l\">case</th><th "
        "class=\"l\">reason</th></tr>\n",
        run["failed_cases"].size());
    for (const auto& c : run["failed_cases"]) {
      h += "<tr class=\"fail\">" + tdl(c["case"].get<std::string>()) +
           tdl(c["reason"].get<std::string>()) + "</tr>\n";
    }
    h += "</table>\n";
  }
}

// One output of a kernel: its charts, its families, its worst output and failures.
void html_output(std::string& h, const std::string& kname, const std::string& name, const json& o) {
  const json& s = o["stats"];
  h += fmt::format(
      "<h3>{} {} <small>({}, α/u = {}; {} exact, {} NaN and {} non-finite references, "
      "{} with y* = 0)</small></h3>\n",
      html_escape(kname), name, o["format"].get<std::string>(),
      html_escape(show(o["alpha_over_u"])), html_escape(show(s["exact"])),
      html_escape(show(s["nan_refs"])), html_escape(show(s["nonfinite_refs"])),
      html_escape(show(s["zero_refs"])));
  h += "<div class=\"charts\">" + svg_histogram(o, kname + " " + name + ": ULP errors") +
       svg_scatter(o, kname + " " + name + ": normalised error vs cancellation") + "</div>\n";
  if (o.contains("faults") && o["faults"]["fails"].get<std::int64_t>() > 0) {
    h += "<div class=\"charts\">" +
         svg_fault_map(o["faults"], kname + " " + name + ": where the failures are") + "</div>\n";
  }
  h += std::string("<table><tr><th class=\"l\">family</th><th class=\"l\">mode</th>") +
       kStatsHeader + "</tr>\n";
  for (const auto& f : o["by_family"]) {
    h += fmt::format("<tr{}>", f["stats"]["fails"].get<std::int64_t>() ? " class=\"fail\"" : "") +
         tdl(f["family"].get<std::string>()) + tdl(f["mode"].get<std::string>()) +
         stats_cells(f["stats"]) + "</tr>\n";
  }
  h += "</table>\n";
  if (!o["worst"].is_null()) {
    h += "<p>Worst output (largest bound use):</p><p class=\"msg\">" +
         html_escape(o["worst"]["message"].get<std::string>()) + "</p>\n";
    if (o["worst"].contains("reproducer")) {
      const std::string rep = o["worst"]["reproducer"].get<std::string>();
      h += fmt::format(
          "<p>Reproducer: <code>{0}/</code> — <code>bngcert check --dir {0} --out "
          "check-out</code></p>\n",
          html_escape(rep));
    }
  }
  if (!o["failures"].empty()) {
    h += fmt::format("<p>Failures (first {} of {}):</p>\n", o["failures"].size(),
                     html_escape(show(s["fails"])));
    for (const auto& f : o["failures"])
      h += "<p class=\"msg\">" + html_escape(f["message"].get<std::string>()) + "</p>\n";
  }
}

// One kernel: its verdict, α, calls, call errors and each output.
void html_kernel(std::string& h, const json& k) {
  const std::string kname = k["name"].get<std::string>();
  h += fmt::format("<h2 id=\"{0}\">{0} — <span class=\"verdict {1}\">{2}</span></h2>\n",
                   html_escape(kname), k["pass"].get<bool>() ? "pass" : "failv",
                   verdict_word(k["pass"].get<bool>()));
  std::string calls;
  for (const auto& [ep, n] : k["calls"].items()) calls += fmt::format("{} ×{}, ", ep, show(n));
  h += fmt::format("<p>α = <code>{}</code> ({}); {} cases; calls: {}</p>\n",
                   html_escape(k["alpha_hex"].get<std::string>()), html_escape(show(k["alpha"])),
                   html_escape(show(k["cases"])), html_escape(calls));
  for (const auto& m : k["call_error_messages"]) {
    h += "<p class=\"msg\">call error: " + html_escape(m.get<std::string>()) + "</p>\n";
  }
  for (const auto& [name, o] : k["outputs"].items()) html_output(h, kname, name, o);
}

void html_families(std::string& h, const json& run) {
  if (run.contains("families")) {
    h += "<h2>Case families</h2><table><tr><th class=\"l\">family</th><th class=\"l\">what it "
         "covers</th></tr>\n";
    for (const auto& f : run["families"]) {
      h += "<tr>" + tdl(f["name"].get<std::string>()) + tdl(f["description"].get<std::string>()) +
           "</tr>\n";
    }
    h += "</table>\n";
  }
}

}  // namespace

std::string render_html(const json& r) {
  std::string h = kHead;
  h += "<h1>BatchNormGrad error report</h1>\n";
  html_verdict(h, r);
  html_run_table(h, r);
  html_summary(h, r);
  for (const auto& k : r["kernels"]) html_kernel(h, k);
  html_families(h, r["run"]);
  h += "</body></html>\n";
  return h;
}

}  // namespace bng::cert
