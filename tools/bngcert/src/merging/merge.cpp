// `bngcert merge`: shard directories (shard_dir.hpp) into the report and
// certificate one unsharded run would have written. The tallies merge exactly
// (tally.hpp: associative, ties broken by each case's place in the whole run),
// so the result does not depend on how the run was split. Nothing a shard
// claims is believed: the plan is derived from the shards' shared campaign
// record, and each shard must hold exactly its share of it with tallies that
// add up to its case records (shard_checks.hpp); every count reported comes
// from the tallies. Shards that do not belong together are refused, naming
// the culprit: another command, build, seed or set of options, another split,
// another ISA path, a shard given twice, one missing. --recheck N judges N
// cases of every shard again here (recheck.hpp). --partial merges what is
// there into a PARTIAL verdict, never a pass.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "bng/optimized/isa.hpp"
#include "campaign_record.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "json_input.hpp"
#include "output_file.hpp"
#include "recheck.hpp"
#include "report.hpp"
#include "shard_checks.hpp"
#include "shard_dir.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A shard's descriptive fields (host, times), read without trusting their type.
std::string text_or(const json& o, const char* key, const std::string& fallback) {
  return has_member(o, key) && o[key].is_string() ? o[key].get<std::string>() : fallback;
}
double number_or(const json& o, const char* key, double fallback) {
  return has_member(o, key) && o[key].is_number() ? o[key].get<double>() : fallback;
}

// The shard directories named on the command line: each one itself, or, for a
// directory that holds no shard.json but subdirectories that do (what
// `certify --isa all --shard` writes: one per ISA path), those.
std::vector<std::filesystem::path> shard_dirs(const std::vector<std::filesystem::path>& given,
                                              bool partial) {
  std::vector<std::filesystem::path> dirs;
  for (const auto& d : given) {
    if (std::filesystem::exists(d / kShardFile)) {
      dirs.push_back(d);
      continue;
    }
    std::vector<std::filesystem::path> inner;
    if (std::filesystem::is_directory(d)) {
      for (const auto& e : std::filesystem::directory_iterator(d)) {
        if (e.is_directory() && std::filesystem::exists(e.path() / kShardFile))
          inner.push_back(e.path());
      }
    }
    std::sort(inner.begin(), inner.end());
    if (inner.empty() && !partial) {
      throw MergeError(fmt::format(
          "{}: no {}: not a shard directory, or its shard did not finish (--partial merges "
          "without it)",
          d.string(), kShardFile));
    }
    if (inner.empty()) {
      fmt::print(stderr, "bngcert: merge: {}: no {}; its shard counts as missing\n", d.string(),
                 kShardFile);
    }
    dirs.insert(dirs.end(), inner.begin(), inner.end());
  }
  return dirs;
}

// The build that ran a shard, without what may differ between the shards of
// one run: the ISA path (shards of `--isa all` group by it) and where a
// library file lies.
json comparable_build(const json& build) {
  json b = {{"tool", build.value("tool", json())}, {"libraries", json::object()}};
  if (build.contains("libraries") && build["libraries"].is_object()) {
    for (const auto& [target, lib] : build["libraries"].items()) {
      b["libraries"][target] = lib.value("sha256", lib.dump());
    }
  }
  return b;
}

json seed_of(const json& identity) {
  if (identity.contains("seed")) return identity["seed"];
  return identity.value("campaign", json::object()).value("seed", json());
}

// Refuses a shard that does not belong with the first one.
void check_belongs(const ShardRecord& first, const ShardRecord& r) {
  const auto refuse = [&](const std::string& what) {
    return MergeError(
        fmt::format("{} does not belong with {}: {}", r.dir.string(), first.dir.string(), what));
  };
  if (r.command != first.command) {
    throw refuse(fmt::format("it is a shard of `{}`, not of `{}`", r.command, first.command));
  }
  if (r.shard.count != first.shard.count) {
    throw refuse(fmt::format("it is shard {} of a run split {} ways, not {}", r.shard.label(),
                             r.shard.count, first.shard.count));
  }
  if (seed_of(r.identity) != seed_of(first.identity)) {
    throw refuse(fmt::format("seed {} against {}", seed_of(r.identity).dump(),
                             seed_of(first.identity).dump()));
  }
  if (r.identity != first.identity) {
    throw refuse(fmt::format("different options ({})", differing_keys(r.identity, first.identity)));
  }
  const json a = comparable_build(first.build), b = comparable_build(r.build);
  if (a["tool"] != b["tool"]) {
    throw refuse(fmt::format("another bngcert build ran it (commit {} against {})",
                             b["tool"].value("git_commit", "?"),
                             a["tool"].value("git_commit", "?")));
  }
  if (a["libraries"] != b["libraries"]) {
    throw refuse(fmt::format("it judged other library files ({} against {})", b["libraries"].dump(),
                             a["libraries"].dump()));
  }
}

