// diff: two releases' reports (or certificates) compared, exit 1 on a regression.
#include <memory>

#include "command_line.hpp"
#include "diff.hpp"

namespace bng::cert {

Command add_diff_command(CLI::App& app) {
  auto o = std::make_shared<DiffOptions>();
  CLI::App* diff = app.add_subcommand(
      "diff",
      "compare two releases' report.json (or certificate.json) files; exit 1 if NEW is worse "
      "anywhere, 2 if they cannot be compared (e.g. either was judged at another α than the "
      "kernels' declared one, check --alpha)");
  diff->add_option("old", o->old_file, "the last release's report.json or certificate.json")
      ->required();
  diff->add_option("new", o->new_file, "this release's file of the same kind")->required();
  diff->add_option("--format", o->format, "text or markdown")
      ->check(CLI::IsMember({"text", "markdown"}))
      ->capture_default_str();
  diff->add_flag("--allow-different-campaigns", o->allow_different_campaigns,
                 "compare runs of different campaigns where both have a row (said so)");
  return {diff, [o] { return run_diff(*o); }};
}

}  // namespace bng::cert
