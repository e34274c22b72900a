#include "shard_dir.hpp"

#include <unistd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

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
  if (std::filesystem::exists(dir / kShardFile)) {
    throw std::invalid_argument(
        fmt::format("{} already holds a shard ({}): choose a new --out directory per shard",
                    dir.string(), kShardFile));
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) {
    throw std::invalid_argument(fmt::format("--out {}: cannot create the shard directory ({})",
                                            dir.string(),
                                            ec ? ec.message() : "a file is in the way"));
  }
  const std::filesystem::path probe = dir / (std::string(kShardFile) + ".probe");
  {
    std::ofstream f(probe);
    if (!f) throw std::invalid_argument(fmt::format("--out {}: not writable", dir.string()));
  }
  std::filesystem::remove(probe);
}

void write_shard_dir(const std::filesystem::path& dir, const ShardRecord& r) {
  prepare_shard_dir(dir);
  const std::vector<std::uint8_t> tally = encode_tallies(r.kernels);
  {
    std::ofstream f(dir / kTallyFile, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(tally.data()),
            static_cast<std::streamsize>(tally.size()));
    f.close();
    if (!f) throw std::runtime_error(fmt::format("{}: cannot write", (dir / kTallyFile).string()));
  }
  const json record = {{"schema", kShardSchema},
                       {"schema_version", kShardSchemaVersion},
                       {"command", r.command},
                       {"shard", {{"index", r.shard.index}, {"count", r.shard.count}}},
                       {"identity", r.identity},
                       {"build", r.build},
                       {"run", r.run},
                       {"failed_cases", r.failed_cases},
                       {"tally", {{"file", kTallyFile}, {"sha256", sha256_hex(tally)}}}};
  const std::filesystem::path tmp = dir / (std::string(kShardFile) + ".partial");
  write_text(tmp, record.dump(1) + "\n");
  std::filesystem::rename(tmp, dir / kShardFile);
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
    std::ifstream f(file);
    j = json::parse(f);
  } catch (const json::exception& e) {
    throw bad(fmt::format("{} is not valid JSON ({})", kShardFile, e.what()));
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
    std::ifstream f(dir / kTallyFile, std::ios::binary);
    if (!f) throw bad(fmt::format("{} is missing", kTallyFile));
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)),
                                          std::istreambuf_iterator<char>());
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