// The ISA path a shard's kernels ran on; "" for a pack check (it runs no kernel).
std::string isa_path(const ShardRecord& r) {
  if (r.command == "check") return "";
  const json& isa = has_member(r.build, "isa") ? r.build["isa"] : json::object();
  return has_member(isa, "path") && isa["path"].is_string() ? isa["path"].get<std::string>() : "?";
}

// Shards of `certify --isa all --shard` group by path, one run per path; the
// shards of any other run must all have run on one path, or its certificate
// would name a path that ran only part of it.
std::string isa_group(const ShardRecord& r) {
  const bool every_path = has_member(r.identity, "isa_paths") && r.identity["isa_paths"] == "all";
  return every_path ? isa_path(r) : "";
}

void check_one_path(const std::vector<ShardRecord>& records) {
  if (records.front().command == "check" || !isa_group(records.front()).empty()) return;
  for (const ShardRecord& r : records) {
    if (isa_path(r) != isa_path(records.front())) {
      throw MergeError(fmt::format(
          "shards of one run ran on different ISA paths: {} on {}, {} on {}: a run's shards must "
          "share one path (give each `--isa <path>`, or certify every path with `--isa all`)",
          records.front().shard.label(), isa_path(records.front()), r.shard.label(), isa_path(r)));
    }
  }
}

int isa_rank(const std::string& path) {
  const auto* end = std::end(opt::kIsaPaths);
  return static_cast<int>(std::find(std::begin(opt::kIsaPaths), end, path) -
                          std::begin(opt::kIsaPaths));
}

// The reference path every shard says judged it ("tiered" or "exact"; both
// give the same records, so shards may not mix them only for the report's
// sake: it names one path).
json shards_reference(const std::vector<ShardRecord*>& shards, const std::string& where) {
  std::string path;
  for (const ShardRecord* s : shards) {
    const json& r = s->run.contains("reference") ? s->run["reference"] : json();
    const std::string p = r.is_object() && r.contains("path") && r["path"].is_string()
                              ? r["path"].get<std::string>()
                              : "";
    if (!ref::parse_path(p)) {
      throw MergeError(fmt::format("shard {}{} does not say which reference judged it ({})",
                                   s->shard.label(), where, s->dir.string()));
    }
    if (!path.empty() && p != path) {
      throw MergeError(fmt::format(
          "shards{} were judged by different reference paths ({} and {}): rerun them with one",
          where, path, p));
    }
    path = p;
  }
  return {{"path", path}};
}

// One ISA path's shards, complete or (with --partial) not, as one run.
struct MergedRun {
  json run;
  json build;  // as the shards recorded it
  std::vector<KernelTally> kernels;
  std::vector<int> missing;
};

