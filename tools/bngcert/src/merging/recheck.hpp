// `bngcert merge --recheck N`: the merging machine judges N cases drawn at
// random from every shard again — it re-runs them through the kernels
// (report and certify shards) or re-judges the device's outputs from the pack
// (check shards) — and compares each case's record (case_record.hpp) bit for
// bit with the one the shard wrote. A shard whose tallies and records were
// edited consistently, or a node that silently computed or judged wrongly,
// is caught on any case drawn: a shard with a share f of falsified cases
// escapes N draws with probability (1 - f)^N.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "campaign.hpp"
#include "shard_dir.hpp"

namespace bng::cert {

struct RecheckOptions {
  int per_shard = 0;       // cases drawn from each shard (all of them if it has fewer)
  std::uint64_t seed = 0;  // of the draw, printed so it can be repeated
  // Check shards: the pack to re-judge from (default: each shard's pack as it
  // recorded it; shard packs of one export each have their own).
  std::optional<std::filesystem::path> pack;
  // The reference that judges again (--reference): either path gives the
  // records bit for bit, so `exact` audits the shards' tiered judging.
  ref::Path reference = ref::Path::tiered;
};

struct RecheckResult {
  std::int64_t cases = 0;  // rechecked, over all shards
  std::string refusal;     // "" when every case drawn gave its record again
};

RecheckResult recheck_shards(const std::vector<const ShardRecord*>& shards,
                             const CampaignPlan& plan, const RecheckOptions& options);

}  // namespace bng::cert
