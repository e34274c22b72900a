#include "certificate.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "input_file.hpp"
#include "json_input.hpp"
#include "kernel.hpp"
#include "reference_run.hpp"
#include "render_common.hpp"
#include "report.hpp"
#include "sha256.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

std::string verdict_of(const json& verdict) {
  if (verdict.value("partial", false)) return "partial";
  return verdict["pass"].get<bool>() ? "pass" : "fail";
}

// One run's kernels, verdict and first failures.
// A report kernel's "correctly_rounded" list as the certificate states it:
// each entry one of the "<mode> <output>" names bngcert writes ([] in older
// reports without it). The reports of `certify --isa all` are read back from
// files, so anything else is refused rather than certified.
json recorded_correctly_rounded(const json& k) {
  if (!has_member(k, "correctly_rounded")) return json::array();
  const std::string where = "a report kernel's 'correctly_rounded'";
  json out = json::array();
  for (const json& v : array_field(k, "correctly_rounded", "a report kernel")) {
    if (!v.is_string() || !names_output_class(v.get<std::string>())) {
      throw InputError(fmt::format("{}: {} names no output of a call", where, v.dump()));
    }
    out.push_back(v);
  }
  return out;
}

json run_json(const json& report) {
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
                       {"isa", k.value("isa", json(nullptr))},
                       {"alpha", k["alpha"]},
                       {"alpha_hex", k["alpha_hex"]},
                       {"declared_alpha", k["declared_alpha"]},
                       {"declared_alpha_hex", k["declared_alpha_hex"]},
                       {"correctly_rounded", recorded_correctly_rounded(k)},
                       {"cases", k["cases"]},
                       {"calls", k["calls"]},
                       {"call_errors", k["call_errors"]},
                       {"outputs", outs},
                       {"verdict", k["pass"].get<bool>() ? "pass" : "fail"}});
  }
  const json& run = report["run"];
  const bool campaign = run.value("kind", "") == "campaign";
  json r = {{"isa", campaign ? report["build"]["isa"] : json(nullptr)},
            {"verdict", verdict_of(report["verdict"])},
            {"started_utc", run["started_utc"]},
            {"duration_s", run["duration_s"]},
            {"cases", run["cases"]},
            {"outputs", run["outputs"]},
            {"failed_outputs", report["verdict"]["failed_outputs"]},
            {"call_errors", report["verdict"]["call_errors"]},
            {"reference", run.contains("reference") ? run["reference"] : json(nullptr)},
            {"kernels", kernels},
            {"first_failures", failures}};
  if (run.contains("sharding")) r["sharding"] = run["sharding"];
  return r;
}

// The files judged, without what differs per run (the path each ran on).
json judged_libraries(const std::vector<json>& reports) {
  json libs = reports.front()["build"]["libraries"];
  for (auto& [target, lib] : libs.items()) lib.erase("isa_ran");
  for (const json& r : reports) {
    for (const auto& [target, lib] : r["build"]["libraries"].items()) {
      if (!libs.contains(target) || lib.value("sha256", "") != libs[target].value("sha256", "")) {
        throw std::runtime_error(fmt::format(
            "the runs judged different {} library files: one certificate cannot cover them",
            target));
      }
    }
  }
  return libs;
}

json campaign_json(const json& run) {
  json campaign = {{"kind", run["kind"]}};
  for (const char* key : {"seed", "cases_per_series", "max_size", "targets", "functions", "modes",
                          "input_dir", "inputs", "batch", "channel", "mode", "alpha_source"}) {
    if (run.contains(key)) campaign[key] = run[key];
  }
  if (run.contains("families")) {
    json names = json::array();
    for (const auto& f : run["families"]) names.push_back(f["name"]);
    campaign["families"] = names;
  }
  return campaign;
}

}  // namespace

std::string certificate_digest(const json& certificate) {
  json body = certificate;
  body.erase("digest");
  return sha256_hex(body.dump());
}

json certificate_json(const std::vector<json>& reports) {
  if (reports.empty()) throw std::runtime_error("a certificate needs at least one report");
  json runs = json::array();
  bool pass = true, partial = false, release = true;
  std::string release_note;
  std::int64_t failed = 0, call_errors = 0;
  for (const json& r : reports) {
    runs.push_back(run_json(r));
    pass = pass && r["verdict"]["pass"].get<bool>();
    partial = partial || r["verdict"].value("partial", false);
    failed += r["verdict"]["failed_outputs"].get<std::int64_t>();
    call_errors += r["verdict"]["call_errors"].get<std::int64_t>();
    // Every run's note when they differ (one per ISA path), once when they agree.
    const std::string note = r["verdict"]["release_note"].get<std::string>();
    if (release_note.find(note) == std::string::npos)
      release_note += (release_note.empty() ? "" : "; ") + note;
    release = release && r["verdict"]["is_release_verdict"].get<bool>();
  }
  json c = {
      {"schema", "bngcert-certificate"},
      {"schema_version", kCertificateSchemaVersion},
      {"verdict", partial ? "partial"
                  : pass  ? "pass"
                          : "fail"},
      // A release verdict only when every kernel was judged at its declared α
      // (release_verdict.hpp); `bngcert verify` exits 0 on nothing else.
      {"is_release_verdict", release},
      {"release_note", release_note},
      {"criterion",
       fmt::format("every output y within 1·ulp(y*) + α·M of the exact reference y* (SPEC §5), "
                   "α {}{}; every valid call returns 0 and writes only its outputs; on every ISA "
                   "path listed",
                   release ? "the kernel's declared bound"
                           : "as given for investigation (NOT the kernel's declared bound)",
                   release ? ", and y = RN(y*) bit for bit where RN(y*) is finite for the "
                             "outputs each kernel declares correctly rounded (its "
                             "correctly_rounded list)"
                           : "")},
      {"build",
       {{"tool", reports.front()["build"]["tool"]}, {"libraries", judged_libraries(reports)}}},
      {"campaign", campaign_json(reports.front()["run"])},
      {"runs", runs},
      {"failed_outputs", failed},
      {"call_errors", call_errors}};
  c["digest"] = {{"algorithm", "sha256"},
                 {"over", "this JSON without \"digest\", compact, keys sorted (nlohmann dump)"},
                 {"value", certificate_digest(c)}};
  return c;
}

