// One case of a pack, derived from its campaign's plan: the folder name, the
// input files byte for byte and the manifest line that `bngcert export`
// writes, and that `check --pack` derives again from the pack's own seed and
// options to compare with what it finds. Nothing a pack says about its cases
// is believed: only the device's outputs and statuses are taken from it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign.hpp"

namespace bng::cert {

struct PackCase {
  std::size_t job = 0;     // index in the whole plan: its order and its shard
  std::size_t kernel = 0;  // index into the plan's kernels
  std::string name;        // "00012-mt7004-hp_batchnormgrad_s-near_max-training"
  std::string dir;         // "cases/<name>", relative to the pack
  prop::CallSpec spec;
  Case c;  // its inputs
  // The files export writes into the folder (x.npy … scale.npy, params.json).
  std::vector<std::pair<std::string, std::vector<unsigned char>>> files;
  nlohmann::json entry;  // its line in pack.json
};

PackCase derive_pack_case(const CampaignPlan& plan, std::size_t job);
// Its folder, "cases/<name>", without sampling the inputs.
std::string pack_case_dir(const CampaignPlan& plan, std::size_t job);

// pack.json without its "cases": schema, campaign record, case count, shard.
nlohmann::json pack_manifest_head(const CampaignPlan& plan, const std::optional<Shard>& shard,
                                  std::size_t case_count);

}  // namespace bng::cert
