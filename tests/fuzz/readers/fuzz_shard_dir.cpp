// libFuzzer: the bytes are a shard directory, shard.json and tally.cbor (a
// little-endian uint32 gives shard.json's length, the rest is the tally),
// read as `bngcert merge` reads them. The tally is also decoded on its own,
// since a fuzzer cannot forge the SHA-256 that shard.json names for it; and
// a shard that reads is checked against its plan when the plan is small.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "campaign_record.hpp"
#include "json_input.hpp"
#include "reader_fuzz.hpp"
#include "shard_checks.hpp"
#include "shard_dir.hpp"
#include "tally_codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::uint32_t json_size = 0;
  if (size < sizeof json_size) return 0;
  std::memcpy(&json_size, data, sizeof json_size);
  data += sizeof json_size;
  size -= sizeof json_size;
  const std::size_t n = json_size < size ? json_size : size;
  const std::string_view shard_json(reinterpret_cast<const char*>(data), n);
  const std::span<const std::uint8_t> tally(data + n, size - n);
  bng::fuzz::expect_read_or_refused([&] { (void)bng::cert::decode_tally_file(tally); });
  bng::fuzz::expect_read_or_refused([&] {
    const bng::cert::ShardRecord r = bng::cert::parse_shard_files(shard_json, tally, "fuzz");
    // Plans of millions of cases are legitimate, but too slow for a fuzzer.
    const auto options = bng::cert::campaign_options(
        bng::cert::object_field(r.identity, "campaign", "fuzz"), "fuzz");
    if (bng::cert::planned_case_count(options) > 4096) return;
    (void)bng::cert::shard_inconsistency(r, bng::cert::plan_of_identity(r));
  });
  return 0;
}