// One certificate kernel's rows of the markdown "Kernels" table, one per output.
std::string kernel_rows_markdown(const json& k) {
  std::string rounded, md;
  for (const auto& o : k.value("correctly_rounded", json::array()))
    rounded += (rounded.empty() ? "" : ", ") + o.get<std::string>();
  for (const auto& [name, o] : k["outputs"].items()) {
    md += fmt::format(
        "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        k["isa"].is_null() ? "—" : k["isa"].get<std::string>(), k["target"].get<std::string>(),
        k["combo"].get<std::string>(), k["alpha_hex"].get<std::string>(),
        rounded.empty() ? "—" : rounded, show(k["cases"]), name, show(o["outputs"]),
        show(o["fails"]), show(o["max_ulp_error"]), show(o["max_normalised_error"]),
        show(o["max_kappa"]), show(o["max_bound_use"]), k["verdict"].get<std::string>());
  }
  return md;
}

std::string render_certificate_markdown(const json& c) {
  const json& run = c["campaign"];
  const bool pass = c["verdict"] == "pass";
  const bool partial = c["verdict"] == "partial";
  const bool release = c["is_release_verdict"].get<bool>();
  const std::string word =
      (partial ? "PARTIAL" : verdict_word(pass)) + (release ? "" : " — NOT a release verdict");
  std::string md = fmt::format("# BatchNormGrad accuracy certificate — {}\n\n", word);
  if (!release) md += fmt::format("> {}\n\n", c["release_note"].get<std::string>());
  for (const auto& r : c["runs"]) {
    if (!r.contains("sharding")) continue;
    const json& sh = r["sharding"];
    std::string missing;
    for (const auto& k : sh["missing"])
      missing += fmt::format(" {}/{}", k.get<int>(), show(sh["count"]));
    md += fmt::format(
        "Merged from {} of {} shards{}{}.{}\n\n", sh["shards"].size(), show(sh["count"]),
        r["isa"].is_null() ? "" : " on " + r["isa"]["path"].get<std::string>(),
        missing.empty() ? "" : "; missing:" + missing,
        missing.empty() ? "" : " A partial merge judged only part of the run: it never passes.");
  }
  md += fmt::format("Criterion: {}.\n\n", c["criterion"].get<std::string>());
  md += "## Build\n\n| | |\n|---|---|\n";
  for (const auto& [label, value] : build_rows(c["build"]))
    md += fmt::format("| {} | {} |\n", label, value);
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
      "\n## Runs\n\n| ISA path | outputs | failed outputs | failed calls | judged by | took | "
      "verdict |\n"
      "|---|---:|---:|---:|---|---:|---|\n";
  for (const auto& r : c["runs"]) {
    md += fmt::format("| {} | {} | {} | {} | {} | {:.1f} s | {} |\n",
                      r["isa"].is_null() ? "— (files)" : r["isa"]["path"].get<std::string>(),
                      show(r["outputs"]), show(r["failed_outputs"]), show(r["call_errors"]),
                      reference_words(r), r.value("duration_s", 0.0),
                      r["verdict"].get<std::string>());
  }
  md +=
      "\n## Kernels\n\n| ISA path | target | combo | α | correctly rounded | cases | output | "
      "outputs | fails | max ULP error | max normalised error | max κ | max bound use | verdict |\n"
      "|---|---|---|---|---|---:|---|---:|---:|---:|---:|---:|---:|---|\n";
  for (const auto& r : c["runs"]) {
    for (const auto& k : r["kernels"]) md += kernel_rows_markdown(k);
  }
  md += fmt::format(
      "\n## Verdict: {}\n\n{} outputs failed their kernel's criterion, {} failed calls{}.\n", word,
      show(c["failed_outputs"]), show(c["call_errors"]), partial ? "; shards missing (above)" : "");
  for (const auto& r : c["runs"]) {
    if (r["first_failures"].empty()) continue;
    md += fmt::format(
        "\nFirst failures{} (report.md lists more, reproducers/ holds the worst "
        "cases):\n\n",
        r["isa"].is_null() ? "" : " on " + r["isa"]["path"].get<std::string>());
    for (const auto& f : r["first_failures"]) md += fmt::format("- {}\n", f.get<std::string>());
  }
  md += fmt::format(
      "\nDigest (SHA-256 of certificate.json without its digest): `{}`. `bngcert verify` "
      "checks it and the library files; docs/certification.md says how to sign it.\n",
      c["digest"]["value"].get<std::string>());
  return md;
}

bool write_certificate(const std::filesystem::path& dir, const std::vector<json>& reports) {
  const json c = certificate_json(reports);
  write_text(dir / "certificate.json", c.dump(2) + "\n");
  write_text(dir / "certificate.md", render_certificate_markdown(c));
  return c["verdict"] == "pass";
}

}  // namespace bng::cert
