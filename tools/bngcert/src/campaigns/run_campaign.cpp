#include <fmt/format.h>

#include "campaign_record.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "isa_choice.hpp"
#include "json_input.hpp"
#include "report.hpp"
#include "shard_dir.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

json campaign_run_json(const CampaignResult& r) {
  json run = {{"kind", "campaign"}};
  run.update(campaign_run_fields(r.options, r.families));
  run["jobs"] = r.options.jobs;
  run["started_utc"] = r.started_utc;
  run["duration_s"] = r.seconds;
  run["cases"] = r.cases;
  run["outputs"] = r.outputs;
  return run;
}

// What every shard of one campaign must share: the options that decide the
// plan (seed among them, `merge` derives the plan from them), the plan's
// size, and whether the shards run on one ISA path or on every path
// (`certify --isa all --shard`: merge then judges each path's shards apart).
json campaign_identity(const CampaignResult& r) {
  return {{"kind", "campaign"},
          {"planned_cases", r.planned},
          {"campaign", campaign_record(r.options, r.families)},
          {"isa_paths", r.options.part_of_isa_all ? "all" : "one"}};
}

int write_campaign_shard(const std::string& command, const CampaignResult& r,
                         const std::filesystem::path& out) {
  ShardRecord record;
  record.command = command;
  record.shard = *r.options.shard;
  record.run = campaign_run_json(r);
  record.run["host"] = host_name();
  record.identity = campaign_identity(r);
  record.build = build_json(judged_targets(r.kernels));
  record.kernels = r.kernels;
  record.cases = r.records;
  write_shard_dir(out, record);
  fmt::print(stderr,
             "bngcert: shard {} of the {} — {} of {} cases, {} outputs judged; wrote {}/ (judged "
             "when merged: bngcert merge)\n",
             record.shard.label(), command, r.cases, r.planned, r.outputs, out.string());
  return kExitPass;
}

void summary_line(const json& report, const std::filesystem::path& out) {
  const json& v = report["verdict"];
  fmt::print(stderr, "bngcert: {} — {} outputs judged, {} failed, {} failed calls; wrote {}/\n",
             v["pass"].get<bool>() ? "PASS" : "FAIL", report["run"]["outputs"].get<std::int64_t>(),
             v["failed_outputs"].get<std::int64_t>(), v["call_errors"].get<std::int64_t>(),
             out.string());
}

// Before any case runs: a bad --out fails now, not after the campaign.
void prepare_out(const CampaignOptions& options, const std::filesystem::path& out) {
  if (options.shard) {
    prepare_shard_dir(out);
  } else {
    prepare_output_dir(out);
  }
}

}  // namespace

int run_report(const CampaignOptions& options, const std::filesystem::path& out) {
  prepare_out(options, out);
  const CampaignResult r = run_campaign(options);
  if (options.shard) return write_campaign_shard("report", r, out);
  const json report = write_report(out, campaign_run_json(r), r.kernels);
  summary_line(report, out);
  return kExitPass;
}

int run_certify(const CampaignOptions& options, const std::filesystem::path& out) {
  prepare_out(options, out);
  const CampaignResult r = run_campaign(options);
  if (options.shard) return write_campaign_shard("certify", r, out);
  const json report = write_report(out, campaign_run_json(r), r.kernels);
  const bool pass = write_certificate(out, {report});
  summary_line(report, out);
  return pass ? kExitPass : kExitFail;
}

int run_certify_every_path(const std::filesystem::path& self, const std::vector<std::string>& args,
                           const std::filesystem::path& out, bool sharded) {
  prepare_output_dir(out);
  const std::vector<std::string> paths = every_isa_path();
  const std::vector<int> statuses = run_per_isa_path(self, args, out);
  if (sharded) {  // each path's run left a shard in out/<path>/: merge judges them
    for (std::size_t k = 0; k < paths.size(); ++k) {
      if (statuses[k] != kExitPass) {
        throw std::runtime_error(
            fmt::format("the {} shard did not finish (exit status {})", paths[k], statuses[k]));
      }
    }
    fmt::print(stderr, "bngcert: shards of {} paths in {}/<path>/\n", paths.size(), out.string());
    return kExitPass;
  }
  std::vector<json> reports;
  for (std::size_t k = 0; k < paths.size(); ++k) {
    // Exit 1 is a judged failure with its report; anything else left no
    // judgement to certify.
    if (statuses[k] != kExitPass && statuses[k] != kExitFail) {
      throw std::runtime_error(
          fmt::format("the {} run did not finish (exit status {}): no certificate written",
                      paths[k], statuses[k]));
    }
    reports.push_back(read_json_file(out / paths[k] / "report.json", kMaxJsonBytes));
  }
  const bool pass = write_certificate(out, reports);
  for (std::size_t k = 0; k < paths.size(); ++k) {
    fmt::print(stderr, "bngcert: {:<8} {}\n", paths[k],
               reports[k]["verdict"]["pass"].get<bool>() ? "PASS" : "FAIL");
  }
  fmt::print(stderr, "bngcert: {} on every path ({}); wrote {}/certificate.json\n",
             pass ? "PASS" : "FAIL", paths.size(), out.string());
  return pass ? kExitPass : kExitFail;
}

}  // namespace bng::cert
