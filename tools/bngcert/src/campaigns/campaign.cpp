#include "campaign.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"
#include "bng/reference/reference.hpp"
#include "call_judge.hpp"
#include "library_binding.hpp"
#include "parallel_jobs.hpp"
#include "utc_time.hpp"

namespace bng::cert {
namespace {

std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001b3ull;
  return h;
}

bool function_selected(const std::vector<std::string>& functions, const prop::CallSpec& s) {
  if (functions.empty()) return true;
  for (const auto& f : functions) {
    if (f == combo_name(s.combo) || f == prop::entry_point(s)) return true;
  }
  return false;
}

struct Series {
  std::size_t kernel;
  const prop::Family* family;
  int is_train;
  std::vector<prop::CallSpec>
      entries;  // the selected entry points of the kernel (mask filled per case)
};

}  // namespace

std::uint64_t case_seed(std::uint64_t campaign_seed, const Kernel& k, std::string_view family,
                        int is_train, std::int64_t index) {
  const std::string key = fmt::format("{}/{}/{}/{}", k.name(), family, is_train, index);
  return splitmix64(campaign_seed ^ fnv1a(key));
}

int case_size(std::int64_t index, int cases, int max_size) {
  if (cases <= 1) return max_size;
  return static_cast<int>(index * max_size / (cases - 1));
}

bool CampaignResult::passed() const {
  return std::all_of(kernels.begin(), kernels.end(),
                     [](const KernelTally& k) { return k.passed(); });
}

std::vector<std::size_t> owned_jobs(std::size_t planned, const std::optional<Shard>& shard) {
  std::vector<std::size_t> jobs;
  for (std::size_t j = 0; j < planned; ++j) {
    if (!shard || shard->owns(j)) jobs.push_back(j);
  }
  return jobs;
}

namespace {

// Everything plan_campaign decides before it lists the cases: families,
// kernels and each kernel's selected entry points.
struct Selection {
  std::vector<const prop::Family*> families;
  std::vector<KernelTally> kernels;
  std::vector<std::vector<prop::CallSpec>> kernel_entries;
};

Selection select(const CampaignOptions& options) {
  Selection result;
  if (options.cases < 1 || options.cases > kMaxCasesPerSeries) {
    throw std::invalid_argument(
        fmt::format("--cases must be in 1..{}, not {}", kMaxCasesPerSeries, options.cases));
  }
  if (options.max_size < 0 || options.max_size > 100)
    throw std::invalid_argument("--max-size must be in 0..100");

  if (options.families.empty()) {
    for (const auto& f : prop::families()) result.families.push_back(&f);
  } else {
    for (const auto& name : options.families) {
      const prop::Family* f = prop::find_family(name);
      if (!f) {
        std::string known;
        for (const auto& g : prop::families()) known += fmt::format(" {}", g.name);
        throw std::invalid_argument(fmt::format("unknown family '{}'; known:{}", name, known));
      }
      result.families.push_back(f);
    }
  }

  // Kernels and their entry points, in a fixed order.
  std::vector<std::vector<prop::CallSpec>> kernel_entries;
  for (prop::Target t : options.targets) {
    for (Combo combo : prop::combos(t)) {
      std::vector<prop::CallSpec> entries;
      for (const auto& s : prop::entry_points(t, combo, prop::kAllCores)) {
        if (function_selected(options.functions, s)) entries.push_back(s);
      }
      if (entries.empty()) continue;
      KernelTally k;
      k.kernel = {t, combo, prop::declared_alpha(t, combo)};
      result.kernels.push_back(std::move(k));
      kernel_entries.push_back(std::move(entries));
    }
  }
  for (const auto& f : options.functions) {
    bool used = false;
    for (const auto& entries : kernel_entries) {
      for (const auto& s : entries)
        used = used || f == combo_name(s.combo) || f == prop::entry_point(s);
    }
    if (!used) {
      throw std::invalid_argument(fmt::format(
          "function '{}' matches nothing the chosen targets export (use fp, hp, mp or an entry "
          "point such as hp_batchnormgrad_s)",
          f));
    }
  }
  if (result.kernels.empty()) throw std::invalid_argument("nothing selected to run");
  result.kernel_entries = std::move(kernel_entries);
  return result;
}

std::mutex g_sample_mutex;

}  // namespace

std::size_t planned_case_count(const CampaignOptions& options) {
  const Selection s = select(options);
  return static_cast<std::size_t>(options.cases) * s.kernels.size() * s.families.size() *
         options.modes.size();
}

