// `bngcert check --pack`: judges every case of an exported pack after a device
// (the C harness) wrote its outputs, as one run: one report, one certificate.
// The pack is re-derived, not believed (pack_reader.hpp): a pack whose
// manifest, case list or inputs differ from what its own seed and options
// generate is refused (exit 2). A planned case that cannot be judged (a
// missing folder, output or status, a nonzero status, an unreadable output)
// is a failed case with its reason — never skipped, never passed.
#include "pack_check.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "bng/properties/families.hpp"
#include "campaign_record.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "library_identity.hpp"
#include "output_file.hpp"
#include "pack_reader.hpp"
#include "parallel_jobs.hpp"
#include "report.hpp"
#include "shard_dir.hpp"
#include "utc_time.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

struct FailedCase {
  std::uint64_t index;  // the case's job
  std::string name, reason;
};

}  // namespace

namespace {

// What the workers gather: every planned kernel's tally, the failed cases,
// the case records, and the refusals (any refusal voids the run).
struct Gathered {
  std::vector<KernelTally> kernels;
  std::vector<FailedCase> failed;
  std::vector<CaseRecord> records;
  std::vector<std::string> refusals;
};

Gathered judge_cases(const OpenedPack& p, const std::vector<std::size_t>& owned,
                     const PackCheckOptions& o, int jobs) {
  const int workers = worker_count(jobs, owned.size());
  const int inner_jobs = std::max(1, jobs / workers);  // few large cases: blocks in parallel
  std::vector<Gathered> results(static_cast<std::size_t>(workers));
  for (Gathered& w : results) {
    for (const auto& k : p.plan.kernels) {
      KernelTally t;
      t.kernel = k.kernel;
      w.kernels.push_back(std::move(t));
    }
  }
  {
    Progress progress("check", static_cast<std::int64_t>(owned.size()), o.progress);
    // An exception is not a case's fault (out of memory, a bug): it stops the run.
    run_jobs(jobs, owned.size(), [&](int worker, std::size_t i) {
      Gathered& w = results[static_cast<std::size_t>(worker)];
      JudgedPackCase c = judge_pack_case(p, owned[i], o.block_elements, inner_jobs);
      if (c.refusal) {
        w.refusals.push_back(*c.refusal);
      } else {
        if (c.failure) w.failed.push_back({c.job, c.name, *c.failure});
        w.kernels[c.record.kernel].merge(std::move(c.tally));
        w.records.push_back(std::move(c.record));
      }
      progress.advance();
    });
  }

  Gathered all;
  for (const auto& k : p.plan.kernels) {
    KernelTally t;
    t.kernel = k.kernel;
    all.kernels.push_back(std::move(t));
  }
  for (auto& w : results) {
    for (std::size_t k = 0; k < all.kernels.size(); ++k)
      all.kernels[k].merge(std::move(w.kernels[k]));
    all.failed.insert(all.failed.end(), w.failed.begin(), w.failed.end());
    all.records.insert(all.records.end(), w.records.begin(), w.records.end());
    all.refusals.insert(all.refusals.end(), w.refusals.begin(), w.refusals.end());
  }
  std::sort(all.failed.begin(), all.failed.end(),
            [](const FailedCase& a, const FailedCase& b) { return a.index < b.index; });
  std::sort(all.records.begin(), all.records.end(),
            [](const CaseRecord& a, const CaseRecord& b) { return a.job < b.job; });
  std::sort(all.refusals.begin(), all.refusals.end());
  return all;
}

// Cases that differ from what the pack's seed and options generate void the
// run: nothing is judged.
int refuse_pack(const OpenedPack& p, const Gathered& g) {
  for (std::size_t i = 0; i < g.refusals.size() && i < kFailuresKept; ++i) {
    fmt::print(stderr, "bngcert: check refused: {}\n", g.refusals[i]);
  }
  fmt::print(stderr,
             "bngcert: check refused: {} case(s) of {} differ from what the pack's seed and "
             "options generate; nothing was judged (no report, no certificate)\n",
             g.refusals.size(), p.root.string());
  return kExitError;
}

// The report's "run": the pack, the campaign it was exported from, the counts.
json pack_run(const OpenedPack& p, std::size_t cases, std::int64_t outputs, int jobs,
              const std::string& started, std::chrono::steady_clock::time_point start) {
  json run = {
      {"kind", "pack"},    {"pack", p.root.string()}, {"manifest", p.manifest_path.string()},
      {"jobs", jobs},      {"started_utc", started},  {"cases", cases},
      {"outputs", outputs}};
  run.update(campaign_run_fields(p.plan.options, p.plan.families));
  run["duration_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

// bngcert's build and, per target given, the identity of the library the
// board ran (read from the file, not loaded): what the outputs came from.
json pack_build(const PackCheckOptions& o) {
  json build = build_json({});
  for (const auto& [target, file] : o.device_libraries) {
    json id = identity_json(identify_library(file));
    id.erase("isa_ran");  // which path ran is the board's, unknown here
    id["role"] = "device: identified, not run by bngcert";
    build["libraries"][target] = id;
  }
  return build;
}

// A shard of the check: its directory for bngcert merge, nothing judged here.
int write_pack_shard(const PackCheckOptions& o, const OpenedPack& p, const Shard& shard,
                     const json& build, const json& run, Gathered& g, std::size_t cases,
                     std::int64_t outputs) {
  ShardRecord record;
  record.command = "check";
  record.shard = shard;
  record.identity = {
      {"kind", "pack"}, {"campaign", p.campaign}, {"planned_cases", p.plan.cases.size()}};
  record.build = build;
  record.run = run;
  record.run["host"] = host_name();
  for (const auto& f : g.failed) {
    record.failed_cases.push_back({{"index", f.index}, {"case", f.name}, {"reason", f.reason}});
  }
  record.kernels = std::move(g.kernels);
  record.cases = std::move(g.records);
  write_shard_dir(o.out, record);
  fmt::print(stderr,
             "bngcert: shard {} of the check — {} cases, {} outputs judged, {} failed cases; "
             "wrote {}/ (judged when merged: bngcert merge)\n",
             shard.label(), cases, outputs, g.failed.size(), o.out.string());
  return kExitPass;
}

// The whole check: report and certificate, the failed cases and the verdict on stderr.
int write_pack_report(const PackCheckOptions& o, const json& build, json& run, Gathered& g,
                      std::size_t cases, std::int64_t outputs) {
  json failed_json = json::array();
  for (const auto& f : g.failed) failed_json.push_back({{"case", f.name}, {"reason", f.reason}});
  run["failed_cases"] = failed_json;
  const json report = write_report(o.out, run, g.kernels, build);
  const bool pass = write_certificate(o.out, {report});
  for (std::size_t i = 0; i < g.failed.size() && i < kFailuresKept; ++i) {
    fmt::print(stderr, "bngcert: failed case {}: {}\n", g.failed[i].name, g.failed[i].reason);
  }
  if (g.failed.size() > kFailuresKept) {
    fmt::print(stderr, "bngcert: … and {} more failed cases (report.json run.failed_cases)\n",
               g.failed.size() - kFailuresKept);
  }
  fmt::print(stderr,
             "bngcert: check {} — {} cases, {} outputs judged, {} failed cases; wrote {}/\n",
             pass ? "PASS" : "FAIL", cases, outputs, g.failed.size(), o.out.string());
  return pass ? kExitPass : kExitFail;
}

}  // namespace

int run_pack_check(const PackCheckOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started = utc_now();
  OpenedPack p;
  try {
    p = open_pack(o.pack);
    p.plan.options.reference = o.reference;
  } catch (const PackRefused& e) {
    fmt::print(stderr, "bngcert: check refused: {}\n", e.what());
    return kExitError;
  }
  if (o.shard && p.exported_shard) {
    fmt::print(stderr,
               "bngcert: error: {} is shard {} of an export already: check it without --shard "
               "(its result is that shard, for bngcert merge)\n",
               p.manifest_path.string(), p.exported_shard->label());
    return kExitError;
  }
  // Read once, before any judging: a device library that cannot be read
  // refuses the check, and the identity recorded is of that one reading.
  json build;
  try {
    build = pack_build(o);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bngcert: check refused: device library: {}\n", e.what());
    return kExitError;
  }
  const std::optional<Shard> shard = o.shard ? o.shard : p.exported_shard;
  if (shard) {
    prepare_shard_dir(o.out);
  } else {
    prepare_output_dir(o.out);
  }
  std::vector<std::size_t> owned;
  for (std::size_t i = 0; i < p.jobs.size(); ++i) {
    if (!o.shard || o.shard->owns(p.jobs[i])) owned.push_back(i);
  }
  const int jobs = jobs_or_default(o.jobs);
  Gathered g = judge_cases(p, owned, o, jobs);
  if (!g.refusals.empty()) return refuse_pack(p, g);

  std::int64_t outputs = 0;
  for (const auto& k : g.kernels) {
    for (const auto& ot : k.outputs) outputs += ot.all.outputs;
  }
  json run = pack_run(p, owned.size(), outputs, jobs, started, start);
  if (shard) return write_pack_shard(o, p, *shard, build, run, g, owned.size(), outputs);
  return write_pack_report(o, build, run, g, owned.size(), outputs);
}

}  // namespace bng::cert
