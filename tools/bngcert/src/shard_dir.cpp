#include "shard_dir.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "json_input.hpp"
#include "output_file.hpp"
#include "report.hpp"
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
  const std::vector<std::uint8_t> tally = encode_tallies(r.kernels);
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
  json j;
  try {
    j = read_json_file(file, kMaxJsonBytes, Links::refuse);
  } catch (const InputError& e) {
    throw std::runtime_error(e.what());
  }
  if (!j.is_object() || j.value("schema", "") != kShardSchema) {
    throw bad(fmt::format("{} is not a bngcert shard record", kShardFile));
  }
  if (j.value("schema_version", 0) != kShardSchemaVersion) {
    throw bad(fmt::format("shard schema version {} (this bngcert reads {})",
                          j.value("schema_version", 0), kShardSchemaVersion));
  }
  ShardRecord r;
  r.dir = dir;
  try {
    r.command = j.at("command").get<std::string>();
    r.shard.index = j.at("shard").at("index").get<int>();
    r.shard.count = j.at("shard").at("count").get<int>();
    if (!parse_shard(r.shard.label())) throw bad("shard " + r.shard.label() + " is not K/N");
    r.identity = j.at("identity");
    r.build = j.at("build");
    r.run = j.at("run");
    r.failed_cases = j.at("failed_cases");
    const std::string want = j.at("tally").at("sha256").get<std::string>();
    const std::vector<std::uint8_t> bytes =
        read_regular_file(dir / kTallyFile, kMaxDataBytes, Links::refuse);
    if (sha256_hex(bytes) != want) {
      throw bad(fmt::format("{}'s SHA-256 differs from {}: the files do not belong together",
                            kTallyFile, kShardFile));
    }
    r.kernels = decode_tallies(bytes);
  } catch (const json::exception& e) {
    throw bad(fmt::format("{}: missing or mistyped field ({})", kShardFile, e.what()));
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    if (what.starts_with(dir.string())) throw;
    throw bad(fmt::format("{}: {}", kTallyFile, what));
  }
  return r;
}

}  // namespace bng::cert
