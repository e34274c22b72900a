// bngcert: numerical error reports, release certificates and checks of
// outputs dumped from real hardware, for the BatchNormGrad kernels.
// docs/certification.md walks through it; docs/report-format.md documents
// what it writes and reads.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bng/optimized/isa.hpp"
#include "bng/properties/families.hpp"
#include "bng/properties/runner.hpp"
#include "build_info.hpp"
#include "cli.hpp"
#include "diff_command.hpp"
#include "export.hpp"
#include "isa_choice.hpp"
#include "library_options.hpp"
#include "npy.hpp"
#include "pack_check.hpp"
#include "shard.hpp"
#include "sign_command.hpp"

namespace {

using bng::cert::CampaignOptions;
using bng::cert::Progress;

// Worker threads: far more than any machine here has cores, far fewer than
// would exhaust a process's threads.
constexpr int kMaxJobs = 1024;

// A seed is a decimal integer in [0, 2^64 - 1]: a negative, oversized or
// malformed one is refused, never wrapped into another seed.
std::optional<std::uint64_t> seed_value(std::string_view text) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, 10);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

const CLI::Validator kSeedSpec(
    [](std::string& v) {
      return seed_value(v)
                 ? std::string()
                 : "a seed is a decimal integer in [0, 18446744073709551615], not '" + v + "'";
    },
    "SEED");

std::uint64_t parse_seed(const std::string& text, const char* option) {
  const auto v = seed_value(text);
  if (!v) throw std::invalid_argument(fmt::format("{} {}: not a seed", option, text));
  return *v;
}

const std::map<std::string, Progress::Style> kProgress = {{"auto", Progress::Style::automatic},
                                                          {"bar", Progress::Style::bar},
                                                          {"lines", Progress::Style::lines},
                                                          {"none", Progress::Style::quiet}};

// A library path per target of the registry (--lib-<target>; empty: not given).
// Map nodes are stable, so CLI11 may bind to the values.
using LibraryPaths = std::map<std::string, std::string>;

LibraryPaths no_library_paths() {
  LibraryPaths paths;
  for (bng::prop::Target t : bng::prop::all_targets()) paths[std::string(target_name(t))];
  return paths;
}

std::vector<std::string> target_choices() {
  std::vector<std::string> names;
  for (bng::prop::Target t : bng::prop::all_targets()) names.emplace_back(target_name(t));
  return names;
}

// Where a subcommand runs no library (check, export), --lib-* is still parsed
// but hidden from --help, so that giving it is refused with the reason
// (library_options.hpp) rather than ignored.
enum class Libraries { loaded, refused };

void add_common(CLI::App* app, LibraryPaths& libs, Progress::Style& progress,
                Libraries use = Libraries::loaded) {
  for (auto& [name, path] : libs) {
    CLI::Option* lib = app->add_option(
        "--lib-" + name, path, "libbatchnormgrad_" + name + ".so to load instead of this build's");
    if (use == Libraries::refused) lib->group("");
  }
  app->add_option("--progress", progress,
                  "progress on stderr: auto (bar on a terminal, else lines), bar, lines, none")
      ->transform(CLI::CheckedTransformer(kProgress, CLI::ignore_case));
}

// --progress on the quick subcommands (merge, verify): accepted as on every
// other, so scripts can pass it everywhere; they have nothing to show.
void accept_progress(CLI::App* app, Progress::Style& progress) {
  app->add_option("--progress", progress, "accepted for uniformity; this subcommand is quick")
      ->transform(CLI::CheckedTransformer(kProgress, CLI::ignore_case));
}

void add_campaign(CLI::App* app, CampaignOptions& o, std::vector<std::string>& targets,
                  std::vector<std::string>& modes) {
  app->add_option("--targets,-t", targets,
                  "targets to run (" + bng::prop::target_names() + "; default all)")
      ->delimiter(',')
      ->check(CLI::IsMember(target_choices()));
  app->add_option("--functions,-f", o.functions,
                  "functions: fp, hp, mp or entry points such as hp_batchnormgrad_s (default all)")
      ->delimiter(',');
  app->add_option("--modes,-m", modes, "training, inference (default both)")
      ->delimiter(',')
      ->check(CLI::IsMember({"training", "inference"}));
  app->add_option("--families", o.families,
                  "case families (default all; `bngcert families` lists them)")
      ->delimiter(',');
  app->add_option("--cases,-n", o.cases, "cases per kernel, family and mode")
      ->capture_default_str()
      ->check(CLI::Range(1, bng::cert::kMaxCasesPerSeries));
  app->add_option("--seed,-s", o.seed, "campaign seed")->capture_default_str()->check(kSeedSpec);
  app->add_option("--max-size", o.max_size,
                  "largest RapidCheck size (0..100): shapes and value ranges grow with it")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  app->add_option("--jobs,-j", o.jobs, "worker threads (default: one per core)")
      ->check(CLI::Range(0, kMaxJobs));
}

