// The command line of bngcert: one add_<name>_command per subcommand (each in
// its own file of this folder) registers its options and returns how to run
// it; main.cpp only registers, parses and runs the one chosen. The options
// several subcommands share (libraries, campaigns, shards, progress) are
// written once here.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bng/reference/reference.hpp"
#include "cli.hpp"
#include "progress.hpp"
#include "shard.hpp"

namespace bng::cert {

// A registered subcommand: run it once the command line is parsed.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

// A library path per target of the registry (--lib-<target>; empty: not given).
// Map nodes are stable, so CLI11 may bind to the values.
using LibraryPaths = std::map<std::string, std::string>;
LibraryPaths no_library_paths();

// What the subcommands share: the --lib-* of report, certify, check and export
// (one set, so that check and export can refuse them by name), and argv (the
// runs of certify --isa all repeat it).
struct SharedOptions {
  LibraryPaths libs = no_library_paths();
  std::vector<std::string> args;  // argv[1..]
};

// Every subcommand, in the order of --help.
std::vector<Command> add_commands(CLI::App& app, SharedOptions& shared);

Command add_report_command(CLI::App& app, SharedOptions& shared);
Command add_certify_command(CLI::App& app, SharedOptions& shared);
Command add_check_command(CLI::App& app, SharedOptions& shared);
Command add_export_command(CLI::App& app, SharedOptions& shared);
Command add_merge_command(CLI::App& app);
Command add_diff_command(CLI::App& app);
Command add_families_command(CLI::App& app);
Command add_verify_command(CLI::App& app);
Command add_sign_command(CLI::App& app);

// ---- options shared by several subcommands ------------------------------------

// Worker threads: far more than any machine here has cores, far fewer than
// would exhaust a process's threads.
inline constexpr int kMaxJobs = 1024;

// Where a subcommand runs no library (check, export), --lib-* is still parsed
// but hidden from --help, so that giving it is refused with the reason
// (library_options.hpp) rather than ignored.
enum class Libraries { loaded, refused };
void add_common(CLI::App* app, LibraryPaths& libs, Progress::Style& progress,
                Libraries use = Libraries::loaded);
// --progress on the quick subcommands (merge, verify, sign): accepted as on
// every other, so scripts can pass it everywhere; they have nothing to show.
void accept_progress(CLI::App* app);
// --lib-<target> on a subcommand of its own (merge --recheck, verify).
void add_library_options(CLI::App* app, LibraryPaths& libs, const std::string& help);
void apply_libraries(const LibraryPaths& libs);

// A campaign's options (report, certify, export) as typed; resolve_campaign
// turns the names into targets and modes.
struct CampaignArgs {
  CampaignOptions options;
  std::vector<std::string> targets, modes;
  std::string shard;  // K/N, or empty
};
void add_campaign(CLI::App* app, CampaignArgs& a);
void resolve_campaign(CampaignArgs& a);

CLI::Option* add_shard(CLI::App* app, std::string& shard);

// --reference tiered|exact of the subcommands that judge (docs/reference.md).
void add_reference(CLI::App* app, ref::Path& path, const std::string& what);
std::optional<Shard> shard_of(const std::string& text);

// The registry's target names, for --targets and --target.
std::vector<std::string> target_choices();

// --isa of report and certify (certify adds "all").
std::vector<std::string> isa_choices();
std::string isa_help();

// A seed is a decimal integer in [0, 2^64 - 1]: a negative, oversized or
// malformed one is refused, never wrapped into another seed.
std::uint64_t parse_seed(const std::string& text, const char* option);

// bngcert's own build, for --version.
std::string version_text();

}  // namespace bng::cert
