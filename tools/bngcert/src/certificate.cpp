#include "certificate.hpp"

#include <fmt/format.h>

#include "render_common.hpp"
#include "report.hpp"

namespace bng::cert {

using nlohmann::json;

json certificate_json(const json& report) {
  json kernels = json::array();
  json failures = json::array();
  for (const auto& k : report["kernels"]) {
    json outs = json::object();
    for (const auto& [name, o] : k["outputs"].items()) {
      const json& s = o["stats"];
      outs[name] = {{"outputs", s["outputs"]},
                    {"fails", s["fails"]},
                    {"max_ulp_error", s["max_ulp_error"]},
                    {"max_normalised_error", s["max_normalised_error"]},
                    {"max_kappa", s["max_kappa"]},
                    {"max_bound_use", s["max_bound_use"]},
                    {"metrics", o.value("metrics", json::object())}};
      for (const auto& f : o["failures"]) {
        if (failures.size() < 10) failures.push_back(f["message"]);
      }
    }
    for (const auto& m : k["call_error_messages"]) {
      if (failures.size() < 10) failures.push_back(m);
    }
    kernels.push_back({{"target", k["target"]},
                       {"combo", k["combo"]},
                       {"alpha", k["alpha"]},
                       {"alpha_hex", k["alpha_hex"]},
                       {"cases", k["cases"]},
                       {"calls", k["calls"]},
                       {"call_errors", k["call_errors"]},
                       {"outputs", outs},
                       {"verdict", k["pass"].get<bool>() ? "pass" : "fail"}});
  }
  const json& run = report["run"];
  json campaign = {{"kind", run["kind"]},
                   {"started_utc", run["started_utc"]},
                   {"duration_s", run["duration_s"]},
                   {"cases", run["cases"]},
                   {"outputs", run["outputs"]}};
  for (const char* key : {"seed", "cases_per_series", "max_size", "targets", "functions", "modes",
                          "input_dir", "inputs", "batch", "channel", "mode", "alpha_source"}) {
    if (run.contains(key)) campaign[key] = run[key];
  }
  if (run.contains("families")) {
    json names = json::array();
    for (const auto& f : run["families"]) names.push_back(f["name"]);
    campaign["families"] = names;
  }
  const bool pass = report["verdict"]["pass"].get<bool>();
  return {{"schema", "bngcert-certificate"},
          {"schema_version", kCertificateSchemaVersion},
          {"verdict", pass ? "pass" : "fail"},
          {"criterion",
           "every output y within 1·ulp(y*) + α·M of the exact reference y* (SPEC §5), α the "
           "kernel's declared bound; every valid call returns 0 and writes only its outputs"},
          {"build", report["build"]},
          {"campaign", campaign},
          {"kernels", kernels},
          {"failed_outputs", report["verdict"]["failed_outputs"]},
          {"call_errors", report["verdict"]["call_errors"]},
          {"first_failures", failures}};
}

std::string render_certificate_markdown(const json& c) {
  const json& b = c["build"];
  const json& run = c["campaign"];
  const bool pass = c["verdict"] == "pass";
  std::string md = fmt::format("# BatchNormGrad accuracy certificate — {}\n\n", verdict_word(pass));
  md += fmt::format("Criterion: {}.\n\n", c["criterion"].get<std::string>());
  md += "## Build\n\n| | |\n|---|---|\n";
  md += fmt::format("| library version | {} |\n", b["library_version"].get<std::string>());
  md += fmt::format("| git commit | `{}`{} |\n", b["git_commit"].get<std::string>(),
                    b["git_dirty"].get<bool>()
                        ? " **dirty** (uncommitted changes: not a release build)"
                        : " (clean)");
  md += fmt::format("| compiler | {} |\n| flags | `{}` ({}) |\n", b["compiler"].get<std::string>(),
                    b["cxx_flags"].get<std::string>(), b["build_type"].get<std::string>());
  md += fmt::format("| ISA path | {}{} |\n", b["isa"].get<std::string>(),
                    b["isa_forced_portable"].get<bool>() ? " (forced by BNG_ISA=portable)" : "");
  for (const auto& [t, p] : b["libraries"].items())
    md += fmt::format("| {} library | `{}` |\n", t, p.get<std::string>());
  md += "\n## Campaign\n\n| | |\n|---|---|\n";
  for (const auto& [key, v] : run.items()) {
    if (key == "inputs") {  // one row per file, not a JSON blob
      for (const auto& [name, f] : v.items()) {
        md += fmt::format("| input {} | `{}` {} {} |\n", name, f["path"].get<std::string>(),
                          f["dtype"].get<std::string>(), f["shape"].dump());
      }
      continue;
    }
    md += fmt::format("| {} | {} |\n", key, v.is_string() ? v.get<std::string>() : v.dump());
  }
  md +=
      "\n## Kernels\n\n| target | combo | α | cases | output | outputs | fails | max ULP error | "
      "max normalised error | max κ | max bound use | verdict |\n"
      "|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& k : c["kernels"]) {
    for (const auto& [name, o] : k["outputs"].items()) {
      md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                        k["target"].get<std::string>(), k["combo"].get<std::string>(),
                        k["alpha_hex"].get<std::string>(), show(k["cases"]), name,
                        show(o["outputs"]), show(o["fails"]), show(o["max_ulp_error"]),
                        show(o["max_normalised_error"]), show(o["max_kappa"]),
                        show(o["max_bound_use"]), k["verdict"].get<std::string>());
    }
  }
  md += fmt::format("\n## Verdict: {}\n\n{} outputs beyond the bound, {} failed calls.\n",
                    verdict_word(pass), show(c["failed_outputs"]), show(c["call_errors"]));
  if (!c["first_failures"].empty()) {
    md += "\nFirst failures (report.md lists more, reproducers/ holds the worst cases):\n\n";
    for (const auto& f : c["first_failures"]) md += fmt::format("- {}\n", f.get<std::string>());
  }
  return md;
}

bool write_certificate(const std::filesystem::path& dir, const json& report) {
  const json c = certificate_json(report);
  std::filesystem::create_directories(dir);
  write_text(dir / "certificate.json", c.dump(2) + "\n");
  write_text(dir / "certificate.md", render_certificate_markdown(c));
  return c["verdict"] == "pass";
}

}  // namespace bng::cert