MergedRun merge_group(const std::string& path, std::vector<ShardRecord*> shards,
                      const CampaignPlan& plan, bool partial) {
  std::sort(shards.begin(), shards.end(), [](const ShardRecord* a, const ShardRecord* b) {
    return a->shard.index < b->shard.index;
  });
  const int count = shards.front()->shard.count;
  const std::string where = path.empty() ? "" : fmt::format(" of the {} run", path);
  for (std::size_t i = 1; i < shards.size(); ++i) {
    if (shards[i]->shard.index == shards[i - 1]->shard.index) {
      throw MergeError(fmt::format("shard {}{} is given twice: {} and {}", shards[i]->shard.label(),
                                   where, shards[i - 1]->dir.string(), shards[i]->dir.string()));
    }
  }
  MergedRun m;
  std::set<int> have;
  for (const ShardRecord* s : shards) have.insert(s->shard.index);
  for (int k = 1; k <= count; ++k) {
    if (!have.contains(k)) m.missing.push_back(k);
  }
  if (!m.missing.empty() && !partial) {
    std::string list;
    for (int k : m.missing) list += fmt::format("{}{}/{}", list.empty() ? "" : ", ", k, count);
    throw MergeError(fmt::format(
        "shard{} {}{} {} missing: rerun {} (or merge with --partial: the verdict is then "
        "PARTIAL, never PASS)",
        m.missing.size() > 1 ? "s" : "", list, where, m.missing.size() > 1 ? "are" : "is",
        m.missing.size() > 1 ? "them" : "it"));
  }

  m.run = shards.front()->run;
  m.build = shards.front()->build;
  m.run.erase("host");
  // What ran is what the plan says, whatever a shard's run record claims.
  m.run["kind"] = shards.front()->command == "check" ? "pack" : "campaign";
  m.run.update(campaign_run_fields(plan.options, plan.families));
  m.run["reference"] = shards_reference(shards, where);
  for (const auto& k : plan.kernels) {  // every shard's tallies are the plan's kernels, in order
    KernelTally t;
    t.kernel = k.kernel;
    m.kernels.push_back(std::move(t));
  }
  double seconds = 0;
  std::string started = m.run.value("started_utc", "");
  json failed = json::array(), parts = json::array();
  for (ShardRecord* s : shards) {
    seconds += number_or(s->run, "duration_s", 0.0);
    started = std::min(started, text_or(s->run, "started_utc", started));
    for (const auto& f : s->failed_cases) failed.push_back(f);
    json part = {{"index", s->shard.index},
                 {"dir", s->dir.string()},
                 {"host", text_or(s->run, "host", "?")},
                 {"started_utc", text_or(s->run, "started_utc", "?")},
                 {"duration_s", number_or(s->run, "duration_s", 0.0)}};
    if (has_member(s->run, "pack")) part["pack"] = s->run["pack"];
    parts.push_back(part);
    for (std::size_t k = 0; k < m.kernels.size(); ++k) m.kernels[k].merge(std::move(s->kernels[k]));
  }
  // Counts from the tallies (checked against every case record), never from a shard's claims.
  std::int64_t cases = 0, outputs = 0;
  for (const KernelTally& k : m.kernels) {
    cases += k.cases;
    for (const auto& o : k.outputs) outputs += o.all.outputs;
  }
  m.run["cases"] = cases;
  m.run["outputs"] = outputs;
  m.run["duration_s"] = seconds;  // work done, summed over the shards
  m.run["started_utc"] = started;
  if (shards.front()->command == "check") {
    std::sort(failed.begin(), failed.end(), [](const json& a, const json& b) {
      return a["index"].get<std::uint64_t>() < b["index"].get<std::uint64_t>();
    });
    json cases_failed = json::array();
    for (const auto& f : failed)
      cases_failed.push_back({{"case", f["case"]}, {"reason", f["reason"]}});
    m.run["failed_cases"] = cases_failed;
  }
  m.run["sharding"] = {{"count", count}, {"shards", parts}, {"missing", m.missing}};
  return m;
}

// Every shard read, checked against the others and against the plan derived
// from their shared campaign record, and (--recheck) judged again in part.
void read_shards(const MergeOptions& o, std::vector<ShardRecord>& records, CampaignPlan& plan,
                 RecheckResult& recheck) {
  for (const auto& dir : shard_dirs(o.shards, o.partial)) records.push_back(read_shard_dir(dir));
  if (records.empty()) throw MergeError("no shard to merge");
  for (const ShardRecord& r : records) check_belongs(records.front(), r);
  check_one_path(records);
  plan = plan_of_identity(records.front());
  for (const ShardRecord& r : records) {
    if (const std::string why = shard_inconsistency(r, plan); !why.empty()) {
      throw MergeError(fmt::format("{} (shard {}): {}", r.dir.string(), r.shard.label(), why));
    }
  }
  std::vector<const ShardRecord*> all;
  for (const ShardRecord& r : records) all.push_back(&r);
  recheck = recheck_shards(all, plan, o.recheck);
  if (!recheck.refusal.empty()) throw MergeError(recheck.refusal);
}

