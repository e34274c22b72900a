// A run's tallies (tally.hpp) as data, so a shard can hand them to `bngcert
// merge` on another machine and the merge continues exactly where one process
// would have: every double travels as its bit pattern, every long double as
// its exact hexadecimal form, every array of a worst case as raw bytes, and
// the job orders that break ties come along. Encoded as CBOR (RFC 8949) by
// nlohmann::json; little-endian bytes, as on every host bngcert runs on.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_record.hpp"
#include "tally.hpp"

namespace bng::cert {

// 2: the per-case records (case_record.hpp) travel with the tallies.
// 3: each kernel's exact_fallbacks (how many outputs the tiered reference took to its exact path).
inline constexpr int kTallyCodecVersion = 3;

nlohmann::json tallies_to_json(const std::vector<KernelTally>& kernels);
// Throws std::runtime_error naming what is missing or malformed.
std::vector<KernelTally> tallies_from_json(const nlohmann::json& j);

// Counts and maxima of one Stats, as the tallies carry them (and case digests hash them).
nlohmann::json stats_to_json(const Stats& s);

// A shard's tally.cbor: its tallies, and what each of its cases added to them.
struct TallyFile {
  std::vector<KernelTally> kernels;
  std::vector<CaseRecord> cases;
};
std::vector<std::uint8_t> encode_tally_file(const TallyFile& file);
// Throws (InputError or std::runtime_error) naming what is malformed or out of
// range: every integer is range-checked, every nesting depth limited.
TallyFile decode_tally_file(std::span<const std::uint8_t> bytes);

}  // namespace bng::cert
