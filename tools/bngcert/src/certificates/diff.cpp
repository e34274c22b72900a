// `bngcert diff OLD NEW`: release-to-release comparison of two report.json or
// two certificate.json files. Rows are kernel × output (× family and mode, for
// reports); each row compares failures, worst bound use, the shares correctly
// rounded and within 1 ulp, and the golden-data metrics. Any change for the
// worse is a regression (exit 1): with the same campaign and seed the numbers
// are deterministic, so a worse number is a real change, not noise. Runs
// judged at another α than the kernels' declared one are not compared at all.
#include "diff.hpp"

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "cli.hpp"
#include "json_input.hpp"
#include "release_verdict.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

struct DiffError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Which way is better for one compared figure.
enum class Better : std::uint8_t { lower, higher };
struct Field {
  const char* name;  // as printed
  const char* key;   // in stats or metrics
  bool in_metrics;
  Better better;
};
constexpr Field kFields[] = {
    {"fails", "fails", false, Better::lower},
    {"worst bound use", "max_bound_use", false, Better::lower},
    {"share correctly rounded", "share_correctly_rounded", true, Better::higher},
    {"share within 1 ulp", "share_within_1ulp", true, Better::higher},
    {"cosine similarity", "cosine_similarity", true, Better::higher},
    {"max rel. error", "max_rel_error", true, Better::lower},
    {"mean rel. error", "mean_rel_error", true, Better::lower},
    {"share rel. error > 1e-3", "share_rel_error_over_1e-3", true, Better::lower},
    {"share rel. error > 1e-4", "share_rel_error_over_1e-4", true, Better::lower},
    {"max abs. error", "max_abs_error", true, Better::lower},
};

// A row's figures: stats and metrics objects (metrics may be absent in older files).
struct Row {
  json stats, metrics;
};

json read_document(const std::filesystem::path& p) {
  json j;
  try {
    j = read_json_file(p, kMaxJsonBytes);
  } catch (const InputError& e) {
    throw DiffError(e.what());
  }
  if (!j.is_object()) throw DiffError(fmt::format("{}: not a JSON object", p.string()));
  return j;
}

// A report number: a JSON number or "inf"/"-inf"/"nan"; nullopt when absent.
std::optional<double> value_of(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  return std::nullopt;
}

void add_kernel_rows(std::map<std::string, Row>& rows, const std::string& prefix,
                     const json& kernels, bool report) {
  for (const auto& k : kernels) {
    const std::string kernel =
        prefix + (report ? k.value("name", "?")
                         : fmt::format("{}/{}", k.value("target", "?"), k.value("combo", "?")));
    const json outputs = k.value("outputs", json::object());  // alive for the loop
    for (const auto& [output, o] : outputs.items()) {
      // Certificates keep the stats fields at the output's top level.
      const json stats = report ? o.value("stats", json::object()) : o;
      const json metrics = o.value("metrics", json::object());
      rows[fmt::format("{} {}", kernel, output)] = {stats, metrics};
      if (!report) continue;
      const json families = o.value("by_family", json::array());
      for (const auto& f : families) {
        const json fs = f.value("stats", json::object());
        rows[fmt::format("{} {} {} {}", kernel, output, f.value("family", "?"),
                         f.value("mode", "?"))] = {fs, fs.value("metrics", json::object())};
      }
    }
    rows[kernel + " calls"] = {{{"fails", k.value("call_errors", 0)}, {"max_bound_use", 0}},
                               json::object()};
  }
}

// The kernels of a document, each with the prefix of its row names: a report
// holds one list; a certificate one per run, named by the run's ISA path when
// it has several (certify --isa all), so that a one-run certificate of the
// host compares with one of a board run.
std::vector<std::pair<std::string, json>> kernel_lists(const json& doc, bool report) {
  if (report) return {{"", doc.value("kernels", json::array())}};
  const json runs = doc.value("runs", json::array());
  std::vector<std::pair<std::string, json>> lists;
  for (const auto& run : runs) {
    const json isa = run.value("isa", json());
    const bool named = runs.size() > 1 && isa.is_object();
    lists.emplace_back(named ? isa.value("path", "?") + " " : "",
                       run.value("kernels", json::array()));
  }
  return lists;
}

std::map<std::string, Row> rows_of(const json& doc, bool report) {
  std::map<std::string, Row> rows;
  for (const auto& [prefix, kernels] : kernel_lists(doc, report)) {
    add_kernel_rows(rows, prefix, kernels, report);
  }
  return rows;
}

