#include "recheck.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"
#include "cli.hpp"
#include "json_input.hpp"
#include "library_binding.hpp"
#include "library_identity.hpp"
#include "pack_reader.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

// Indices of the records to recheck: a partial Fisher-Yates draw, in order.
std::vector<std::size_t> draw(std::size_t n, int k, std::uint64_t seed) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  std::mt19937_64 rng(seed);
  const std::size_t take = std::min<std::size_t>(n, static_cast<std::size_t>(k));
  for (std::size_t i = 0; i < take; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, n - 1);
    std::swap(all[i], all[pick(rng)]);
  }
  all.resize(take);
  std::sort(all.begin(), all.end());
  return all;
}

std::string host_of(const ShardRecord& s) {
  return has_member(s.run, "host") && s.run["host"].is_string() ? s.run["host"].get<std::string>()
                                                                : "an unknown host";
}

std::string mismatch(const ShardRecord& s, std::uint64_t job, const std::string& what) {
  return fmt::format(
      "recheck: shard {} ({}, run on {}): case {} judged here differs from its "
      "record: {}",
      s.shard.label(), s.dir.string(), host_of(s), job, what);
}

// A campaign case is re-run here through the libraries the shards judged:
// this process must load the same files (by SHA-256), bound as a campaign
// binds them (library_binding.hpp).
std::string library_difference(const ShardRecord& s, const CampaignPlan& plan) {
  for (const auto& k : plan.kernels) {
    const std::string target(prop::target_name(k.kernel.target));
    const json& libs = has_member(s.build, "libraries") ? s.build["libraries"] : json::object();
    const std::string want = has_member(libs, target) && has_member(libs[target], "sha256") &&
                                     libs[target]["sha256"].is_string()
                                 ? libs[target]["sha256"].get<std::string>()
                                 : "";
    std::string have, path;
    try {
      // Bound as a campaign binds it: the file hashed is the file that runs.
      const LibraryIdentity& bound = bind_library(k.kernel.target);
      have = bound.sha256;
      path = bound.path;
    } catch (const std::exception& e) {
      return fmt::format("recheck: the {} library here cannot be used: {}", target, e.what());
    }
    if (have != want) {
      return fmt::format(
          "recheck runs the kernels here, but the {} library here ({}, SHA-256 "
          "{}) is not the one shard {} judged (SHA-256 {}): give --lib-{}",
          target, path, have, s.shard.label(), want.empty() ? "?" : want, target);
    }
  }
  return "";
}

std::string recheck_campaign(const ShardRecord& s, const CampaignPlan& plan,
                             const std::vector<std::size_t>& drawn) {
  if (std::string d = library_difference(s, plan); !d.empty()) return d;
  for (std::size_t i : drawn) {
    const CaseRecord& recorded = s.cases[i];
    const CaseRun again = run_planned_case(plan, recorded.job);
    if (std::string d = record_difference(recorded, again.record); !d.empty()) {
      return mismatch(s, recorded.job, d);
    }
  }
  return "";
}

std::string recheck_pack(const ShardRecord& s, const OpenedPack& pack,
                         const std::vector<std::size_t>& drawn) {
  if (pack.campaign != s.identity["campaign"]) {
    return fmt::format("recheck: the pack {} is not the one shard {} checked (another campaign)",
                       pack.root.string(), s.shard.label());
  }
  for (std::size_t i : drawn) {
    const CaseRecord& recorded = s.cases[i];
    const auto at = std::lower_bound(pack.jobs.begin(), pack.jobs.end(), recorded.job);
    if (at == pack.jobs.end() || *at != recorded.job) {
      return fmt::format("recheck: the pack {} does not hold case {} of shard {}",
                         pack.root.string(), recorded.job, s.shard.label());
    }
    const JudgedPackCase again = judge_pack_case(
        pack, static_cast<std::size_t>(at - pack.jobs.begin()), kDefaultBlockElements, 1);
    if (again.refusal) return "recheck: " + *again.refusal;
    if (std::string d = record_difference(recorded, again.record); !d.empty()) {
      return mismatch(s, recorded.job, fmt::format("pack case {}: {}", again.name, d));
    }
  }
  return "";
}

}  // namespace

RecheckResult recheck_shards(const std::vector<const ShardRecord*>& shards,
                             const CampaignPlan& plan, const RecheckOptions& o) {
  RecheckResult result;
  if (o.per_shard <= 0 || shards.empty()) return result;
  CampaignPlan judged_plan = plan;
  judged_plan.options.reference = o.reference;
  std::map<std::filesystem::path, OpenedPack> packs;  // opened once each
  for (const ShardRecord* s : shards) {
    const std::vector<std::size_t> drawn =
        draw(s->cases.size(), o.per_shard, o.seed ^ static_cast<std::uint64_t>(s->shard.index));
    if (s->command == "check") {
      // Each shard's own pack (shard packs of one export lie apart), or --pack.
      std::filesystem::path where;
      if (o.pack) {
        where = *o.pack;
      } else if (has_member(s->run, "pack") && s->run["pack"].is_string()) {
        where = s->run["pack"].get<std::string>();
      } else {
        result.refusal = "recheck of check shards needs the pack: give --pack";
        return result;
      }
      auto it = packs.find(where);
      if (it == packs.end()) {
        try {
          it = packs.emplace(where, open_pack(where)).first;
          it->second.plan.options.reference = o.reference;
        } catch (const PackRefused& e) {
          result.refusal = fmt::format("recheck: {}", e.what());
          return result;
        }
      }
      result.refusal = recheck_pack(*s, it->second, drawn);
    } else {
      result.refusal = recheck_campaign(*s, judged_plan, drawn);
    }
    if (!result.refusal.empty()) return result;
    result.cases += static_cast<std::int64_t>(drawn.size());
  }
  return result;
}

}  // namespace bng::cert