void resolve_campaign(CampaignOptions& o, const std::vector<std::string>& targets,
                      const std::vector<std::string>& modes) {
  if (!targets.empty()) {
    o.targets.clear();
    for (const auto& t : targets) o.targets.push_back(bng::prop::target(t));
  }
  if (!modes.empty()) {
    o.modes.clear();
    for (const auto& m : modes) o.modes.push_back(m == "training" ? 1 : 0);
  }
}

void apply_libraries(const LibraryPaths& libs) {
  for (const auto& [name, path] : libs) {
    if (!path.empty()) bng::prop::set_library_path(bng::prop::target(name), path, "--lib-" + name);
  }
}

std::string version_text() {
  const bng::cert::BuildInfo& b = bng::cert::build_info();
  return fmt::format("bngcert {} (commit {}{}; {}; {}; {})", b.library_version, b.git_commit,
                     b.git_dirty ? ", dirty" : "", b.compiler, b.build_type, b.cxx_flags);
}

// --shard K/N on report, certify, export and check --pack.
const CLI::Validator kShardSpec(
    [](std::string& v) {
      return bng::cert::parse_shard(v)
                 ? std::string()
                 : "--shard takes K/N with 1 <= K <= N (e.g. 3/8), got '" + v + "'";
    },
    "K/N");

CLI::Option* add_shard(CLI::App* app, std::string& shard) {
  return app
      ->add_option("--shard", shard,
                   "run only shard K of N (1-based): the cases whose index j has j mod N = K-1; "
                   "writes a shard directory for `bngcert merge` instead of a report")
      ->check(kShardSpec);
}

std::optional<bng::cert::Shard> shard_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return bng::cert::parse_shard(text);
}