// What about the run must match for numbers to be comparable.
json campaign_identity(const json& doc, bool report) {
  const json run =
      report ? doc.value("run", json::object()) : doc.value("campaign", json::object());
  json id = json::object();
  // Not "kind": a board run over a pack compares with the host campaign it was
  // exported from (the same cases, so the same numbers when the board is right).
  for (const char* key : {"seed", "cases_per_series", "max_size", "targets", "functions", "modes",
                          "families", "batch", "channel", "mode"}) {
    if (!run.contains(key)) continue;
    if (std::string_view(key) == "families" &&
        report) {  // reports hold objects, certificates names
      json names = json::array();
      for (const auto& f : run[key])
        names.push_back(f.is_object() ? json(f.value("name", "?")) : f);
      id[key] = names;
    } else {
      id[key] = run[key];
    }
  }
  return id;
}

std::string show_value(std::optional<double> v) {
  if (!v) return "—";
  return fmt::format("{:.6g}", *v);
}

// Both files of the same schema and schema version; returns the schema.
std::string check_schemas(const DiffOptions& o, const json& old_doc, const json& new_doc) {
  const std::string schema = old_doc.value("schema", "");
  if (schema != "bngcert-report" && schema != "bngcert-certificate") {
    throw DiffError(fmt::format("{}: not a bngcert report or certificate (schema '{}')",
                                o.old_file.string(), schema));
  }
  if (new_doc.value("schema", "") != schema) {
    throw DiffError(fmt::format(
        "{} is a {} but {} is a {}: compare report with report, certificate with certificate",
        o.old_file.string(), schema, o.new_file.string(), new_doc.value("schema", "?")));
  }
  if (old_doc.value("schema_version", 0) != new_doc.value("schema_version", 0)) {
    throw DiffError(fmt::format(
        "schema versions differ ({} {} vs {}): regenerate the old one with this bngcert, or "
        "compare with the bngcert that wrote both",
        schema, old_doc.value("schema_version", 0), new_doc.value("schema_version", 0)));
  }
  return schema;
}

// Only verdicts judged at the kernels' declared α are compared: at another
// α (check --alpha, or an older check that took α from params.json) the
// failures and bound use measure against another bound, and a "better"
// would only say that the bound was looser.
void require_release_verdicts(const DiffOptions& o, const json& old_doc, const json& new_doc) {
  for (const auto& [doc, file] : {std::pair{&old_doc, &o.old_file}, {&new_doc, &o.new_file}}) {
    ReleaseStatus release;
    try {
      release = recorded_release_status(*doc, file->string());
    } catch (const InputError& e) {
      throw DiffError(e.what());
    }
    if (!release.is_release_verdict) {
      throw DiffError(fmt::format(
          "{}: {}. diff compares runs judged at the kernels' declared α only: at another α "
          "its failures and bound use are measured against another bound, so no figure of it "
          "can improve on a release's or fall short of it (judge the outputs again without "
          "--alpha)",
          file->string(), release.note));
    }
  }
}

// Where the two runs' campaigns differ: refused, or (--allow-different-campaigns) a note.
void compare_campaigns(const DiffOptions& o, const json& old_id, const json& new_id,
                       std::vector<std::string>& notes) {
  const std::string what = differing_keys(new_id, old_id, KeyValues::shown);
  if (!o.allow_different_campaigns) {
    throw DiffError(fmt::format(
        "the runs differ in: {} — their numbers are not like for like. Compare runs of the "
        "same campaign, or pass --allow-different-campaigns to compare rows both have",
        what));
  }
  notes.push_back(
      fmt::format("the runs differ in: {}; compared only the rows both have, as asked", what));
}

struct Change {
  std::string row, field, old_v, new_v;
  bool worse;
};
struct Comparison {
  std::vector<Change> changes;
  std::vector<std::string> missing, added;  // rows of OLD only, of NEW only
};

