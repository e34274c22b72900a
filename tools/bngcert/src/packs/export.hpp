// `bngcert export`: a campaign's cases as a pack of case folders for a device
// to run (pack.hpp has the layout). Nothing is computed here: the inputs are
// sampled exactly as `report`/`certify` sample them, so a pack judged by
// `check --pack` covers the same cases as a campaign with the same options.
#pragma once

#include <filesystem>

#include "campaign.hpp"

namespace bng::cert {

// Writes the pack into `out` (created; must not already hold a pack) one case
// at a time, so memory stays bounded by the largest case. The same options
// give a byte-identical pack. Returns the number of cases written.
std::int64_t run_export(const CampaignOptions& options, const std::filesystem::path& out);

}  // namespace bng::cert