const char* const kIsaHelp =
    "ISA path of the kernels: avx3, avx2 or portable (default: BNG_ISA, else the best the "
    "processor has)";

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"bngcert: error reports and release certificates for the BatchNormGrad kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", version_text(), "print bngcert's own build and exit");
  LibraryPaths libs = no_library_paths();

  CampaignOptions report_opts, certify_opts;
  std::vector<std::string> report_targets, report_modes, certify_targets, certify_modes;
  std::string report_out = "report", certify_out = "certificate";

  CLI::App* report = app.add_subcommand("report",
                                        "run a campaign over the built-in case families and write "
                                        "report.{json,md,html} and reproducers");
  add_campaign(report, report_opts, report_targets, report_modes);
  add_common(report, libs, report_opts.progress);
  report->add_option("--out,-o", report_out, "report directory")->capture_default_str();
  std::string report_shard, certify_shard, check_shard, export_shard;
  add_shard(report, report_shard);
  std::string report_isa, certify_isa;
  report->add_option("--isa", report_isa, kIsaHelp)
      ->check(CLI::IsMember(std::vector<std::string>(std::begin(bng::opt::kIsaPaths),
                                                     std::end(bng::opt::kIsaPaths))));

  CLI::App* certify = app.add_subcommand(
      "certify",
      "the same campaign, judged: writes certificate.{json,md} too; exit 0 only on a pass");
  add_campaign(certify, certify_opts, certify_targets, certify_modes);
  add_common(certify, libs, certify_opts.progress);
  certify->add_option("--out,-o", certify_out, "certificate directory")->capture_default_str();
  add_shard(certify, certify_shard);
  std::vector<std::string> isa_choices(std::begin(bng::opt::kIsaPaths),
                                       std::end(bng::opt::kIsaPaths));
  isa_choices.emplace_back("all");
  certify
      ->add_option("--isa", certify_isa,
                   std::string(kIsaHelp) +
                       "; all: once per path the processor supports (out/<path>/ each), one "
                       "certificate with a verdict per path")
      ->check(CLI::IsMember(isa_choices));
  certify->add_flag(bng::cert::kPartOfIsaAll, certify_opts.part_of_isa_all)
      ->group("");  // hidden: set by `--isa all` on the run of each path

  bng::cert::CheckOptions check_opts;
  std::string check_params;
  CLI::App* check = app.add_subcommand("check",
                                       "certify outputs computed elsewhere (e.g. on hardware), "
                                       "given as .npy files; exit 0 only on a pass");
  bng::cert::PackCheckOptions pack_opts;
  auto* check_dir =
      check->add_option("--dir,-d", check_opts.dir,
                        "one dump: directory with x.npy dy.npy mean.npy invar.npy scale.npy dx.npy "
                        "dbias.npy dscale.npy");
  auto* check_pack = check->add_option(
      "--pack", pack_opts.pack,
      "a whole device run: a pack from `bngcert export` (its directory or pack.json) after the "
      "harness wrote its outputs");
  check_dir->excludes(check_pack);
  check->add_option("--params,-p", check_params,
                    "params JSON (default: <dir>/params.json if present)");
  check->add_option("--batch", check_opts.batch, "batch (default: from params or x.npy's shape)");
  check->add_option("--channel", check_opts.channel,
                    "channel (default: from params or x.npy's last dimension)");
  check->add_option("--is-train", check_opts.is_train, "1 training, 0 inference")
      ->check(CLI::Range(0, 1));
  check
      ->add_option("--target", check_opts.target,
                   "the target (" + bng::prop::target_names(" or ") + "): whose declared α judges")
      ->check(CLI::IsMember(target_choices()));
  check->add_option("--alpha", check_opts.alpha,
                    "investigation only: judge with this α instead of the target's declared one "
                    "(the verdict then says it is NOT a release verdict; an \"alpha\" in "
                    "params.json is always ignored)");
  check->add_option("--out,-o", check_opts.out, "report directory")->capture_default_str();
  check
      ->add_option("--block-elements", check_opts.block_elements,
                   "reference memory bound: elements judged per block of channels")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  check->add_option("--jobs,-j", check_opts.jobs, "worker threads (default: one per core)")
      ->check(CLI::Range(0, kMaxJobs));
  add_shard(check, check_shard)->needs(check_pack);
  add_common(check, libs, check_opts.progress, Libraries::refused);

  CampaignOptions export_opts;
  std::vector<std::string> export_targets, export_modes;
  std::string export_out;
  CLI::App* export_cmd = app.add_subcommand(
      "export",
      "write a campaign's cases as a pack of .npy case folders for a device to run (the C "
      "harness, tools/harness), to judge with `check --pack`");
  add_campaign(export_cmd, export_opts, export_targets, export_modes);
  add_common(export_cmd, libs, export_opts.progress, Libraries::refused);
  export_cmd->add_option("--out,-o", export_out, "pack directory (new)")->required();
  add_shard(export_cmd, export_shard)
      ->description(
          "write only shard K of N (1-based) of the cases: a pack of its own, whose check is that "
          "shard for `bngcert merge`");

  bng::cert::MergeOptions merge_opts;
  CLI::App* merge = app.add_subcommand(
      "merge",
      "merge shard directories (from --shard runs) into one report and, for certify and check "
      "shards, one certificate: the same as one unsharded run; exit 0 only on a pass");
  merge
      ->add_option("shards", merge_opts.shards,
                   "shard directories, or directories holding one per ISA path")
      ->required();
  merge->add_option("--out,-o", merge_opts.out, "output directory")->required();
  merge->add_flag("--partial", merge_opts.partial,
                  "merge the shards that are there even if some are missing; the verdict is "
                  "then PARTIAL, never PASS");
  merge
      ->add_option("--recheck", merge_opts.recheck.per_shard,
                   "judge N cases drawn at random from every shard again here (re-run through the "
                   "kernels, or re-judged from the pack) and refuse the merge unless each gives "
                   "its recorded result bit for bit")
      ->check(CLI::Range(0, 1000000));
  std::string recheck_seed;
  merge->add_option("--recheck-seed", recheck_seed, "seed of the --recheck draw (default: random)");
  std::string merge_pack;
  merge->add_option("--pack", merge_pack,
                    "--recheck of check shards: the pack to re-judge from (default: the pack "
                    "each shard recorded)");
  LibraryPaths merge_libs = no_library_paths();
  for (auto& [name, path] : merge_libs) {
    merge->add_option("--lib-" + name, path,
                      "--recheck of report/certify shards: the " + name +
                          " library the shards judged, if not this build's");
  }
  Progress::Style quick_progress = Progress::Style::automatic;
  accept_progress(merge, quick_progress);

  bng::cert::DiffOptions diff_opts;
  CLI::App* diff = bng::cert::add_diff_command(app, diff_opts);

  CLI::App* families = app.add_subcommand("families", "list the built-in case families");

  bng::cert::VerifyOptions verify_opts;
  LibraryPaths verify_libs = no_library_paths();
  CLI::App* verify = app.add_subcommand(
      "verify",
      "check a certificate later: its digest, that it covers exactly these library files "
      "(default: the paths it recorded), optionally its signature, and its verdict; exit 0 only "
      "for an intact release PASS (statuses below)");
  verify
      ->add_option("certificate", verify_opts.certificate,
                   "certificate.json, or the directory holding it")
      ->required();
  for (auto& [name, path] : verify_libs) {
    verify->add_option("--lib-" + name, path, "the " + name + " library file to check");
  }
  accept_progress(verify, quick_progress);
  bng::cert::add_verify_signature_options(verify, verify_opts);

  bng::cert::SignOptions sign_opts;
  CLI::App* sign = bng::cert::add_sign_command(app, sign_opts);
  accept_progress(sign, quick_progress);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : bng::cert::kExitError;
  }

  try {
    if (*check) {
      bng::cert::refuse_libraries(
          libs, "check",
          "check judges outputs computed elsewhere (a dump, a board's pack) against the exact "
          "reference and runs no library (certify runs one; verify checks a file against a "
          "certificate)");
    }
    if (*export_cmd) {
      bng::cert::refuse_libraries(libs, "export",
                                  "export writes the campaign's inputs only; the harness on the "
                                  "board runs the library it was built with");
    }
    apply_libraries(libs);
    if (*report) {
      resolve_campaign(report_opts, report_targets, report_modes);
      bng::cert::settle_libraries(libs, report_opts.targets);
      report_opts.shard = shard_of(report_shard);
      if (!report_isa.empty()) bng::cert::choose_isa(report_isa);
      return bng::cert::run_report(report_opts, report_out);
    }
    if (*certify) {
      resolve_campaign(certify_opts, certify_targets, certify_modes);
      bng::cert::settle_libraries(libs, certify_opts.targets);
      certify_opts.shard = shard_of(certify_shard);
      if (certify_isa == "all") {
        return bng::cert::run_certify_every_path(
            "/proc/self/exe",
            bng::cert::without_isa_and_out(std::vector<std::string>(argv + 1, argv + argc)),
            certify_out, certify_opts.shard.has_value());
      }
      if (!certify_isa.empty()) bng::cert::choose_isa(certify_isa);
      return bng::cert::run_certify(certify_opts, certify_out);
    }
    if (*verify) {
      for (const auto& [name, path] : verify_libs) {
        if (!path.empty()) verify_opts.libraries[name] = path;
      }
      return bng::cert::run_verify(verify_opts);
    }
    if (*check && !*check_dir && !*check_pack) {
      fmt::print(stderr, "bngcert: check needs --dir (one dump) or --pack (a device run)\n");
      return bng::cert::kExitError;
    }
    if (*check && *check_pack) {
      // A pack's manifest gives every case's shape, mode and target: no overrides.
      for (const char* name :
           {"--params", "--batch", "--channel", "--is-train", "--target", "--alpha"}) {
        if (check->count(name) > 0) {
          fmt::print(stderr, "bngcert: check: {} applies to --dir only, not to --pack\n", name);
          return bng::cert::kExitError;
        }
      }
      pack_opts.out = check_opts.out;
      pack_opts.jobs = check_opts.jobs;
      pack_opts.block_elements = check_opts.block_elements;
      pack_opts.progress = check_opts.progress;
      pack_opts.shard = shard_of(check_shard);
      return bng::cert::run_pack_check(pack_opts);
    }
    if (*check) {
      if (!check_params.empty()) check_opts.params = check_params;
      return bng::cert::run_check(check_opts);
    }
    if (*export_cmd) {
      resolve_campaign(export_opts, export_targets, export_modes);
      export_opts.shard = shard_of(export_shard);
      const auto n = bng::cert::run_export(export_opts, export_out);
      fmt::print(stderr, "bngcert: exported {} cases to {}/\n", n, export_out);
      return bng::cert::kExitPass;
    }
    if (*diff) return bng::cert::run_diff(diff_opts);
    if (*sign) return bng::cert::run_sign(sign_opts);
    if (*merge) {
      const bool libs_given = std::any_of(merge_libs.begin(), merge_libs.end(),
                                          [](const auto& l) { return !l.second.empty(); });
      if ((libs_given || !merge_pack.empty()) && merge_opts.recheck.per_shard == 0) {
        fmt::print(stderr,
                   "bngcert: merge: --lib-* and --pack have no effect without --recheck (only a "
                   "recheck runs kernels or reads the pack)\n");
        return bng::cert::kExitError;
      }
      apply_libraries(merge_libs);
      if (!merge_pack.empty()) merge_opts.recheck.pack = merge_pack;
      merge_opts.recheck.seed =
          recheck_seed.empty() ? std::random_device{}() * 0x100000001ull ^ std::random_device{}()
                               : parse_seed(recheck_seed, "--recheck-seed");
      return bng::cert::run_merge(merge_opts);
    }
    if (*families) {
      for (const auto& f : bng::prop::families()) {
        fmt::print("{:<24} {}{}\n", f.name, f.description, f.finite ? "" : " (non-finite inputs)");
      }
      return 0;
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bngcert: error: {}\n", e.what());
    return bng::cert::kExitError;
  }
  return bng::cert::kExitError;
}