CampaignPlan plan_campaign(const CampaignOptions& options) {
  Selection selection = select(options);
  CampaignPlan result;
  result.options = options;
  if (result.options.jobs <= 0) {
    result.options.jobs = default_jobs();
  }
  result.families = std::move(selection.families);
  result.kernels = std::move(selection.kernels);
  const auto& kernel_entries = selection.kernel_entries;
  std::vector<Series> series;
  for (std::size_t k = 0; k < result.kernels.size(); ++k) {
    for (const prop::Family* f : result.families) {
      for (int mode : options.modes) series.push_back({k, f, mode, kernel_entries[k]});
    }
  }
  // Interleave series so the progress rate is even and every kernel gets going early.
  for (std::int64_t i = 0; i < options.cases; ++i) {
    for (const Series& s : series) {
      PlannedCase p;
      p.kernel = s.kernel;
      p.family = s.family;
      p.is_train = s.is_train;
      p.index = i;
      p.seed =
          case_seed(options.seed, result.kernels[s.kernel].kernel, s.family->name, s.is_train, i);
      p.size = case_size(i, options.cases, options.max_size);
      p.spec = s.entries[static_cast<std::size_t>(i) % s.entries.size()];
      // Any of the 255 valid masks, from the case's seed (the _p forms ignore it).
      p.spec.core_mask = 1u + static_cast<unsigned>(splitmix64(p.seed) % 255u);
      result.cases.push_back(p);
    }
  }
  return result;
}

Case sample_planned(const CampaignPlan& plan, const PlannedCase& p) {
  std::lock_guard lock(g_sample_mutex);
  Case c = prop::sample(*p.family, plan.kernels[p.kernel].kernel.combo, p.seed, p.size);
  c.is_train = p.is_train;
  return c;
}

CaseRun run_planned_case(const CampaignPlan& plan, std::size_t job) {
  const PlannedCase& p = plan.cases.at(job);
  CaseRun out;
  KernelTally& tally = out.tally;
  tally.kernel = plan.kernels[p.kernel].kernel;
  Origin origin;
  origin.family = std::string(p.family->name);
  origin.case_index = p.index;
  origin.seed = p.seed;
  origin.size = p.size;
  origin.spec = p.spec;

  const Case c = sample_planned(plan, p);
  const ref::Result expected = ref::compute(c, plan.options.reference);
  const prop::RunResult got = prop::run(c, p.spec);
  ++tally.cases;
  ++tally.calls[prop::entry_point(p.spec)];
  if (got.status != 0 || got.clobbered) {
    ++tally.call_errors;
    tally.note_call_error(
        job,
        fmt::format("{}: {}x{} {}: {}", origin.label(), c.batch, c.channel, mode_name(c.is_train),
                    got.status != 0 ? fmt::format("valid call returned status {}", got.status)
                                    : std::string("the call wrote outside dx, dbias and dscale")));
  }
  judge(c, expected, got.values, origin, job, false, tally);
  out.record =
      make_case_record(job, p.kernel, tally, judged_bits(got.values, got.status, got.clobbered));
  return out;
}

CampaignResult run_campaign(const CampaignOptions& options) {
  CampaignPlan plan = plan_campaign(options);
  CampaignResult result;
  result.options = plan.options;
  result.families = plan.families;
  result.planned = static_cast<std::int64_t>(plan.cases.size());
  // Job j keeps its index in the whole plan as its order: ties between shards
  // break as they would in one process.
  const std::vector<std::size_t> jobs = owned_jobs(plan.cases.size(), options.shard);
  // Every library hashed, checked and loaded before any case runs: a refused
  // or missing .so is one clear error, not one per thread (library_binding.hpp).
  for (prop::Target t : options.targets) bind_library(t);

  result.started_utc = utc_now();
  const auto start = std::chrono::steady_clock::now();
  Progress progress("campaign", static_cast<std::int64_t>(jobs.size()), options.progress);
  struct Partial {
    std::vector<KernelTally> kernels;
    std::vector<CaseRecord> records;
  };
  std::vector<Partial> partial(
      static_cast<std::size_t>(worker_count(result.options.jobs, jobs.size())));
  for (Partial& mine : partial) {
    for (const auto& k : plan.kernels) {
      KernelTally t;
      t.kernel = k.kernel;
      mine.kernels.push_back(std::move(t));
    }
  }
  run_jobs(result.options.jobs, jobs.size(), [&](int worker, std::size_t i) {
    Partial& mine = partial[static_cast<std::size_t>(worker)];
    CaseRun one = run_planned_case(plan, jobs[i]);
    mine.kernels[one.record.kernel].merge(std::move(one.tally));
    mine.records.push_back(std::move(one.record));
    progress.advance();
  });

  result.kernels = std::move(plan.kernels);
  for (auto& mine : partial) {
    for (std::size_t k = 0; k < mine.kernels.size(); ++k) {
      result.kernels[k].merge(std::move(mine.kernels[k]));
    }
    for (auto& r : mine.records) result.records.push_back(std::move(r));
  }
  std::sort(result.records.begin(), result.records.end(),
            [](const CaseRecord& a, const CaseRecord& b) { return a.job < b.job; });
  for (const auto& k : result.kernels) {
    result.cases += k.cases;
    for (const auto& o : k.outputs) result.outputs += o.all.outputs;
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace bng::cert