// Each ISA path's shards merged into one run; throws MergeError.
std::vector<MergedRun> merge_paths(const MergeOptions& o, const std::vector<std::string>& paths,
                                   std::map<std::string, std::vector<ShardRecord*>>& groups,
                                   const CampaignPlan& plan, const RecheckResult& recheck) {
  std::vector<MergedRun> runs;
  for (const auto& path : paths) {
    runs.push_back(merge_group(path, groups[path], plan, o.partial));
    if (o.recheck.per_shard > 0) {
      runs.back().run["sharding"]["recheck"] = {{"cases_per_shard", o.recheck.per_shard},
                                                {"seed", o.recheck.seed},
                                                {"cases_rechecked", recheck.cases},
                                                {"isa_here", opt::isa_path()}};
    }
  }
  return runs;
}

// The merged runs' reports and certificates, and the verdict on stderr.
int write_merged(const MergeOptions& o, const std::vector<ShardRecord>& records,
                 const std::vector<MergedRun>& runs, const std::vector<std::string>& paths) {
  const std::string& command = records.front().command;
  std::vector<json> reports;
  bool partial = false;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const std::filesystem::path dir = runs.size() == 1 ? o.out : make_subdirectory(o.out, paths[k]);
    reports.push_back(write_report(dir, runs[k].run, runs[k].kernels, runs[k].build));
    partial = partial || !runs[k].missing.empty();
  }
  bool pass = !partial;
  for (const json& r : reports) pass = pass && r["verdict"]["pass"].get<bool>();
  if (command != "report") {
    // As `certify --isa all` does: each path's own certificate beside its
    // report, and the one over every path in --out.
    if (runs.size() > 1) {
      for (std::size_t k = 0; k < runs.size(); ++k)
        write_certificate(o.out / paths[k], {reports[k]});
    }
    pass = write_certificate(o.out, reports);
  }

  const int count = records.front().shard.count;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    std::string missing;
    for (int i : runs[k].missing) missing += fmt::format(" {}/{}", i, count);
    fmt::print(stderr, "bngcert: merged {} of {} shards{}{}{}\n", count - runs[k].missing.size(),
               count, paths[k].empty() ? "" : " on " + paths[k],
               missing.empty() ? "" : "; MISSING:", missing);
  }
  const std::string word = partial ? "PARTIAL" : pass ? "PASS" : "FAIL";
  fmt::print(stderr, "bngcert: {} — wrote {}/{}\n", command == "report" ? "report" : word,
             o.out.string(), command == "report" ? "" : " (certificate.json)");
  if (command == "report") return partial ? kExitFail : kExitPass;
  return pass ? kExitPass : kExitFail;
}

}  // namespace

int run_merge(const MergeOptions& o) {
  prepare_output_dir(o.out);
  std::vector<ShardRecord> records;
  CampaignPlan plan;
  RecheckResult recheck;
  try {
    read_shards(o, records, plan, recheck);
  } catch (const json::exception& e) {
    fmt::print(stderr, "bngcert: merge refused: a shard record is malformed ({})\n", e.what());
    return kExitError;
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "bngcert: merge refused: {}\n", e.what());
    return kExitError;
  }
  if (o.recheck.per_shard > 0) {
    fmt::print(stderr,
               "bngcert: merge: rechecked {} cases of {} shards here (up to {} each, seed {}): "
               "each gave its record again, bit for bit\n",
               recheck.cases, records.size(), o.recheck.per_shard, o.recheck.seed);
  }

  std::map<std::string, std::vector<ShardRecord*>> groups;
  for (ShardRecord& r : records) groups[isa_group(r)].push_back(&r);
  std::vector<std::string> paths;
  for (const auto& [path, g] : groups) paths.push_back(path);
  std::sort(paths.begin(), paths.end(),
            [](const std::string& a, const std::string& b) { return isa_rank(a) < isa_rank(b); });

  std::vector<MergedRun> runs;
  try {
    runs = merge_paths(o, paths, groups, plan, recheck);
  } catch (const MergeError& e) {
    fmt::print(stderr, "bngcert: merge refused: {}\n", e.what());
    return kExitError;
  }
  return write_merged(o, records, runs, paths);
}

}  // namespace bng::cert
