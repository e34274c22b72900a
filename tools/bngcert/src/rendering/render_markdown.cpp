#include <fmt/format.h>

#include "reference_run.hpp"
#include "render_common.hpp"
#include "report.hpp"

namespace bng::cert {

using nlohmann::json;

std::string show(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return show_count(v.get<std::int64_t>());
  if (v.is_number()) return fmt::format("{:.4g}", v.get<double>());
  return "—";
}

std::string show_count(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return n < 0 ? "-" + out : out;
}

std::string show_share(const json& v) {
  if (!v.is_number()) return "—";
  const double pct = 100.0 * v.get<double>();
  std::string text = fmt::format("{:.2f}", pct);
  if (text == "100.00" && v.get<double>() < 1.0) text = "99.99+";
  return text + " %";
}

std::string verdict_word(bool pass) {
  return pass ? "PASS" : "FAIL";
}

std::string verdict_word(const json& verdict) {
  if (verdict.value("partial", false)) return "PARTIAL";
  return verdict_word(verdict["pass"].get<bool>());
}

namespace {

std::string run_line(const json& run) {
  if (run.value("kind", "") == "pack") {
    return fmt::format(
        "device run over the pack `{}` (campaign seed {}, {} cases per kernel × "
        "family × mode), {} failed cases",
        run.value("pack", "?"), run["seed"].dump(), show(run["cases_per_series"]),
        show(json(run["failed_cases"].size())));
  }
  if (run.value("kind", "") == "check") {
    return fmt::format("check of the files in `{}`: {} × {} ({}), {} judged at α = {}",
                       run.value("input_dir", "?"), show(run["batch"]), show(run["channel"]),
                       run.value("mode", "?"), run.value("kernel", "?"),
                       run.value("alpha_hex", "?"));
  }
  std::string fams;
  for (const auto& f : run["families"])
    fams += (fams.empty() ? "" : ", ") + f["name"].get<std::string>();
  return fmt::format(
      "campaign: seed {}, {} cases per kernel × family × mode (RapidCheck sizes up to {}), "
      "families {}",
      run["seed"].dump(), show(run["cases_per_series"]), show(run["max_size"]), fams);
}

}  // namespace

std::string sharding_line(const json& sh) {
  std::string missing;
  for (const auto& k : sh["missing"])
    missing += fmt::format(" {}/{}", k.get<int>(), show(sh["count"]));
  return fmt::format("Merged from {} of {} shards{}", sh["shards"].size(), show(sh["count"]),
                     missing.empty() ? "" : " — PARTIAL, missing:" + missing);
}

namespace {

// The verdict, and the build and run it judged.
void md_verdict(std::string& md, const json& r) {
  const json& run = r["run"];
  const json& v = r["verdict"];
  // A verdict at another α than the kernels' own (check --alpha) must not read like a release's.
  const bool release = v.value("is_release_verdict", true);
  md += fmt::format(
      "**Verdict: {}{}** — {} outputs of {} cases judged; {} failed their kernel's criterion "
      "({}), {} failed calls.\n\n",
      verdict_word(v), release ? "" : " — NOT a release verdict", show(run["outputs"]),
      show(run["cases"]), show(v["failed_outputs"]), kCriterionWords, show(v["call_errors"]));
  if (!release) md += fmt::format("> {}\n\n", v.value("release_note", ""));
  for (const auto& [label, value] : build_rows(r["build"]))
    md += fmt::format("- {}: {}\n", label, value);
  md += fmt::format("- Run: {}\n", run_line(run));
  md += fmt::format("- Judged by the {} reference\n", reference_words(run));
  if (run.contains("sharding")) md += fmt::format("- {}\n", sharding_line(run["sharding"]));
  md += fmt::format("- Started {}, took {:.1f} s\n\n", run.value("started_utc", "?"),
                    run.value("duration_s", 0.0));
  md +=
      "ULP error = |y − y*| / ulp(y*); normalised error = |y − y*| / (u·M); κ = M / |y*|; bound "
      "use "
      "= |y − y*| / (ulp(y*) + α·M), at most 1 within the bound. See docs/certification.md.\n\n";
}

// One row per kernel output, then the cases that failed as a whole.
void md_summary(std::string& md, const json& r) {
  const json& run = r["run"];
  md +=
      "## Summary\n\n| kernel | α | output | outputs | fails | correctly rounded | within 1 ulp "
      "| worst bound use | max ULP error | max κ | cosine similarity | max rel. error | mean rel. "
      "error | rel. error > 1e-3 | rel. error > 1e-4 |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& k : r["kernels"]) {
    for (const auto& [name, o] : k["outputs"].items()) {
      const json& s = o["stats"];
      const json& m = o["metrics"];
      md += fmt::format(
          "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
          k["name"].get<std::string>(), k["alpha_hex"].get<std::string>(), name, show(s["outputs"]),
          show(s["fails"]), show_share(m["share_correctly_rounded"]),
          show_share(m["share_within_1ulp"]), show(s["max_bound_use"]), show(s["max_ulp_error"]),
          show(s["max_kappa"]), show(m["cosine_similarity"]), show(m["max_rel_error"]),
          show(m["mean_rel_error"]), show_share(m["share_rel_error_over_1e-3"]),
          show_share(m["share_rel_error_over_1e-4"]));
    }
  }
  md += fmt::format("\n{}\n", kUlpNote);
  if (run.contains("failed_cases") && !run["failed_cases"].empty()) {
    md += fmt::format("\n## Failed cases ({})\n\n", run["failed_cases"].size());
    for (const auto& c : run["failed_cases"]) {
      md +=
          fmt::format("- `{}`: {}\n", c["case"].get<std::string>(), c["reason"].get<std::string>());
    }
  }
}

// Where one output's failures are: by lane and by part of the call.
void md_faults(std::string& md, const json& o) {
  if (o.contains("faults") && o["faults"]["fails"].get<std::int64_t>() > 0) {
    const json& f = o["faults"];
    std::string lanes, parts;
    for (const auto& l : f["by_lane"])
      lanes += fmt::format(" {}:{}", show(l["lane"]), show(l["fails"]));
    for (const auto& p : f["by_part"])
      parts += fmt::format(" {}:{}", show(p["part"]), show(p["fails"]));
    md += fmt::format(
        "\nWhere the failures are — by lane (mod {}):{}; by part of the call:{} "
        "(report.html draws the map over the tensor).\n",
        show(f["vector_lanes"]), lanes, parts);
  }
}

// One output of a kernel: its families, its worst output, its faults and failures.
void md_output(std::string& md, const std::string& name, const json& o) {
  md += fmt::format("\n### {} ({}, α/u = {})\n\n", name, o["format"].get<std::string>(),
                    show(o["alpha_over_u"]));
  md +=
      "| family | mode | outputs | fails | max ULP error | max normalised error | max κ | max "
      "bound use |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|\n";
  for (const auto& f : o["by_family"]) {
    const json& s = f["stats"];
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} |\n", f["family"].get<std::string>(),
                      f["mode"].get<std::string>(), show(s["outputs"]), show(s["fails"]),
                      show(s["max_ulp_error"]), show(s["max_normalised_error"]),
                      show(s["max_kappa"]), show(s["max_bound_use"]));
  }
  if (!o["worst"].is_null()) {
    md += fmt::format("\nWorst: {}", o["worst"]["message"].get<std::string>());
    if (o["worst"].contains("reproducer")) {
      md += fmt::format("\nReproducer: `{}/` (`bngcert check --dir {}`)",
                        o["worst"]["reproducer"].get<std::string>(),
                        o["worst"]["reproducer"].get<std::string>());
    }
    md += "\n";
  }
  md_faults(md, o);
  if (!o["failures"].empty()) {
    md += fmt::format("\nFailures (first {} of {}):\n\n", o["failures"].size(),
                      show(o["stats"]["fails"]));
    for (const auto& f : o["failures"])
      md += fmt::format("- {}\n", f["message"].get<std::string>());
  }
}

// One kernel: its verdict, α, calls, call errors and each output.
void md_kernel(std::string& md, const json& k) {
  md += fmt::format("\n## {} — {}\n\nα = {} ({}). {} cases; calls:", k["name"].get<std::string>(),
                    verdict_word(k["pass"].get<bool>()), k["alpha_hex"].get<std::string>(),
                    show(k["alpha"]), show(k["cases"]));
  for (const auto& [ep, n] : k["calls"].items()) md += fmt::format(" {} ×{};", ep, show(n));
  md += "\n";
  for (const auto& m : k["call_error_messages"])
    md += fmt::format("\n- call error: {}", m.get<std::string>());
  for (const auto& [name, o] : k["outputs"].items()) md_output(md, name, o);
}

}  // namespace

std::string render_markdown(const json& r) {
  std::string md = "# BatchNormGrad error report\n\n";
  md_verdict(md, r);
  md_summary(md, r);
  for (const auto& k : r["kernels"]) md_kernel(md, k);
  return md;
}

}  // namespace bng::cert
