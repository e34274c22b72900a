// What `bngcert merge` checks of every shard before it adds anything up:
// nothing a shard says about its own part is believed. From the identity's
// campaign record the plan is derived again (plan_campaign), and then
//   - the shard holds exactly its share of the plan: one record per job j
//     with j mod N = K - 1, each of the kernel the plan gives that job
//     (a shard 2/2 relabelled 1/1 holds half of 1/1's share: refused);
//   - its tallies are the plan's kernels, at their declared α (no file can
//     loosen a bound);
//   - its tallies add up to exactly what its case records add up to (a
//     tally edited and its SHA-256 recomputed is caught here unless the case
//     records were edited too, and those `merge --recheck` re-derives);
//   - its failed cases are exactly the records that failed.
#pragma once

#include <string>

#include "campaign.hpp"
#include "shard_dir.hpp"

namespace bng::cert {

// The plan a shard's identity names. Throws InputError (an unreadable or
// impossible identity) naming the shard.
CampaignPlan plan_of_identity(const ShardRecord& shard);

// "" when the shard is consistent with `plan` as above; otherwise the first
// reason to refuse it.
std::string shard_inconsistency(const ShardRecord& shard, const CampaignPlan& plan);

}  // namespace bng::cert
