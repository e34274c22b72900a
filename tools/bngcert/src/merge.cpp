// `bngcert merge`: shard directories (shard_dir.hpp) into the report and
// certificate one unsharded run would have written. The tallies merge exactly
// (tally.hpp: associative, ties broken by each case's place in the whole run),
// so the result does not depend on how the run was split. Shards that do not
// belong together are refused, naming the culprit: another command, build,
// seed or set of options, another split, a shard given twice, one missing.
// --partial merges what is there into a PARTIAL verdict, never a pass.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "bng/optimized/isa.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "output_file.hpp"
#include "report.hpp"
#include "shard_dir.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

struct MergeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
    std::string diff;
    for (const auto& [key, v] : first.identity.items()) {
      if (r.identity.value(key, json()) != v) diff += (diff.empty() ? "" : ", ") + key;
    }
    for (const auto& [key, v] : r.identity.items()) {
      if (!first.identity.contains(key)) diff += (diff.empty() ? "" : ", ") + key;
    }
    throw refuse(fmt::format("different options ({})", diff));
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
std::string isa_group(const ShardRecord& r) {
  if (r.command == "check") return "";
  return r.build.value("isa", json::object()).value("path", "?");
}

int isa_rank(const std::string& path) {
  const auto* end = std::end(opt::kIsaPaths);
  return static_cast<int>(std::find(std::begin(opt::kIsaPaths), end, path) -
                          std::begin(opt::kIsaPaths));
}

// Adds o's kernels into `into`, matching by (target, combo): shard packs of
// one export may each hold only some kernels.
void merge_kernels(std::vector<KernelTally>& into, std::vector<KernelTally>&& o) {
  for (KernelTally& k : o) {
    auto it = std::find_if(into.begin(), into.end(), [&](const KernelTally& t) {
      return t.kernel.target == k.kernel.target && t.kernel.combo == k.kernel.combo;
    });
    if (it == into.end()) {
      into.push_back(std::move(k));
    } else {
      it->merge(std::move(k));
    }
  }
}

// One ISA path's shards, complete or (with --partial) not, as one run.
struct MergedRun {
  json run;
  json build;  // as the shards recorded it
  std::vector<KernelTally> kernels;
  std::vector<int> missing;
};

MergedRun merge_group(const std::string& path, std::vector<ShardRecord*> shards, bool partial) {
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
  std::int64_t cases = 0, outputs = 0;
  double seconds = 0;
  std::string started = m.run.value("started_utc", "");
  json failed = json::array(), parts = json::array();
  for (ShardRecord* s : shards) {
    cases += s->run.value("cases", std::int64_t{0});
    outputs += s->run.value("outputs", std::int64_t{0});
    seconds += s->run.value("duration_s", 0.0);
    started = std::min(started, s->run.value("started_utc", started));
    for (const auto& f : s->failed_cases) failed.push_back(f);
    json part = {{"index", s->shard.index},
                 {"dir", s->dir.string()},
                 {"host", s->run.value("host", "?")},
                 {"started_utc", s->run.value("started_utc", "?")},
                 {"duration_s", s->run.value("duration_s", 0.0)}};
    if (s->run.contains("pack")) part["pack"] = s->run["pack"];
    parts.push_back(part);
    merge_kernels(m.kernels, std::move(s->kernels));
  }
  m.run["cases"] = cases;
  m.run["outputs"] = outputs;
  m.run["duration_s"] = seconds;  // work done, summed over the shards
  m.run["started_utc"] = started;
  if (shards.front()->command == "check") {
    // The kernels in the order one whole pack's check lists them.
    std::sort(m.kernels.begin(), m.kernels.end(), [](const KernelTally& a, const KernelTally& b) {
      return std::pair(a.kernel.target, a.kernel.combo) <
             std::pair(b.kernel.target, b.kernel.combo);
    });
    std::sort(failed.begin(), failed.end(), [](const json& a, const json& b) {
      return a.value("index", std::uint64_t{0}) < b.value("index", std::uint64_t{0});
    });
    json cases_failed = json::array();
    for (const auto& f : failed)
      cases_failed.push_back({{"case", f["case"]}, {"reason", f["reason"]}});
    m.run["failed_cases"] = cases_failed;
  }
  m.run["sharding"] = {{"count", count}, {"shards", parts}, {"missing", m.missing}};
  return m;
}

}  // namespace

int run_merge(const MergeOptions& o) {
  prepare_output_dir(o.out);
  std::vector<ShardRecord> records;
  try {
    for (const auto& dir : shard_dirs(o.shards, o.partial)) records.push_back(read_shard_dir(dir));
    if (records.empty()) throw MergeError("no shard to merge");
    for (const ShardRecord& r : records) check_belongs(records.front(), r);
  } catch (const std::runtime_error& e) {
    fmt::print(stderr, "bngcert: merge refused: {}\n", e.what());
    return kExitError;
  }

  std::map<std::string, std::vector<ShardRecord*>> groups;
  for (ShardRecord& r : records) groups[isa_group(r)].push_back(&r);
  std::vector<std::string> paths;
  for (const auto& [path, g] : groups) paths.push_back(path);
  std::sort(paths.begin(), paths.end(),
            [](const std::string& a, const std::string& b) { return isa_rank(a) < isa_rank(b); });

  std::vector<MergedRun> runs;
  try {
    for (const auto& path : paths) runs.push_back(merge_group(path, groups[path], o.partial));
  } catch (const MergeError& e) {
    fmt::print(stderr, "bngcert: merge refused: {}\n", e.what());
    return kExitError;
  }

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

}  // namespace bng::cert
