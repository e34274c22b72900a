// A campaign: the built-in case families of bng_properties, sampled
// deterministically from one seed, run through the shipped kernels (both
// targets' .so files) and judged against the exact reference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bng/properties/families.hpp"
#include "bng/properties/target.hpp"
#include "bng/reference/reference.hpp"
#include "case_record.hpp"
#include "progress.hpp"
#include "shard.hpp"
#include "tally.hpp"

namespace bng::cert {

// The most cases per series a campaign (or a pack or shard that names one)
// may ask for: 4000x the default, a plan of about a gigabyte.
inline constexpr int kMaxCasesPerSeries = 100000;

struct CampaignOptions {
  std::vector<prop::Target> targets = prop::all_targets();  // every target of the registry
  // Type combinations ("fp", "hp", "mp") or entry points ("hp_batchnormgrad_s");
  // empty: every function of every chosen target.
  std::vector<std::string> functions;
  std::vector<int> modes = {1, 0};    // is_train values
  std::vector<std::string> families;  // empty: all
  int cases =
      24;  // per kernel, family and mode: the default run takes ~40 s of CPU (< 3 min on 2 cores)
  std::uint64_t seed = 20261129;
  int max_size = 100;  // RapidCheck size of the largest cases (0..100)
  int jobs = 0;        // worker threads; 0: one per core
  // --shard K/N: run (or export) only shard K of the plan's cases, and write a
  // shard directory for `bngcert merge` instead of a report.
  std::optional<Shard> shard;
  // This run is one path's part of `certify --isa all` (a shard of it then
  // says so, and merge judges each path's shards as a run of their own).
  bool part_of_isa_all = false;
  // Which reference judges (--reference): not part of the campaign's identity,
  // since both paths give the same results bit for bit.
  ref::Path reference = ref::Path::tiered;
  Progress::Style progress = Progress::Style::automatic;
};

struct CampaignResult {
  CampaignOptions options;                    // as run (jobs resolved)
  std::vector<const prop::Family*> families;  // in campaign order
  std::vector<KernelTally> kernels;
  std::string started_utc;  // ISO 8601
  double seconds = 0;
  std::int64_t cases = 0;  // run here (a shard's own, when sharded)
  std::int64_t outputs = 0;
  std::int64_t planned = 0;         // cases of the whole campaign, every shard's
  std::vector<CaseRecord> records;  // what each case run here added, in job order
  bool passed() const;
};

// The job indices of the plan that options.shard owns (all of them unsharded).
std::vector<std::size_t> owned_jobs(std::size_t planned, const std::optional<Shard>& shard);

// One case of a campaign, before it runs: which kernel (index into
// CampaignPlan::kernels), family, mode, entry point and core mask, and the
// seed and size that regenerate its inputs with prop::sample.
struct PlannedCase {
  std::size_t kernel = 0;
  const prop::Family* family = nullptr;
  int is_train = 1;
  std::int64_t index = 0;  // within its (kernel, family, mode) series
  std::uint64_t seed = 0;
  int size = 0;
  prop::CallSpec spec;  // core_mask drawn from the seed (the _p forms ignore it)
};

// What a campaign will run, in job order: `report`, `certify` and `export`
// share it, so an exported pack holds exactly the cases a campaign judges.
struct CampaignPlan {
  CampaignOptions options;  // jobs resolved
  std::vector<const prop::Family*> families;
  std::vector<KernelTally> kernels;  // empty tallies, kernel filled in
  std::vector<PlannedCase> cases;
};

// Throws std::invalid_argument for unknown families or functions, or a
// selection that leaves nothing to run.
CampaignPlan plan_campaign(const CampaignOptions& options);
// plan_campaign(options).cases.size(), without building the plan: a pack or
// shard that claims a huge campaign is refused before anything is allocated.
std::size_t planned_case_count(const CampaignOptions& options);

// The inputs of a planned case (prop::sample, serialised: RapidCheck's
// generation is not documented as thread-safe).
Case sample_planned(const CampaignPlan& plan, const PlannedCase& p);

// Job `job` of the plan run through its kernel and judged on its own: what a
// campaign adds to its tallies, and what `merge --recheck` compares.
struct CaseRun {
  KernelTally tally;
  CaseRecord record;
};
CaseRun run_planned_case(const CampaignPlan& plan, std::size_t job);
CampaignResult run_campaign(const CampaignOptions& options);

// The seed of case `index` of a (kernel, family, mode) series: a reader
// regenerates the case with prop::sample(family, combo, seed, size).
std::uint64_t case_seed(std::uint64_t campaign_seed, const Kernel& k, std::string_view family,
                        int is_train, std::int64_t index);
int case_size(std::int64_t index, int cases, int max_size);

}  // namespace bng::cert
