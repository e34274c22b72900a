#include "pack_reader.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"
#include "campaign_record.hpp"
#include "case_files.hpp"
#include "dump_judge.hpp"
#include "json_input.hpp"
#include "pack.hpp"
#include "pack_case.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

// A reason a case fails without being judged.
struct CaseFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string first_difference(const std::vector<unsigned char>& found,
                             const std::vector<unsigned char>& derived) {
  if (found.size() != derived.size()) {
    return fmt::format("{} bytes where its seed gives {}", found.size(), derived.size());
  }
  const auto at = std::mismatch(found.begin(), found.end(), derived.begin()).first;
  return fmt::format("byte {} differs", at - found.begin());
}

bool is_real_directory(const std::filesystem::path& p) {
  return file_kind(p) == "a directory";
}

std::filesystem::path manifest_of(const std::filesystem::path& given, std::filesystem::path& root) {
  if (std::filesystem::is_directory(given)) {
    root = given;
    return given / pack::kManifest;
  }
  root = given.parent_path().empty() ? "." : given.parent_path();
  return given;
}

}  // namespace

OpenedPack open_pack_manifest(std::string_view text, const std::filesystem::path& manifest_path) {
  OpenedPack p;
  p.manifest_path = manifest_path;
  const std::string where = p.manifest_path.string();
  try {
    p.manifest = parse_json(text, where);
    if (!has_member(p.manifest, "schema") || p.manifest["schema"] != pack::kSchema) {
      throw PackRefused(fmt::format("{}: not a bngcert pack manifest (schema must be '{}')", where,
                                    pack::kSchema));
    }
    const int version = int_field<int>(p.manifest, "schema_version", 0, 1 << 20, where);
    if (version != pack::kSchemaVersion) {
      throw PackRefused(fmt::format("{}: pack schema version {} (this bngcert reads {})", where,
                                    version, pack::kSchemaVersion));
    }
    const json& cases = array_field(p.manifest, "cases", where);
    if (cases.empty()) throw PackRefused(fmt::format("{}: the pack lists no cases", where));
    const CampaignOptions options =
        campaign_options(object_field(p.manifest, "campaign", where), where + ": campaign");
    std::size_t planned = 0;
    try {
      planned = planned_case_count(options);
    } catch (const std::invalid_argument& e) {
      throw PackRefused(fmt::format("{}: campaign: {}", where, e.what()));
    }
    if (has_member(p.manifest, "shard")) {
      const json& s = object_field(p.manifest, "shard", where);
      Shard shard;
      shard.count = int_field<int>(s, "count", 1, kMaxShards, where + ": shard");
      shard.index = int_field<int>(s, "index", 1, shard.count, where + ": shard");
      p.exported_shard = shard;
    }
    p.jobs = owned_jobs(planned, p.exported_shard);
    if (cases.size() != p.jobs.size()) {
      throw PackRefused(fmt::format(
          "{}: lists {} cases, but its campaign (seed {}{}) generates {}: a case was removed or "
          "added after export",
          where, cases.size(), options.seed,
          p.exported_shard ? ", shard " + p.exported_shard->label() : std::string(),
          p.jobs.size()));
    }
    p.plan = plan_campaign(options);
  } catch (const InputError& e) {
    throw PackRefused(e.what());
  }
  p.campaign = campaign_record(p.plan.options, p.plan.families);

  // The head, exactly as export writes it for this plan.
  json head = p.manifest;
  head.erase("cases");
  const json derived = pack_manifest_head(p.plan, p.exported_shard, p.jobs.size());
  if (head != derived) {
    throw PackRefused(fmt::format("{}: differs from what its campaign generates in: {}", where,
                                  differing_keys(head, derived)));
  }
  return p;
}

