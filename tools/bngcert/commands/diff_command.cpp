// The `diff` subcommand's options (registered from main.cpp in one call, so
// the command line of every subcommand stays visible there in outline).
#include "diff_command.hpp"

namespace bng::cert {

CLI::App* add_diff_command(CLI::App& app, DiffOptions& o) {
  CLI::App* diff = app.add_subcommand(
      "diff",
      "compare two releases' report.json (or certificate.json) files; exit 1 if NEW is worse "
      "anywhere, 2 if they cannot be compared (e.g. either was judged at another α than the "
      "kernels' declared one, check --alpha)");
  diff->add_option("old", o.old_file, "the last release's report.json or certificate.json")
      ->required();
  diff->add_option("new", o.new_file, "this release's file of the same kind")->required();
  diff->add_option("--format", o.format, "text or markdown")
      ->check(CLI::IsMember({"text", "markdown"}))
      ->capture_default_str();
  diff->add_flag("--allow-different-campaigns", o.allow_different_campaigns,
                 "compare runs of different campaigns where both have a row (said so)");
  return diff;
}

}  // namespace bng::cert