Comparison compare_rows(const std::map<std::string, Row>& old_rows,
                        const std::map<std::string, Row>& new_rows) {
  Comparison cmp;
  std::vector<Change>& changes = cmp.changes;
  std::vector<std::string>& missing = cmp.missing;
  std::vector<std::string>& added = cmp.added;
  for (const auto& [name, a] : old_rows) {
    const auto it = new_rows.find(name);
    if (it == new_rows.end()) {
      missing.push_back(name);
      continue;
    }
    const Row& b = it->second;
    for (const Field& f : kFields) {
      const json& sa = f.in_metrics ? a.metrics : a.stats;
      const json& sb = f.in_metrics ? b.metrics : b.stats;
      const auto va = value_of(sa.value(f.key, json())), vb = value_of(sb.value(f.key, json()));
      if (!va && !vb) continue;
      const bool same = va && vb && (*va == *vb || (std::isnan(*va) && std::isnan(*vb)));
      if (same) continue;
      bool worse = false;
      if (va && vb) {
        worse = f.better == Better::lower ? (*vb > *va || (std::isnan(*vb) && !std::isnan(*va)))
                                          : (*vb < *va || (std::isnan(*vb) && !std::isnan(*va)));
      } else {
        worse = va.has_value();  // a figure NEW no longer has
      }
      changes.push_back({name, f.name, show_value(va), show_value(vb), worse});
    }
  }
  for (const auto& [name, b] : new_rows) {
    if (!old_rows.count(name)) added.push_back(name);
  }
  return cmp;
}

// The comparison as text or Markdown, ending with the count of regressions.
std::string render_diff(const DiffOptions& o, const std::string& schema,
                        const std::vector<std::string>& notes, const Comparison& cmp,
                        std::int64_t regressions) {
  const std::vector<Change>& changes = cmp.changes;
  const std::vector<std::string>& missing = cmp.missing;
  const std::vector<std::string>& added = cmp.added;
  std::string out;
  const bool md = o.format == "markdown";
  out += md ? fmt::format("# bngcert diff\n\n`{}` → `{}` ({}s)\n\n", o.old_file.string(),
                          o.new_file.string(), schema.substr(8))
            : fmt::format("bngcert diff: {} -> {} ({}s)\n", o.old_file.string(),
                          o.new_file.string(), schema.substr(8));
  for (const auto& n : notes) out += md ? fmt::format("> Note: {}\n\n", n) : "note: " + n + "\n";
  if (changes.empty() && missing.empty() && added.empty()) {
    out += md ? "No change: every compared figure is identical.\n"
              : "no change: every compared figure is identical\n";
  }
  if (!changes.empty()) {
    if (md) out += "| row | figure | old | new | |\n|---|---|---:|---:|---|\n";
    for (const auto& c : changes) {
      const char* verdict = c.worse ? "REGRESSION" : "better";
      out +=
          md ? fmt::format("| {} | {} | {} | {} | {} |\n", c.row, c.field, c.old_v, c.new_v,
                           verdict)
             : fmt::format("{:<11} {}: {} {} -> {}\n", verdict, c.row, c.field, c.old_v, c.new_v);
    }
  }
  for (const auto& m : missing) {
    out += md ? fmt::format("\n- REGRESSION: `{}` is in OLD but not in NEW", m)
              : fmt::format("REGRESSION  {}: in OLD, missing from NEW\n", m);
  }
  for (const auto& a : added) {
    out += md ? fmt::format("\n- new in NEW: `{}`", a) : fmt::format("new         {}\n", a);
  }
  out +=
      md ? fmt::format("\n\n**{}** — {} regressions, {} changes.\n",
                       regressions ? "REGRESSION" : "NO REGRESSION", regressions, changes.size())
         : fmt::format("{} — {} regressions, {} changes\n",
                       regressions ? "REGRESSION" : "no regression", regressions, changes.size());
  return out;
}

}  // namespace

int run_diff(const DiffOptions& o) {
  try {
    const json old_doc = read_document(o.old_file), new_doc = read_document(o.new_file);
    const std::string schema = check_schemas(o, old_doc, new_doc);
    require_release_verdicts(o, old_doc, new_doc);
    const bool report = schema == "bngcert-report";
    const json old_id = campaign_identity(old_doc, report),
               new_id = campaign_identity(new_doc, report);
    std::vector<std::string> notes;
    if (old_id != new_id) compare_campaigns(o, old_id, new_id, notes);
    const auto old_rows = rows_of(old_doc, report), new_rows = rows_of(new_doc, report);
    Comparison cmp = compare_rows(old_rows, new_rows);
    if (o.allow_different_campaigns && old_id != new_id) cmp.missing.clear();  // not comparable

    std::int64_t regressions = static_cast<std::int64_t>(cmp.missing.size());
    for (const auto& c : cmp.changes) regressions += c.worse;
    fmt::print("{}", render_diff(o, schema, notes, cmp, regressions));
    return regressions ? kExitFail : kExitPass;
  } catch (const DiffError& e) {
    fmt::print(stderr, "bngcert: diff: {}\n", e.what());
    return kExitError;
  }
}

}  // namespace bng::cert