OpenedPack open_pack(const std::filesystem::path& given) {
  std::filesystem::path root;
  const std::filesystem::path manifest_path = manifest_of(given, root);
  if (file_kind(manifest_path) == "missing") {
    throw PackRefused(fmt::format(
        "{}: no pack manifest (is this the directory `bngcert export --out` wrote? an interrupted "
        "export leaves none)",
        manifest_path.string()));
  }
  std::string text;
  try {
    text = read_text_file(manifest_path, kMaxJsonBytes, Links::refuse);
  } catch (const InputError& e) {
    throw PackRefused(e.what());
  }
  OpenedPack p = open_pack_manifest(text, manifest_path);
  p.root = root;
  // cases.txt, which the harness runs, names exactly the planned folders.
  std::string list;
  for (std::size_t job : p.jobs) list += pack_case_dir(p.plan, job) + "\n";
  const std::filesystem::path list_path = p.root / pack::kCaseList;
  std::string found;
  try {
    found = read_text_file(list_path, list.size() + 1, Links::refuse);
  } catch (const InputError& e) {
    throw PackRefused(fmt::format("{} (the case list the harness runs)", e.what()));
  }
  if (found != list) {
    const std::vector<unsigned char> a(found.begin(), found.end()), b(list.begin(), list.end());
    throw PackRefused(fmt::format("{}: not the case list its campaign generates ({})",
                                  list_path.string(), first_difference(a, b)));
  }
  if (!is_real_directory(p.root / pack::kCasesDir)) {
    throw PackRefused(fmt::format("{}: {}, not the pack's folder of cases",
                                  (p.root / pack::kCasesDir).string(),
                                  file_kind(p.root / pack::kCasesDir)));
  }
  return p;
}

namespace {

// status.json as the harness writes it: the call ran and returned 0.
std::vector<unsigned char> read_status(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / pack::kStatus;
  if (file_kind(path) == "missing") {
    throw CaseFailure(fmt::format("{}: missing: the harness did not run this case", pack::kStatus));
  }
  std::vector<unsigned char> bytes;
  json s;
  try {
    bytes = read_regular_file(path, kMaxSmallJsonBytes, Links::refuse);
    s = parse_json({reinterpret_cast<const char*>(bytes.data()), bytes.size()},
                   std::string(pack::kStatus));
    if (has_member(s, "harness_error")) {
      throw CaseFailure(fmt::format("the harness could not run it: {}", s["harness_error"].dump()));
    }
    const int status =
        int_field<int>(s, "status", INT32_MIN, INT32_MAX, std::string(pack::kStatus));
    if (status != 0) {
      const std::string message = has_member(s, "message") && s["message"].is_string()
                                      ? s["message"].get<std::string>()
                                      : "no message";
      throw CaseFailure(
          fmt::format("the call returned status {} ({}) on valid input", status, message));
    }
  } catch (const InputError& e) {
    throw CaseFailure(e.what());
  }
  return bytes;
}

// One output file: read whole, its dtype and shape checked.
npy::Array open_output(const std::filesystem::path& dir, const char* name, const PackCase& pc,
                       std::vector<unsigned char>& judged) {
  const std::string file = std::string(name) + ".npy";
  const std::filesystem::path path = dir / file;
  if (file_kind(path) == "missing") throw CaseFailure(file + ": missing");
  const bool data = std::string_view(name) == "dx";
  const npy::DType want = dtype_of(data ? data_format(pc.c.combo) : stats_format(pc.c.combo));
  const std::vector<std::int64_t> shape = data ? std::vector<std::int64_t>{pc.c.batch, pc.c.channel}
                                               : std::vector<std::int64_t>{pc.c.channel};
  std::vector<unsigned char> bytes;
  try {
    bytes = read_regular_file(path, kMaxDataBytes, Links::refuse);
  } catch (const InputError& e) {
    throw CaseFailure(fmt::format("{}: unreadable: {}", file, e.what()));
  }
  judged.insert(judged.end(), bytes.begin(), bytes.end());
  npy::Array a = [&] {
    try {
      return npy::Array::from_bytes(file, std::move(bytes));
    } catch (const npy::Error& e) {
      throw CaseFailure(fmt::format("{}: unreadable: {}", file, e.what()));
    }
  }();
  if (a.header().dtype != want) {
    throw CaseFailure(fmt::format("{}: dtype '{}', but a {} case needs '{}'", file,
                                  npy::descr(a.header().dtype), combo_name(pc.c.combo),
                                  npy::descr(want)));
  }
  if (a.header().shape != shape) {
    throw CaseFailure(fmt::format("{}: shape {}, but the case needs ({})", file,
                                  a.header().shape_string(), fmt::join(shape, ", ")));
  }
  return a;
}

// The input files on disk against their derivation: "" when identical, else
// the refusal; a missing file throws CaseFailure (the device's run cannot be
// confirmed, so the case cannot pass).
std::string compare_inputs(const std::filesystem::path& dir, const PackCase& pc) {
  for (const auto& [file, derived] : pc.files) {
    const std::filesystem::path path = dir / file;
    if (file_kind(path) == "missing") {
      throw CaseFailure(fmt::format("{}: missing (exported with the pack)", file));
    }
    std::vector<unsigned char> found;
    try {
      found = read_regular_file(path, derived.size() + 1, Links::refuse);
    } catch (const InputError& e) {
      return e.what();
    }
    if (found != derived) {
      return fmt::format(
          "{}: not the input its seed generates ({}): the input changed after "
          "export",
          path.string(), first_difference(found, derived));
    }
  }
  return "";
}

}  // namespace

