#include "command_line.hpp"

#include <charconv>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>

#include "bng/optimized/isa.hpp"
#include "bng/properties/runner.hpp"
#include "build_info.hpp"

namespace bng::cert {

namespace {

const std::map<std::string, Progress::Style> kProgress = {{"auto", Progress::Style::automatic},
                                                          {"bar", Progress::Style::bar},
                                                          {"lines", Progress::Style::lines},
                                                          {"none", Progress::Style::quiet}};

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

const CLI::Validator kShardSpec(
    [](std::string& v) {
      return parse_shard(v) ? std::string()
                            : "--shard takes K/N with 1 <= K <= N (e.g. 3/8), got '" + v + "'";
    },
    "K/N");

}  // namespace

std::vector<std::string> target_choices() {
  std::vector<std::string> names;
  for (prop::Target t : prop::all_targets()) names.emplace_back(target_name(t));
  return names;
}

std::string isa_help() {
  return "ISA path of the kernels: " + opt::isa_path_list() +
         " (default: BNG_ISA, else the best the processor has)";
}

LibraryPaths no_library_paths() {
  LibraryPaths paths;
  for (prop::Target t : prop::all_targets()) paths[std::string(target_name(t))];
  return paths;
}

std::vector<Command> add_commands(CLI::App& app, SharedOptions& shared) {
  return {add_report_command(app, shared),
          add_certify_command(app, shared),
          add_check_command(app, shared),
          add_export_command(app, shared),
          add_merge_command(app),
          add_diff_command(app),
          add_families_command(app),
          add_verify_command(app),
          add_sign_command(app)};
}

void add_common(CLI::App* app, LibraryPaths& libs, Progress::Style& progress, Libraries use) {
  for (auto& [name, path] : libs) {
    CLI::Option* lib = app->add_option(
        "--lib-" + name, path, "libbatchnormgrad_" + name + ".so to load instead of this build's");
    if (use == Libraries::refused) lib->group("");
  }
  app->add_option("--progress", progress,
                  "progress on stderr: auto (bar on a terminal, else lines), bar, lines, none")
      ->transform(CLI::CheckedTransformer(kProgress, CLI::ignore_case));
}

void accept_progress(CLI::App* app) {
  // Parsed and dropped: these subcommands print no progress.
  static Progress::Style ignored = Progress::Style::automatic;
  app->add_option("--progress", ignored, "accepted for uniformity; this subcommand is quick")
      ->transform(CLI::CheckedTransformer(kProgress, CLI::ignore_case));
}

void add_library_options(CLI::App* app, LibraryPaths& libs, const std::string& help) {
  for (auto& [name, path] : libs) {
    app->add_option("--lib-" + name, path, fmt::format(fmt::runtime(help), name));
  }
}

void apply_libraries(const LibraryPaths& libs) {
  for (const auto& [name, path] : libs) {
    if (!path.empty()) prop::set_library_path(prop::target(name), path, "--lib-" + name);
  }
}

void add_reference(CLI::App* app, ref::Path& path, const std::string& what) {
  const std::map<std::string, ref::Path> paths = {{"tiered", ref::Path::tiered},
                                                  {"exact", ref::Path::exact}};
  app->add_option("--reference", path,
                  what +
                      ": tiered (default: a fast evaluation with a proved bound, the exact path "
                      "only where it cannot decide) or exact (BigInt for every output, for "
                      "audits); both give the same results bit for bit")
      ->transform(CLI::CheckedTransformer(paths, CLI::ignore_case).description(""));
}

void add_campaign(CLI::App* app, CampaignArgs& a) {
  CampaignOptions& o = a.options;
  app->add_option("--targets,-t", a.targets,
                  "targets to run (" + prop::target_names() + "; default all)")
      ->delimiter(',')
      ->check(CLI::IsMember(target_choices()));
  app->add_option("--functions,-f", o.functions,
                  "functions: fp, hp, mp or entry points such as hp_batchnormgrad_s (default all)")
      ->delimiter(',');
  app->add_option("--modes,-m", a.modes, "training, inference (default both)")
      ->delimiter(',')
      ->check(CLI::IsMember({"training", "inference"}));
  app->add_option("--families", o.families,
                  "case families (default all; `bngcert families` lists them)")
      ->delimiter(',');
  app->add_option("--cases,-n", o.cases, "cases per kernel, family and mode")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxCasesPerSeries));
  app->add_option("--seed,-s", o.seed, "campaign seed")->capture_default_str()->check(kSeedSpec);
  app->add_option("--max-size", o.max_size,
                  "largest RapidCheck size (0..100): shapes and value ranges grow with it")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  app->add_option("--jobs,-j", o.jobs, "worker threads (default: one per core)")
      ->check(CLI::Range(0, kMaxJobs));
  add_reference(app, o.reference, "the reference that judges");
}

void resolve_campaign(CampaignArgs& a) {
  if (!a.targets.empty()) {
    a.options.targets.clear();
    for (const auto& t : a.targets) a.options.targets.push_back(prop::target(t));
  }
  if (!a.modes.empty()) {
    a.options.modes.clear();
    for (const auto& m : a.modes) a.options.modes.push_back(m == "training" ? 1 : 0);
  }
  a.options.shard = shard_of(a.shard);
}

CLI::Option* add_shard(CLI::App* app, std::string& shard) {
  return app
      ->add_option("--shard", shard,
                   "run only shard K of N (1-based): the cases whose index j has j mod N = K-1; "
                   "writes a shard directory for `bngcert merge` instead of a report")
      ->check(kShardSpec);
}

std::optional<Shard> shard_of(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return parse_shard(text);
}

std::vector<std::string> isa_choices() {
  return {std::begin(opt::kIsaPaths), std::end(opt::kIsaPaths)};
}

std::uint64_t parse_seed(const std::string& text, const char* option) {
  const auto v = seed_value(text);
  if (!v) throw std::invalid_argument(fmt::format("{} {}: not a seed", option, text));
  return *v;
}

std::string version_text() {
  const BuildInfo& b = build_info();
  return fmt::format("bngcert {} (commit {}{}; {}; {}; {})", b.library_version, b.git_commit,
                     b.git_dirty ? ", dirty" : "", b.compiler, b.build_type, b.cxx_flags);
}

}  // namespace bng::cert
