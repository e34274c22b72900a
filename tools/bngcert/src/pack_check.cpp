// `bngcert check --pack`: judges every case of an exported pack after a device
// (the C harness) wrote its outputs, as one run: one report, one certificate.
// A case that cannot be judged (missing or unreadable output, wrong dtype or
// shape, nonzero status, changed input) is a failed case with its reason —
// never skipped, never passed. Only a pack that cannot be read at all (no
// manifest, malformed manifest, no cases) is an error (exit 2).
#include "pack_check.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <fstream>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "bng/properties/families.hpp"
#include "case_files.hpp"
#include "certificate.hpp"
#include "cli.hpp"
#include "dump_judge.hpp"
#include "output_file.hpp"
#include "pack.hpp"
#include "report.hpp"
#include "sha256.hpp"
#include "shard_dir.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

struct PackError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A reason a case fails without being judged.
struct CaseError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One case as the manifest describes it.
struct PackCase {
  std::string name, dir;
  std::uint64_t job = 0;   // index in the whole export: its order, and its shard
  std::size_t kernel = 0;  // index into the run's kernels
  prop::CallSpec spec;
  DumpShape shape;
  std::string family;
  std::int64_t case_index = 0;
  std::uint64_t seed = 0;
  int size = 0;
  json files;  // file name -> {"sha256", ...}
};

struct Pack {
  std::filesystem::path root, manifest;
  json campaign;
  std::optional<Shard> exported_shard;  // a pack written by `export --shard`
  std::int64_t exported_cases = 0;      // cases of the whole export, every shard's
  std::vector<Kernel> kernels;
  std::vector<PackCase> cases;
};

std::optional<Combo> combo_named(const std::string& s) {
  for (Combo c : {Combo::fp, Combo::hp, Combo::mp}) {
    if (combo_name(c) == s) return c;
  }
  return std::nullopt;
}

PackCase read_case(const json& e, std::size_t i, const std::filesystem::path& manifest,
                   std::vector<Kernel>& kernels) {
  const auto bad = [&](const std::string& what) {
    return PackError(fmt::format("{}: case #{}: {}", manifest.string(), i, what));
  };
  PackCase c;
  try {
    c.name = e.at("case").get<std::string>();
    c.dir = e.at("dir").get<std::string>();
    c.job = e.value("job", static_cast<std::uint64_t>(i));
    const std::string target = e.at("target").get<std::string>();
    const std::optional<prop::Target> found = prop::find_target(target);
    if (!found) throw bad("unknown target '" + target + "'");
    const auto combo = combo_named(e.at("combo").get<std::string>());
    if (!combo) throw bad("unknown combo " + e.at("combo").dump());
    c.spec.target = *found;
    c.spec.combo = *combo;
    c.spec.storage =
        e.at("storage").get<std::string>() == "p" ? prop::Storage::private_ : prop::Storage::shared;
    c.spec.form = e.at("form").get<std::string>() == "flat" ? prop::Form::flat : prop::Form::params;
    c.spec.core_mask = e.value("core_mask", 0u);
    if (!prop::exists(c.spec) || prop::entry_point(c.spec) != e.at("entry_point")) {
      throw bad(fmt::format("entry point {} does not match target, combo, storage and form",
                            e.at("entry_point").dump()));
    }
    c.shape = {*combo, e.at("batch").get<std::int64_t>(), e.at("channel").get<std::int64_t>(),
               e.at("is_train").get<int>()};
    if (c.shape.batch < 1 || c.shape.channel < 1 || (c.shape.is_train & ~1) != 0) {
      throw bad("batch and channel must be at least 1 and is_train 0 or 1");
    }
    c.family = e.at("family").get<std::string>();
    c.case_index = e.value("case_index", std::int64_t{0});
    c.seed = e.value("seed", std::uint64_t{0});
    c.size = e.value("size", 0);
    c.files = e.at("files");
    if (!c.files.is_object()) throw bad("'files' is not an object");
  } catch (const json::exception& x) {
    throw bad(fmt::format("missing or mistyped field ({})", x.what()));
  }
  // A case folder stays inside the pack.
  const std::filesystem::path rel(c.dir);
  if (rel.is_absolute() || c.dir.find("..") != std::string::npos || c.dir.empty()) {
    throw bad(fmt::format("dir '{}' is not a folder inside the pack", c.dir));
  }
  const Kernel k{c.spec.target, c.spec.combo, prop::declared_alpha(c.spec.target, c.spec.combo)};
  auto it = std::find_if(kernels.begin(), kernels.end(), [&](const Kernel& have) {
    return have.target == k.target && have.combo == k.combo;
  });
  if (it == kernels.end()) it = kernels.insert(kernels.end(), k);
  c.kernel = static_cast<std::size_t>(it - kernels.begin());
  return c;
}