std::string entry_difference(const OpenedPack& pack, std::size_t index, const PackCase& derived) {
  const json& entry = pack.manifest["cases"][index];
  if (entry == derived.entry) return "";
  return fmt::format("{}: case #{} ({}) differs from what its seed generates in: {}",
                     pack.manifest_path.string(), index, derived.name,
                     differing_keys(entry, derived.entry));
}

JudgedPackCase judge_pack_case(const OpenedPack& pack, std::size_t index,
                               std::int64_t block_elements, int inner_jobs) {
  JudgedPackCase out;
  const std::size_t job = pack.jobs.at(index);
  const PackCase pc = derive_pack_case(pack.plan, job);
  out.name = pc.name;
  out.job = job;
  KernelTally& t = out.tally;
  t.kernel = pack.plan.kernels[pc.kernel].kernel;
  ++t.cases;
  ++t.calls[prop::entry_point(pc.spec)];
  if (std::string d = entry_difference(pack, index, pc); !d.empty()) {
    out.refusal = d;
    return out;
  }
  const std::filesystem::path dir = pack.root / pc.dir;
  std::vector<unsigned char> judged;
  try {
    const std::string kind = file_kind(dir);
    if (kind == "missing") throw CaseFailure("its folder is missing: the case was never run");
    if (kind != "a directory") {
      out.refusal =
          fmt::format("{}: {}, not a case folder (refused, not followed)", dir.string(), kind);
      return out;
    }
    if (const std::string differs = compare_inputs(dir, pc); !differs.empty()) {
      out.refusal = differs;
      return out;
    }
    judged = read_status(dir);
    DumpArrays a;
    for (const auto& [file, bytes] : pc.files) {
      if (file == pack::kParams) continue;
      const std::string name = file.substr(0, file.size() - 4);  // without ".npy"
      a.emplace(name, npy::Array::from_bytes((dir / file).string(), bytes));
    }
    for (const char* n : {"dx", "dbias", "dscale"}) a.emplace(n, open_output(dir, n, pc, judged));
    Origin origin;
    const PlannedCase& p = pack.plan.cases[job];
    origin.family = std::string(p.family->name);
    origin.case_index = p.index;
    origin.seed = p.seed;
    origin.size = p.size;
    origin.spec = pc.spec;
    origin.case_name = pc.name;
    const DumpShape shape{pc.c.combo, pc.c.batch, pc.c.channel, pc.c.is_train};
    // Orders rank cases first, blocks within a case second: deterministic ties.
    judge_dump(a, shape, origin, job << 32, block_elements, inner_jobs, pack.plan.options.reference,
               t, nullptr);
    std::int64_t fails = 0;
    for (const auto& o : t.outputs) fails += o.all.fails;
    if (fails > 0) out.failure = fmt::format("{} outputs failed their kernel's criterion", fails);
  } catch (const CaseFailure& e) {
    ++t.call_errors;
    out.failure = e.what();
    t.note_call_error(job << 32, fmt::format("pack case {}: {}", pc.name, e.what()));
    judged.assign(out.failure->begin(), out.failure->end());
  }
  out.record = make_case_record(job, pc.kernel, t, judged);
  return out;
}

}  // namespace bng::cert
