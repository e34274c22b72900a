// check: outputs computed elsewhere judged against the exact reference — one
// dump (--dir) or a whole device run of a pack (--pack).
#include <memory>

#include <fmt/format.h>

#include "command_line.hpp"
#include "library_options.hpp"
#include "pack_check.hpp"

namespace bng::cert {

namespace {

struct CheckArgs {
  CheckOptions dir;
  PackCheckOptions pack;
  std::string params, shard;
  CLI::Option* dir_option = nullptr;
  CLI::Option* pack_option = nullptr;
};

// A pack's manifest gives every case's shape, mode and target: no overrides.
const char* const kDirOnly[] = {"--params",   "--batch",  "--channel",
                                "--is-train", "--target", "--alpha"};

int run_check_command(CheckArgs& a, CLI::App* check, const SharedOptions& shared) {
  refuse_libraries(shared.libs, "check",
                   "check judges outputs computed elsewhere (a dump, a board's pack) against the "
                   "exact reference and runs no library (certify runs one; verify checks a file "
                   "against a certificate)");
  if (!*a.dir_option && !*a.pack_option) {
    fmt::print(stderr, "bngcert: check needs --dir (one dump) or --pack (a device run)\n");
    return kExitError;
  }
  if (*a.dir_option) {
    if (!a.params.empty()) a.dir.params = a.params;
    return run_check(a.dir);
  }
  for (const char* name : kDirOnly) {
    if (check->count(name) > 0) {
      fmt::print(stderr, "bngcert: check: {} applies to --dir only, not to --pack\n", name);
      return kExitError;
    }
  }
  a.pack.out = a.dir.out;
  a.pack.jobs = a.dir.jobs;
  a.pack.block_elements = a.dir.block_elements;
  a.pack.progress = a.dir.progress;
  a.pack.reference = a.dir.reference;
  a.pack.shard = shard_of(a.shard);
  return run_pack_check(a.pack);
}

}  // namespace

Command add_check_command(CLI::App& app, SharedOptions& shared) {
  auto a = std::make_shared<CheckArgs>();
  CheckOptions& o = a->dir;
  CLI::App* check = app.add_subcommand("check",
                                       "certify outputs computed elsewhere (e.g. on hardware), "
                                       "given as .npy files; exit 0 only on a pass");
  a->dir_option = check->add_option(
      "--dir,-d", o.dir,
      "one dump: directory with x.npy dy.npy mean.npy invar.npy scale.npy dx.npy dbias.npy "
      "dscale.npy");
  a->pack_option = check->add_option(
      "--pack", a->pack.pack,
      "a whole device run: a pack from `bngcert export` (its directory or pack.json) after the "
      "harness wrote its outputs");
  a->dir_option->excludes(a->pack_option);
  check->add_option("--params,-p", a->params,
                    "params JSON (default: <dir>/params.json if present)");
  check->add_option("--batch", o.batch, "batch (default: from params or x.npy's shape)");
  check->add_option("--channel", o.channel,
                    "channel (default: from params or x.npy's last dimension)");
  check->add_option("--is-train", o.is_train, "1 training, 0 inference")->check(CLI::Range(0, 1));
  check
      ->add_option("--target", o.target,
                   "the target (" + prop::target_names(" or ") + "): whose declared α judges")
      ->check(CLI::IsMember(target_choices()));
  check->add_option("--alpha", o.alpha,
                    "investigation only: judge with this α instead of the target's declared one "
                    "(the verdict then says it is NOT a release verdict; an \"alpha\" in "
                    "params.json is always ignored)");
  check->add_option("--out,-o", o.out, "report directory")->capture_default_str();
  check
      ->add_option("--block-elements", o.block_elements,
                   "reference memory bound: elements judged per block of channels")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  check->add_option("--jobs,-j", o.jobs, "worker threads (default: one per core)")
      ->check(CLI::Range(0, kMaxJobs));
  add_shard(check, a->shard)->needs(a->pack_option);
  add_reference(check, o.reference, "the reference that judges");
  for (prop::Target t : prop::all_targets()) {
    const std::string name(target_name(t));
    check
        ->add_option_function<std::string>(
            "--device-lib-" + name,
            [a, name](const std::string& file) { a->pack.device_libraries[name] = file; },
            "with --pack: the libbatchnormgrad_" + name +
                " the board's harness ran (any architecture); its SHA-256 and build record go "
                "into the report and certificate. Identified, never loaded")
        ->needs(a->pack_option);
  }
  add_common(check, shared.libs, o.progress, Libraries::refused);
  return {check, [a, check, &shared] { return run_check_command(*a, check, shared); }};
}

}  // namespace bng::cert
