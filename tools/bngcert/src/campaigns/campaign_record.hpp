// The options that decide a campaign's plan, as the JSON record a pack
// (pack.json "campaign") and a shard (shard.json "identity") carry, and the
// way back. A reader never believes a list of cases: it reads these options,
// range-checked, and derives the plan again (plan_campaign), so that a pack or
// shard with a case removed, renamed or added is told apart from the run its
// own seed and options generate.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign.hpp"

namespace bng::cert {

// {seed, cases_per_series, max_size, targets, functions, modes, families}
nlohmann::json campaign_record(const CampaignOptions& options,
                               const std::vector<const prop::Family*>& families);

// The campaign's part of a report's RUN: the record's fields, with each
// family described ({name, description, finite}) for the reader.
nlohmann::json campaign_run_fields(const CampaignOptions& options,
                                   const std::vector<const prop::Family*>& families);

// The options a record names. Throws InputError naming `where` and the field
// for anything missing, mistyped, out of range, unknown or repeated.
CampaignOptions campaign_options(const nlohmann::json& record, const std::string& where);

}  // namespace bng::cert