Pack read_pack(const std::filesystem::path& given) {
  Pack p;
  if (std::filesystem::is_directory(given)) {
    p.root = given;
    p.manifest = given / pack::kManifest;
  } else {
    p.manifest = given;
    p.root = given.parent_path().empty() ? "." : given.parent_path();
  }
  if (!std::filesystem::exists(p.manifest)) {
    throw PackError(fmt::format(
        "{}: no pack manifest (is this the directory `bngcert export --out` wrote? an interrupted "
        "export leaves none)",
        p.manifest.string()));
  }
  json m;
  try {
    std::ifstream f(p.manifest);
    m = json::parse(f);
  } catch (const json::exception& e) {
    throw PackError(fmt::format("{}: not valid JSON: {}", p.manifest.string(), e.what()));
  }
  if (!m.is_object() || m.value("schema", "") != pack::kSchema) {
    throw PackError(fmt::format("{}: not a bngcert pack manifest (schema must be '{}')",
                                p.manifest.string(), pack::kSchema));
  }
  if (m.value("schema_version", 0) != pack::kSchemaVersion) {
    throw PackError(fmt::format("{}: pack schema version {} (this bngcert reads {})",
                                p.manifest.string(), m.value("schema_version", 0),
                                pack::kSchemaVersion));
  }
  if (!m.contains("cases") || !m["cases"].is_array() || m["cases"].empty()) {
    throw PackError(fmt::format("{}: the pack lists no cases", p.manifest.string()));
  }
  p.campaign = m.value("campaign", json::object());
  p.exported_cases = static_cast<std::int64_t>(m["cases"].size());
  if (m.contains("shard")) {
    const auto shard = m["shard"].is_object()
                           ? parse_shard(fmt::format("{}/{}", m["shard"].value("index", 0),
                                                     m["shard"].value("count", 0)))
                           : std::nullopt;
    if (!shard) throw PackError(fmt::format("{}: malformed 'shard'", p.manifest.string()));
    p.exported_shard = shard;
    p.exported_cases = m.value("case_count_total", std::int64_t{0});
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < m["cases"].size(); ++i) {
    p.cases.push_back(read_case(m["cases"][i], i, p.manifest, p.kernels));
    if (!names.insert(p.cases.back().name).second) {
      throw PackError(
          fmt::format("{}: case '{}' is listed twice", p.manifest.string(), p.cases.back().name));
    }
  }
  // Reports list kernels in a fixed order, whatever order the manifest has.
  std::vector<Kernel> sorted = p.kernels;
  std::sort(sorted.begin(), sorted.end(), [](const Kernel& a, const Kernel& b) {
    return std::pair(a.target, a.combo) < std::pair(b.target, b.combo);
  });
  for (auto& c : p.cases) {
    const Kernel& k = p.kernels[c.kernel];
    c.kernel = static_cast<std::size_t>(
        std::find_if(sorted.begin(), sorted.end(),
                     [&](const Kernel& s) { return s.target == k.target && s.combo == k.combo; }) -
        sorted.begin());
  }
  p.kernels = std::move(sorted);
  return p;
}

// The inputs must be the bytes the pack was exported with: a device run on
// changed inputs judged against them would be meaningless.
void verify_checksums(const PackCase& c, const std::filesystem::path& dir) {
  for (const auto& [file, entry] : c.files.items()) {
    const std::filesystem::path path = dir / file;
    if (!std::filesystem::exists(path)) {
      throw CaseError(fmt::format("{}: missing (exported with the pack)", file));
    }
    const std::string want = entry.value("sha256", "");
    if (sha256_file(path) != want) {
      throw CaseError(fmt::format(
          "{}: SHA-256 differs from the manifest: the input changed after export", file));
    }
  }
}

// status.json as the harness writes it: the call ran and returned 0.
void verify_status(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / pack::kStatus;
  if (!std::filesystem::exists(path)) {
    throw CaseError(fmt::format("{}: missing: the harness did not run this case", pack::kStatus));
  }
  json s;
  try {
    std::ifstream f(path);
    s = json::parse(f);
  } catch (const json::exception&) {
    throw CaseError(fmt::format("{}: not valid JSON", pack::kStatus));
  }
  if (!s.is_object()) throw CaseError(fmt::format("{}: not a JSON object", pack::kStatus));
  if (s.contains("harness_error")) {
    throw CaseError(fmt::format("the harness could not run it: {}", s["harness_error"].dump()));
  }
  if (!s.contains("status") || !s["status"].is_number_integer()) {
    throw CaseError(fmt::format("{}: no integer 'status'", pack::kStatus));
  }
  const int status = s["status"].get<int>();
  if (status != 0) {
    throw CaseError(fmt::format("the call returned status {} ({}) on valid input", status,
                                s.value("message", "no message")));
  }
}

