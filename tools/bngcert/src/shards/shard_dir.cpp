#include "shard_dir.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "json_input.hpp"
#include "output_file.hpp"
#include "sha256.hpp"
#include "tally_codec.hpp"

namespace bng::cert {

using nlohmann::json;

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return "?";
  return buf;
}

void prepare_shard_dir(const std::filesystem::path& dir) {
  if (file_kind(dir / kShardFile) != "missing") {
    throw std::invalid_argument(
        fmt::format("{} already holds a shard ({}): choose a new --out directory per shard",
                    dir.string(), kShardFile));
  }
  prepare_output_dir(dir);
}

void write_shard_dir(const std::filesystem::path& dir, const ShardRecord& r) {
  prepare_shard_dir(dir);
  const std::vector<std::uint8_t> tally = encode_tally_file({r.kernels, r.cases});
  write_file(dir / kTallyFile, tally);
  const json record = {{"schema", kShardSchema},
                       {"schema_version", kShardSchemaVersion},
                       {"command", r.command},
                       {"shard", {{"index", r.shard.index}, {"count", r.shard.count}}},
                       {"identity", r.identity},
                       {"build", r.build},
                       {"run", r.run},
                       {"failed_cases", r.failed_cases},
                       {"tally", {{"file", kTallyFile}, {"sha256", sha256_hex(tally)}}}};
  write_text(dir / kShardFile, record.dump(1) + "\n");  // last, and atomically
}

ShardRecord read_shard_dir(const std::filesystem::path& dir) {
  const auto bad = [&](const std::string& what) {
    return std::runtime_error(fmt::format("{}: {}", dir.string(), what));
  };
  const std::filesystem::path file = dir / kShardFile;
  if (!std::filesystem::exists(file)) {
    throw bad(fmt::format("no {}: not a shard directory, or its shard did not finish", kShardFile));
  }
  const std::string text = read_text_file(file, kMaxJsonBytes, Links::refuse);
  const std::vector<std::uint8_t> tally =
      read_regular_file(dir / kTallyFile, kMaxDataBytes, Links::refuse);
  return parse_shard_files(text, tally, dir);
}

ShardRecord parse_shard_files(std::string_view shard_json, std::span<const std::uint8_t> tally,
                              const std::filesystem::path& dir) {
  const auto bad = [&](const std::string& what) {
    return std::runtime_error(fmt::format("{}: {}", dir.string(), what));
  };
  ShardRecord r;
  r.dir = dir;
  const std::string where = (dir / kShardFile).string();
  try {
    const json j = parse_json(shard_json, where);
    if (!has_member(j, "schema") || j["schema"] != kShardSchema) {
      throw bad(fmt::format("{} is not a bngcert shard record", kShardFile));
    }
    const int version = int_field<int>(j, "schema_version", 0, 1 << 20, where);
    if (version != kShardSchemaVersion) {
      throw bad(
          fmt::format("shard schema version {} (this bngcert reads {}): run the shard again "
                      "with this bngcert",
                      version, kShardSchemaVersion));
    }
    r.command = string_field(j, "command", where);
    if (r.command != "report" && r.command != "certify" && r.command != "check") {
      throw bad(
          fmt::format("{}: command '{}' is not report, certify or check", kShardFile, r.command));
    }
    const json& shard = object_field(j, "shard", where);
    r.shard.count = int_field<int>(shard, "count", 1, kMaxShards, where + ": shard");
    r.shard.index = int_field<int>(shard, "index", 1, r.shard.count, where + ": shard");
    r.identity = object_field(j, "identity", where);
    r.build = object_field(j, "build", where);
    r.run = object_field(j, "run", where);
    r.failed_cases = array_field(j, "failed_cases", where);
    const std::string want = string_field(object_field(j, "tally", where), "sha256", where);
    if (sha256_hex(tally) != want) {
      throw bad(fmt::format("{}'s SHA-256 differs from {}: the files do not belong together",
                            kTallyFile, kShardFile));
    }
    try {
      TallyFile decoded = decode_tally_file(tally);
      r.kernels = std::move(decoded.kernels);
      r.cases = std::move(decoded.cases);
    } catch (const std::runtime_error& e) {
      throw bad(fmt::format("{}: {}", kTallyFile, e.what()));
    }
  } catch (const json::exception& e) {
    throw bad(fmt::format("{}: missing or mistyped field ({})", kShardFile, e.what()));
  }
  return r;
}

}  // namespace bng::cert
