#include "shard_checks.hpp"

#include <set>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"
#include "campaign_record.hpp"
#include "json_input.hpp"

namespace bng::cert {

using nlohmann::json;

CampaignPlan plan_of_identity(const ShardRecord& s) {
  const std::string where = (s.dir / kShardFile).string() + ": identity";
  const CampaignOptions options =
      campaign_options(object_field(s.identity, "campaign", where), where + ": campaign");
  const auto claimed = int_field<std::uint64_t>(s.identity, "planned_cases", 1, UINT64_MAX, where);
  std::size_t planned = 0;
  try {
    planned = planned_case_count(options);
  } catch (const std::invalid_argument& e) {
    throw InputError(fmt::format("{}: campaign: {}", where, e.what()));
  }
  if (claimed != planned) {
    throw InputError(fmt::format("{}: claims {} planned cases, but its campaign generates {}",
                                 where, claimed, planned));
  }
  return plan_campaign(options);
}

namespace {

std::string share_difference(const ShardRecord& s, const CampaignPlan& plan) {
  const std::vector<std::size_t> share = owned_jobs(plan.cases.size(), s.shard);
  if (s.cases.size() != share.size()) {
    return fmt::format(
        "it holds {} cases, but shard {} of this run is {} cases: it is not "
        "exactly its part of the run",
        s.cases.size(), s.shard.label(), share.size());
  }
  for (std::size_t i = 0; i < share.size(); ++i) {
    const CaseRecord& r = s.cases[i];
    if (r.job != share[i]) {
      return fmt::format(
          "its case #{} is job {}, but shard {} has job {} there: it is not "
          "exactly its part of the run",
          i, r.job, s.shard.label(), share[i]);
    }
    if (r.kernel != plan.cases[r.job].kernel) {
      return fmt::format("its case {} is recorded for kernel #{}, the plan gives kernel #{}", r.job,
                         r.kernel, plan.cases[r.job].kernel);
    }
  }
  return "";
}

std::string kernel_difference(const ShardRecord& s, const CampaignPlan& plan) {
  if (s.kernels.size() != plan.kernels.size()) {
    return fmt::format("it has tallies of {} kernels, the plan {}", s.kernels.size(),
                       plan.kernels.size());
  }
  for (std::size_t k = 0; k < s.kernels.size(); ++k) {
    const Kernel& have = s.kernels[k].kernel;
    const Kernel& want = plan.kernels[k].kernel;
    if (have.target != want.target || have.combo != want.combo) {
      return fmt::format("its kernel #{} is {}, the plan's is {}", k, have.name(), want.name());
    }
    const double declared = prop::declared_alpha(want.target, want.combo);
    if (have.alpha != declared) {
      return fmt::format("it judged {} at α = {:a}, not the kernel's declared α = {:a}",
                         have.name(), have.alpha, declared);
    }
  }
  return "";
}

std::string failed_case_difference(const ShardRecord& s) {
  std::set<std::uint64_t> failed, listed;
  for (const CaseRecord& r : s.cases) {
    std::int64_t fails = r.call_errors;
    for (const Stats& o : r.outputs) fails += o.fails;
    if (fails > 0) failed.insert(r.job);
  }
  const std::string where = (s.dir / kShardFile).string() + ": failed_cases";
  for (const json& f : s.failed_cases) {
    listed.insert(int_field<std::uint64_t>(f, "index", 0, UINT64_MAX, where));
    string_field(f, "case", where);
    string_field(f, "reason", where);
  }
  if (s.command == "check" && failed != listed) {
    return fmt::format("it lists {} failed cases, its case records {}", listed.size(),
                       failed.size());
  }
  if (s.command != "check" && !listed.empty()) return "a campaign shard lists failed pack cases";
  return "";
}

}  // namespace

std::string shard_inconsistency(const ShardRecord& s, const CampaignPlan& plan) {
  if (std::string d = kernel_difference(s, plan); !d.empty()) return d;
  if (std::string d = share_difference(s, plan); !d.empty()) return d;
  const std::vector<CaseTotals> totals = totals_by_kernel(s.cases, s.kernels.size());
  for (std::size_t k = 0; k < totals.size(); ++k) {
    if (std::string d = disagreement(s.kernels[k], totals[k]); !d.empty()) {
      return fmt::format("{}'s {} tally disagrees with its case records: {}", kTallyFile,
                         s.kernels[k].kernel.name(), d);
    }
  }
  return failed_case_difference(s);
}

}  // namespace bng::cert