DumpArrays open_arrays(const PackCase& c, const std::filesystem::path& dir) {
  DumpArrays a;
  const npy::DType data = dtype_of(data_format(c.shape.combo));
  const npy::DType stats = dtype_of(stats_format(c.shape.combo));
  const std::vector<std::int64_t> matrix = {c.shape.batch, c.shape.channel};
  const std::vector<std::int64_t> vector = {c.shape.channel};
  for (const char* n : {"x", "dy", "dx", "mean", "invar", "scale", "dbias", "dscale"}) {
    const std::string file = std::string(n) + ".npy";
    if (!std::filesystem::exists(dir / file)) throw CaseError(file + ": missing");
    npy::Array arr = [&] {
      try {
        return npy::Array::open(dir / file);
      } catch (const std::exception& e) {
        throw CaseError(fmt::format("{}: unreadable: {}", file, e.what()));
      }
    }();
    const std::string_view name = n;
    const bool is_data = name == "x" || name == "dy" || name == "dx";
    const npy::DType want = is_data ? data : stats;
    const auto& want_shape = is_data ? matrix : vector;
    if (arr.header().dtype != want) {
      throw CaseError(fmt::format("{}: dtype '{}', but a {} case needs '{}'", file,
                                  npy::descr(arr.header().dtype), combo_name(c.shape.combo),
                                  npy::descr(want)));
    }
    if (arr.header().shape != want_shape) {
      throw CaseError(fmt::format("{}: shape {}, but the case needs ({})", file,
                                  arr.header().shape_string(), fmt::join(want_shape, ", ")));
    }
    a.emplace(n, std::move(arr));
  }
  return a;
}

struct FailedCase {
  std::uint64_t index;  // the case's job
  std::string name, reason;
};

struct WorkerResult {
  std::vector<KernelTally> kernels;
  std::vector<FailedCase> failed;
};

void judge_case(const Pack& p, std::size_t i, std::int64_t block_elements, int inner_jobs,
                WorkerResult& w) {
  const PackCase& c = p.cases[i];
  KernelTally& t = w.kernels[c.kernel];
  ++t.cases;
  ++t.calls[prop::entry_point(c.spec)];
  const std::filesystem::path dir = p.root / c.dir;
  try {
    verify_checksums(c, dir);
    verify_status(dir);
    const DumpArrays a = open_arrays(c, dir);
    Origin origin;
    origin.family = c.family;
    origin.case_index = c.case_index;
    origin.seed = c.seed;
    origin.size = c.size;
    origin.spec = c.spec;
    origin.case_name = c.name;
    KernelTally mine;
    mine.kernel = t.kernel;
    // Orders rank cases first, blocks within a case second: deterministic ties.
    judge_dump(a, c.shape, origin, c.job << 32, block_elements, inner_jobs, mine, nullptr);
    std::int64_t fails = 0;
    for (const auto& o : mine.outputs) fails += o.all.fails;
    t.merge(std::move(mine));
    if (fails > 0) {
      w.failed.push_back({c.job, c.name, fmt::format("{} outputs beyond the bound", fails)});
    }
  } catch (
      const std::exception& e) {  // CaseError, npy::Error, I/O: this case fails, the run goes on
    ++t.call_errors;
    const std::string reason = e.what();
    t.note_call_error(c.job << 32, fmt::format("pack case {}: {}", c.name, reason));
    w.failed.push_back({c.job, c.name, reason});
  }
}

json families_json(const json& campaign) {
  json out = json::array();
  for (const auto& n : campaign.value("families", json::array())) {
    const std::string name = n.is_string() ? n.get<std::string>() : n.dump();
    const prop::Family* f = prop::find_family(name);
    out.push_back({{"name", name},
                   {"description", f ? std::string(f->description) : std::string("(unknown)")},
                   {"finite", f ? f->finite : true}});
  }
  return out;
}

}  // namespace

