#include "pack_case.hpp"

#include <array>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"
#include "campaign_record.hpp"
#include "case_files.hpp"
#include "pack.hpp"
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

json file_entry(std::span<const unsigned char> bytes) {
  return {{"sha256", sha256_hex(bytes)}, {"bytes", bytes.size()}};
}

// params.json: everything the harness needs to make the call, and everything
// a reader needs to name and regenerate the case.
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

std::string case_name(const CampaignPlan& plan, std::size_t job) {
  const PlannedCase& p = plan.cases.at(job);
  return case_name(p, job, plan.cases.size(), plan.kernels[p.kernel].kernel);
}

}  // namespace

std::string pack_case_dir(const CampaignPlan& plan, std::size_t job) {
  return fmt::format("{}/{}", pack::kCasesDir, case_name(plan, job));
}

PackCase derive_pack_case(const CampaignPlan& plan, std::size_t job) {
  const PlannedCase& p = plan.cases.at(job);
  const Kernel& k = plan.kernels[p.kernel].kernel;
  PackCase out;
  out.job = job;
  out.kernel = p.kernel;
  out.spec = p.spec;
  out.c = sample_planned(plan, p);
  out.name = case_name(plan, job);
  out.dir = pack_case_dir(plan, job);

  const Case& c = out.c;
  const npy::DType data = dtype_of(data_format(c.combo)), stats = dtype_of(stats_format(c.combo));
  const std::array<std::int64_t, 2> matrix = {c.batch, c.channel};
  const std::array<std::int64_t, 1> vector = {c.channel};
  json files = json::object();
  const auto add_array = [&](const char* file, npy::DType dtype,
                             std::span<const std::int64_t> shape,
                             const std::vector<double>& values) {
    auto bytes = npy::encode(dtype, shape, values);
    json entry = file_entry(bytes);
    entry["dtype"] = npy::descr(dtype);
    entry["shape"] = std::vector<std::int64_t>(shape.begin(), shape.end());
    files[file] = std::move(entry);
    out.files.emplace_back(file, std::move(bytes));
  };
  add_array("x.npy", data, matrix, c.x);
  add_array("dy.npy", data, matrix, c.dy);
  add_array("mean.npy", stats, vector, c.mean);
  add_array("invar.npy", stats, vector, c.invar);
  add_array("scale.npy", stats, vector, c.scale);
  json params = case_params(out.name, p, k, c);
  const std::string text = params.dump(2) + "\n";
  std::vector<unsigned char> params_bytes(text.begin(), text.end());
  files[std::string(pack::kParams)] = file_entry(params_bytes);
  out.files.emplace_back(pack::kParams, std::move(params_bytes));

  params["dir"] = out.dir;
  params["job"] = job;
  params["files"] = std::move(files);
  out.entry = std::move(params);
  return out;
}

json pack_manifest_head(const CampaignPlan& plan, const std::optional<Shard>& shard,
                        std::size_t case_count) {
  json head = {{"schema", pack::kSchema},
               {"schema_version", pack::kSchemaVersion},
               {"campaign", campaign_record(plan.options, plan.families)},
               {"case_count", case_count}};
  if (shard) {
    // Case names and "job" keep their place in the whole export, so shard
    // packs checked one by one merge into the result of the whole pack.
    head["shard"] = {{"index", shard->index}, {"count", shard->count}};
    head["case_count_total"] = plan.cases.size();
  }
  return head;
}

}  // namespace bng::cert
