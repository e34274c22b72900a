#include "export.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "input_file.hpp"
#include "output_file.hpp"
#include "pack.hpp"
#include "pack_case.hpp"

namespace bng::cert {

using nlohmann::json;

std::int64_t run_export(const CampaignOptions& options, const std::filesystem::path& out) {
  const CampaignPlan plan = plan_campaign(options);
  const std::vector<std::size_t> jobs = owned_jobs(plan.cases.size(), options.shard);
  if (jobs.empty()) {
    throw std::invalid_argument(
        fmt::format("shard {} holds no case: the campaign has {} cases, so use at most {} shards",
                    options.shard->label(), plan.cases.size(), plan.cases.size()));
  }
  prepare_output_dir(out);
  if (file_kind(out / pack::kManifest) != "missing" ||
      file_kind(out / pack::kCasesDir) != "missing") {
    throw std::invalid_argument(fmt::format(
        "{} already holds a pack: choose a new --out directory (a pack is never overwritten, so "
        "device results in it are never lost)",
        out.string()));
  }
  make_subdirectory(out, pack::kCasesDir);

  // The manifest is written last: an interrupted export leaves none, and
  // `check` refuses the pack.
  std::string manifest = pack_manifest_head(plan, options.shard, jobs.size()).dump(1);
  manifest.pop_back();  // reopen the object for the case list
  manifest += ",\n \"cases\": [\n";
  std::string list;
  Progress progress("export", static_cast<std::int64_t>(jobs.size()), plan.options.progress);
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const PackCase pc = derive_pack_case(plan, jobs[i]);
    const std::filesystem::path dir = make_subdirectory(out, pc.dir);
    for (const auto& [name, bytes] : pc.files) write_file(dir / name, bytes);
    manifest += "  " + pc.entry.dump() + (i + 1 < jobs.size() ? ",\n" : "\n");
    list += pc.dir + "\n";
    progress.advance();
  }
  manifest += " ]\n}\n";
  write_text(out / pack::kCaseList, list);
  write_text(out / pack::kManifest, manifest);
  return static_cast<std::int64_t>(jobs.size());
}

}  // namespace bng::cert
