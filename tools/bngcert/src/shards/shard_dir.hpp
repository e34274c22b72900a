// A shard's directory: what one `--shard K/N` run leaves for `bngcert merge`.
//   shard.json   what ran: the command, shard K/N, the options that every
//                shard must share (identity), the build that ran it, the
//                run's own record (cases, outputs, start, duration, host),
//                and the SHA-256 of tally.cbor
//   tally.cbor   the run's tallies (tally_codec.hpp), worst cases included,
//                and a record of what each case added (case_record.hpp)
// shard.json is written last, under a temporary name renamed into place: a
// shard that was killed or failed leaves no shard.json, and merge names it as
// missing rather than judging half a shard.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "case_record.hpp"
#include "shard.hpp"
#include "tally.hpp"

namespace bng::cert {

inline constexpr std::string_view kShardSchema = "bngcert-shard";
// 2: tally.cbor holds a record per case; the identity holds the campaign record.
inline constexpr int kShardSchemaVersion = 2;
inline constexpr std::string_view kShardFile = "shard.json";
inline constexpr std::string_view kTallyFile = "tally.cbor";

struct ShardRecord {
  std::string command;  // "report", "certify" or "check"
  Shard shard;
  nlohmann::json identity;  // what every shard of one run must share (seed included)
  nlohmann::json build;     // report.hpp build_json: tool, ISA path, libraries
  nlohmann::json run;       // this shard's part of report.json's "run"
  // check --pack: the cases this shard could not judge, {index, case, reason}.
  nlohmann::json failed_cases = nlohmann::json::array();
  std::vector<KernelTally> kernels;
  std::vector<CaseRecord> cases;  // one per case run, in job order
  std::filesystem::path dir;      // where it was read from
};

// Before a shard runs: creates dir and makes sure a shard can be written
// there (no earlier shard.json, writable), so a bad --out fails at once
// rather than after hours of cases. Throws std::invalid_argument.
void prepare_shard_dir(const std::filesystem::path& dir);

// Writes dir/tally.cbor, then dir/shard.json; creates dir. Refuses a dir that
// already holds a shard (an earlier run's result is never overwritten).
void write_shard_dir(const std::filesystem::path& dir, const ShardRecord& record);

// Reads a shard directory back; throws std::runtime_error naming the
// directory and what is wrong (no shard.json, another schema, a tally whose
// SHA-256 differs from the record, malformed content).
ShardRecord read_shard_dir(const std::filesystem::path& dir);
// The same from the two files' contents (what the shard fuzzer drives); `dir`
// only names them in messages.
ShardRecord parse_shard_files(std::string_view shard_json, std::span<const std::uint8_t> tally,
                              const std::filesystem::path& dir);

// The host this process runs on (for the record: which node ran a shard).
std::string host_name();

}  // namespace bng::cert
