// merge: shard directories into the report (and certificate) one unsharded
// run would have written, each shard's part derived and, with --recheck,
// cases of every shard judged again here.
#include <algorithm>
#include <memory>
#include <random>

#include <fmt/format.h>

#include "command_line.hpp"

namespace bng::cert {

namespace {

struct MergeArgs {
  MergeOptions options;
  std::string recheck_seed, pack;
  LibraryPaths libs = no_library_paths();
};

int run_merge_command(MergeArgs& a) {
  const bool libs_given =
      std::any_of(a.libs.begin(), a.libs.end(), [](const auto& l) { return !l.second.empty(); });
  if ((libs_given || !a.pack.empty()) && a.options.recheck.per_shard == 0) {
    fmt::print(stderr,
               "bngcert: merge: --lib-* and --pack have no effect without --recheck (only a "
               "recheck runs kernels or reads the pack)\n");
    return kExitError;
  }
  apply_libraries(a.libs);
  if (!a.pack.empty()) a.options.recheck.pack = a.pack;
  a.options.recheck.seed = a.recheck_seed.empty()
                               ? std::random_device{}() * 0x100000001ull ^ std::random_device{}()
                               : parse_seed(a.recheck_seed, "--recheck-seed");
  return run_merge(a.options);
}

}  // namespace

Command add_merge_command(CLI::App& app) {
  auto a = std::make_shared<MergeArgs>();
  MergeOptions& o = a->options;
  CLI::App* merge = app.add_subcommand(
      "merge",
      "merge shard directories (from --shard runs) into one report and, for certify and check "
      "shards, one certificate: the same as one unsharded run; exit 0 only on a pass");
  merge
      ->add_option("shards", o.shards, "shard directories, or directories holding one per ISA path")
      ->required();
  merge->add_option("--out,-o", o.out, "output directory")->required();
  merge->add_flag("--partial", o.partial,
                  "merge the shards that are there even if some are missing; the verdict is "
                  "then PARTIAL, never PASS");
  merge
      ->add_option("--recheck", o.recheck.per_shard,
                   "judge N cases drawn at random from every shard again here (re-run through the "
                   "kernels, or re-judged from the pack) and refuse the merge unless each gives "
                   "its recorded result bit for bit")
      ->check(CLI::Range(0, 1000000));
  add_reference(merge, o.recheck.reference, "the reference that --recheck judges with");
  merge->add_option("--recheck-seed", a->recheck_seed,
                    "seed of the --recheck draw (default: random)");
  merge->add_option("--pack", a->pack,
                    "--recheck of check shards: the pack to re-judge from (default: the pack "
                    "each shard recorded)");
  add_library_options(merge, a->libs,
                      "--recheck of report/certify shards: the {} library the shards judged, if "
                      "not this build's");
  accept_progress(merge);
  return {merge, [a] { return run_merge_command(*a); }};
}

}  // namespace bng::cert
