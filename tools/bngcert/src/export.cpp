#include "export.hpp"

#include <array>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bng/properties/families.hpp"
#include "bng/properties/runner.hpp"
#include "case_files.hpp"
#include "pack.hpp"
#include "report.hpp"
#include "sha256.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

// "00012-mt7004-hp_batchnormgrad_s-near_max-training": sortable, and says
// what the case is to whoever lists the folder on the board.
std::string case_name(const PlannedCase& p, std::size_t job, std::size_t total, const Kernel& k) {
  const int digits = std::max<int>(5, static_cast<int>(fmt::format("{}", total).size()));
  return fmt::format("{:0{}}-{}-{}-{}-{}", job, digits, prop::target_name(k.target),
                     prop::entry_point(p.spec), p.family->name, mode_name(p.is_train));
}

// Writes `bytes` to dir/name and returns the manifest's entry for it.
json write_file(const std::filesystem::path& dir, std::string_view name,
                std::span<const unsigned char> bytes) {
  const std::filesystem::path path = dir / name;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
  return {{"sha256", sha256_hex(bytes)}, {"bytes", bytes.size()}};
}

json array_file(const std::filesystem::path& dir, std::string_view name, npy::DType dtype,
                std::span<const std::int64_t> shape, std::span<const double> values) {
  json entry = write_file(dir, name, npy::encode(dtype, shape, values));
  entry["dtype"] = npy::descr(dtype);
  entry["shape"] = std::vector<std::int64_t>(shape.begin(), shape.end());
  return entry;
}

// params.json: everything the harness needs to make the call, and everything
// check needs to name and regenerate the case.
json case_params(const std::string& name, const PlannedCase& p, const Kernel& k, const Case& c) {
  json j = {{"case", name},
            {"target", prop::target_name(k.target)},
            {"combo", combo_name(k.combo)},
            {"entry_point", prop::entry_point(p.spec)},
            {"form", prop::form_name(p.spec.form)},
            {"storage", prop::storage_name(p.spec.storage)},
            {"batch", c.batch},
            {"channel", c.channel},
            {"is_train", c.is_train},
            {"family", p.family->name},
            {"case_index", p.index},
            {"seed", p.seed},
            {"size", p.size}};
  if (p.spec.storage == prop::Storage::shared) j["core_mask"] = p.spec.core_mask;
  return j;
}

json campaign_json(const CampaignPlan& plan) {
  json targets = json::array(), modes = json::array(), families = json::array();
  for (auto t : plan.options.targets) targets.push_back(prop::target_name(t));
  for (int m : plan.options.modes) modes.push_back(mode_name(m));
  for (const auto* f : plan.families) families.push_back(f->name);
  return {
      {"seed", plan.options.seed},
      {"cases_per_series", plan.options.cases},
      {"max_size", plan.options.max_size},
      {"targets", targets},
      {"functions", plan.options.functions.empty() ? json("all") : json(plan.options.functions)},
      {"modes", modes},
      {"families", families}};
}

}  // namespace

std::int64_t run_export(const CampaignOptions& options, const std::filesystem::path& out) {
  const CampaignPlan plan = plan_campaign(options);
  if (std::filesystem::exists(out / pack::kManifest) ||
      std::filesystem::exists(out / pack::kCasesDir)) {
    throw std::invalid_argument(fmt::format(
        "{} already holds a pack: choose a new --out directory (a pack is never overwritten, so "
        "device results in it are never lost)",
        out.string()));
  }
  const std::vector<std::size_t> jobs = owned_jobs(plan.cases.size(), options.shard);
  if (jobs.empty()) {
    throw std::invalid_argument(
        fmt::format("shard {} holds no case: the campaign has {} cases, so use at most {} shards",
                    options.shard->label(), plan.cases.size(), plan.cases.size()));
  }
  std::filesystem::create_directories(out / pack::kCasesDir);

  // The manifest streams out case by case; it gets its final name last, so an
  // interrupted export leaves no manifest and `check` refuses the pack.
  const std::filesystem::path manifest_tmp = out / (std::string(pack::kManifest) + ".partial");
  std::ofstream manifest(manifest_tmp, std::ios::binary | std::ios::trunc);
  std::ofstream list(out / pack::kCaseList, std::ios::binary | std::ios::trunc);
  json head = {{"schema", pack::kSchema},
               {"schema_version", pack::kSchemaVersion},
               {"campaign", campaign_json(plan)},
               {"case_count", jobs.size()}};
  if (options.shard) {
    // Case names and "job" keep their place in the whole export, so shard
    // packs checked one by one merge into the result of the whole pack.
    head["shard"] = {{"index", options.shard->index}, {"count", options.shard->count}};
    head["case_count_total"] = plan.cases.size();
  }
  std::string text = head.dump(1);
  text.pop_back();  // reopen the object for the streamed case list
  manifest << text << ",\n \"cases\": [\n";

  Progress progress("export", static_cast<std::int64_t>(jobs.size()), plan.options.progress);
  for (std::size_t job = 0; job < jobs.size(); ++job) {
    const std::size_t j = jobs[job];
    const PlannedCase& p = plan.cases[j];
    const Kernel& k = plan.kernels[p.kernel].kernel;
    Case c = prop::sample(*p.family, k.combo, p.seed, p.size);
    c.is_train = p.is_train;
    const std::string name = case_name(p, j, plan.cases.size(), k);
    const std::string rel = fmt::format("{}/{}", pack::kCasesDir, name);
    const std::filesystem::path dir = out / rel;
    std::filesystem::create_directories(dir);

    const npy::DType data = dtype_of(data_format(c.combo)), stats = dtype_of(stats_format(c.combo));
    const std::array<std::int64_t, 2> matrix = {c.batch, c.channel};
    const std::array<std::int64_t, 1> vector = {c.channel};
    json files = json::object();
    files["x.npy"] = array_file(dir, "x.npy", data, matrix, c.x);
    files["dy.npy"] = array_file(dir, "dy.npy", data, matrix, c.dy);
    files["mean.npy"] = array_file(dir, "mean.npy", stats, vector, c.mean);
    files["invar.npy"] = array_file(dir, "invar.npy", stats, vector, c.invar);
    files["scale.npy"] = array_file(dir, "scale.npy", stats, vector, c.scale);
    json params = case_params(name, p, k, c);
    const std::string params_text = params.dump(2) + "\n";
    files[std::string(pack::kParams)] = write_file(
        dir, pack::kParams,
        {reinterpret_cast<const unsigned char*>(params_text.data()), params_text.size()});
    params["dir"] = rel;
    params["job"] = j;
    params["files"] = std::move(files);
    manifest << "  " << params.dump() << (job + 1 < jobs.size() ? ",\n" : "\n");
    list << rel << "\n";
    progress.advance();
  }
  manifest << " ]\n}\n";
  manifest.close();
  list.close();
  if (!manifest || !list) {
    throw std::runtime_error(fmt::format("{}: cannot write the manifest", out.string()));
  }
  std::filesystem::rename(manifest_tmp, out / pack::kManifest);
  return static_cast<std::int64_t>(jobs.size());
}

}  // namespace bng::cert
