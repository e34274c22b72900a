// Reading a pack after a device ran it, believing none of it: the manifest
// (read with limits) names a campaign; the plan is derived from that
// campaign's seed and options, and the manifest's head, its case list,
// cases.txt, every case's manifest line and every input file must be exactly
// what the plan generates. Only the device's outputs and statuses are taken
// from the pack. Shared by `check --pack` and `merge --recheck`.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "campaign.hpp"
#include "case_record.hpp"
#include "pack_case.hpp"
#include "shard.hpp"

namespace bng::cert {

// The pack is not what its own seed and options generate, or cannot be read
// at all: nothing it holds can be judged (exit 2).
struct PackRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OpenedPack {
  std::filesystem::path root, manifest_path;
  nlohmann::json manifest;
  nlohmann::json campaign;  // the record, as the plan regenerates it
  CampaignPlan plan;
  std::optional<Shard> exported_shard;  // a pack written by `export --shard`
  std::vector<std::size_t> jobs;        // the plan's jobs it holds, in manifest order
};

// `given` is the pack directory or its pack.json. Throws PackRefused.
OpenedPack open_pack(const std::filesystem::path& given);
// The manifest's part of open_pack, from its text (no file is touched; root
// is left empty): what the pack-manifest fuzzer drives.
OpenedPack open_pack_manifest(std::string_view text, const std::filesystem::path& manifest_path);

// "" when case `index`'s manifest line is exactly `derived`'s, else a refusal.
std::string entry_difference(const OpenedPack& pack, std::size_t index, const PackCase& derived);

// Case `index` (into jobs) judged: its tally and record; `failure` says why it
// failed without being judged (a missing folder, output or status, a nonzero
// status, an unreadable output); `refusal` says what in the pack differs from
// its derivation (then the tally means nothing and the run is refused).
struct JudgedPackCase {
  std::string name;
  std::uint64_t job = 0;
  KernelTally tally;
  CaseRecord record;
  std::optional<std::string> failure, refusal;
};
JudgedPackCase judge_pack_case(const OpenedPack& pack, std::size_t index,
                               std::int64_t block_elements, int inner_jobs);

}  // namespace bng::cert
