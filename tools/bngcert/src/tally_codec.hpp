// A run's tallies (tally.hpp) as data, so a shard can hand them to `bngcert
// merge` on another machine and the merge continues exactly where one process
// would have: every double travels as its bit pattern, every long double as
// its exact hexadecimal form, every array of a worst case as raw bytes, and
// the job orders that break ties come along. Encoded as CBOR (RFC 8949) by
// nlohmann::json; little-endian bytes, as on every host bngcert runs on.
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "tally.hpp"

namespace bng::cert {

inline constexpr int kTallyCodecVersion = 1;

nlohmann::json tallies_to_json(const std::vector<KernelTally>& kernels);
// Throws std::runtime_error naming what is missing or malformed.
std::vector<KernelTally> tallies_from_json(const nlohmann::json& j);

std::vector<std::uint8_t> encode_tallies(const std::vector<KernelTally>& kernels);
std::vector<KernelTally> decode_tallies(const std::vector<std::uint8_t>& bytes);

}  // namespace bng::cert