int run_pack_check(const PackCheckOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const std::string started = utc_now();
  Pack p;
  try {
    p = read_pack(o.pack);
  } catch (const PackError& e) {
    fmt::print(stderr, "bngcert: error: {}\n", e.what());
    return kExitError;
  }
  if (o.shard && p.exported_shard) {
    fmt::print(stderr,
               "bngcert: error: {} is shard {} of an export already: check it without --shard "
               "(its result is that shard, for bngcert merge)\n",
               p.manifest.string(), p.exported_shard->label());
    return kExitError;
  }
  const std::optional<Shard> shard = o.shard ? o.shard : p.exported_shard;
  if (shard) {
    prepare_shard_dir(o.out);
  } else {
    prepare_output_dir(o.out);
  }
  std::vector<std::size_t> owned;
  for (std::size_t i = 0; i < p.cases.size(); ++i) {
    if (!o.shard || o.shard->owns(p.cases[i].job)) owned.push_back(i);
  }

  const int jobs =
      o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int workers = std::max(1, std::min<int>(jobs, static_cast<int>(owned.size())));
  const int inner_jobs = std::max(1, jobs / workers);  // few large cases: blocks in parallel
  std::vector<WorkerResult> results(static_cast<std::size_t>(workers));
  std::atomic<std::size_t> next{0};
  std::mutex error_mutex;
  std::exception_ptr error;
  {
    Progress progress("check", static_cast<std::int64_t>(owned.size()), o.progress);
    auto work = [&](WorkerResult& w) {
      for (const Kernel& k : p.kernels) {
        KernelTally t;
        t.kernel = k;
        w.kernels.push_back(std::move(t));
      }
      try {
        for (std::size_t i; (i = next.fetch_add(1)) < owned.size();) {
          judge_case(p, owned[i], o.block_elements, inner_jobs, w);
          progress.advance();
        }
      } catch (...) {  // not a case's fault (out of memory, a bug): stop the run
        std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = owned.size();
      }
    };
    std::vector<std::jthread> threads;
    for (int w = 1; w < workers; ++w) threads.emplace_back(work, std::ref(results[w]));
    work(results[0]);
  }
  if (error) std::rethrow_exception(error);

  std::vector<KernelTally> kernels;
  for (const Kernel& k : p.kernels) {
    KernelTally t;
    t.kernel = k;
    kernels.push_back(std::move(t));
  }
  std::vector<FailedCase> failed;
  for (auto& w : results) {
    for (std::size_t k = 0; k < kernels.size(); ++k) kernels[k].merge(std::move(w.kernels[k]));
    failed.insert(failed.end(), w.failed.begin(), w.failed.end());
  }
  std::sort(failed.begin(), failed.end(),
            [](const FailedCase& a, const FailedCase& b) { return a.index < b.index; });

  std::int64_t outputs = 0;
  for (const auto& k : kernels) {
    for (const auto& ot : k.outputs) outputs += ot.all.outputs;
  }
  json run = {{"kind", "pack"},    {"pack", p.root.string()}, {"manifest", p.manifest.string()},
              {"jobs", jobs},      {"started_utc", started},  {"cases", owned.size()},
              {"outputs", outputs}};
  for (const char* key :
       {"seed", "cases_per_series", "max_size", "targets", "functions", "modes"}) {
    if (p.campaign.contains(key)) run[key] = p.campaign[key];
  }
  run["families"] = families_json(p.campaign);
  run["duration_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  if (shard) {
    ShardRecord record;
    record.command = "check";
    record.shard = *shard;
    record.identity = {
        {"kind", "pack"}, {"campaign", p.campaign}, {"planned_cases", p.exported_cases}};
    record.build = build_json({});
    record.run = run;
    record.run["host"] = host_name();
    for (const auto& f : failed) {
      record.failed_cases.push_back({{"index", f.index}, {"case", f.name}, {"reason", f.reason}});
    }
    record.kernels = std::move(kernels);
    write_shard_dir(o.out, record);
    fmt::print(stderr,
               "bngcert: shard {} of the check — {} cases, {} outputs judged, {} failed cases; "
               "wrote {}/ (judged when merged: bngcert merge)\n",
               shard->label(), owned.size(), outputs, failed.size(), o.out.string());
    return kExitPass;
  }

  json failed_json = json::array();
  for (const auto& f : failed) failed_json.push_back({{"case", f.name}, {"reason", f.reason}});
  run["failed_cases"] = failed_json;
  const json report = write_report(o.out, run, kernels);
  const bool pass = write_certificate(o.out, {report});
  for (std::size_t i = 0; i < failed.size() && i < kFailuresKept; ++i) {
    fmt::print(stderr, "bngcert: failed case {}: {}\n", failed[i].name, failed[i].reason);
  }
  if (failed.size() > kFailuresKept) {
    fmt::print(stderr, "bngcert: … and {} more failed cases (report.json run.failed_cases)\n",
               failed.size() - kFailuresKept);
  }
  fmt::print(stderr,
             "bngcert: check {} — {} cases, {} outputs judged, {} failed cases; wrote {}/\n",
             pass ? "PASS" : "FAIL", p.cases.size(), outputs, failed.size(), o.out.string());
  return pass ? kExitPass : kExitFail;
}

}  // namespace bng::cert
