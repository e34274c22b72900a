// report, certify, export and families: the subcommands that run (or export)
// a campaign over the built-in case families.
#include <memory>

#include <fmt/format.h>

#include "bng/properties/families.hpp"
#include "command_line.hpp"
#include "export.hpp"
#include "isa_choice.hpp"
#include "library_options.hpp"

namespace bng::cert {

namespace {

struct CampaignRun {
  CampaignArgs campaign;
  std::string out;
  std::string isa;
};

}  // namespace

Command add_report_command(CLI::App& app, SharedOptions& shared) {
  auto r = std::make_shared<CampaignRun>();
  r->out = "report";
  CLI::App* report = app.add_subcommand("report",
                                        "run a campaign over the built-in case families and write "
                                        "report.{json,md,html} and reproducers");
  add_campaign(report, r->campaign);
  add_common(report, shared.libs, r->campaign.options.progress);
  report->add_option("--out,-o", r->out, "report directory")->capture_default_str();
  add_shard(report, r->campaign.shard);
  report->add_option("--isa", r->isa, isa_help())->check(CLI::IsMember(isa_choices()));
  return {report, [r, &shared] {
            resolve_campaign(r->campaign);
            apply_libraries(shared.libs);
            settle_libraries(shared.libs, r->campaign.options.targets);
            if (!r->isa.empty()) choose_isa(r->isa);
            return run_report(r->campaign.options, r->out);
          }};
}

Command add_certify_command(CLI::App& app, SharedOptions& shared) {
  auto r = std::make_shared<CampaignRun>();
  r->out = "certificate";
  CLI::App* certify = app.add_subcommand(
      "certify",
      "the same campaign, judged: writes certificate.{json,md} too; exit 0 only on a pass");
  add_campaign(certify, r->campaign);
  add_common(certify, shared.libs, r->campaign.options.progress);
  certify->add_option("--out,-o", r->out, "certificate directory")->capture_default_str();
  add_shard(certify, r->campaign.shard);
  std::vector<std::string> choices = isa_choices();
  choices.emplace_back("all");
  certify
      ->add_option("--isa", r->isa,
                   isa_help() +
                       "; all: once per path the processor supports (out/<path>/ each), one "
                       "certificate with a verdict per path")
      ->check(CLI::IsMember(choices));
  certify->add_flag(kPartOfIsaAll, r->campaign.options.part_of_isa_all)
      ->group("");  // hidden: set by `--isa all` on the run of each path
  return {certify, [r, &shared] {
            resolve_campaign(r->campaign);
            apply_libraries(shared.libs);
            settle_libraries(shared.libs, r->campaign.options.targets);
            if (r->isa == "all") {
              return run_certify_every_path("/proc/self/exe", without_isa_and_out(shared.args),
                                            r->out, r->campaign.options.shard.has_value());
            }
            if (!r->isa.empty()) choose_isa(r->isa);
            return run_certify(r->campaign.options, r->out);
          }};
}

Command add_export_command(CLI::App& app, SharedOptions& shared) {
  auto r = std::make_shared<CampaignRun>();
  CLI::App* export_cmd = app.add_subcommand(
      "export",
      "write a campaign's cases as a pack of .npy case folders for a device to run (the C "
      "harness, tools/harness), to judge with `check --pack`");
  add_campaign(export_cmd, r->campaign);
  add_common(export_cmd, shared.libs, r->campaign.options.progress, Libraries::refused);
  export_cmd->add_option("--out,-o", r->out, "pack directory (new)")->required();
  add_shard(export_cmd, r->campaign.shard)
      ->description(
          "write only shard K of N (1-based) of the cases: a pack of its own, whose check is that "
          "shard for `bngcert merge`");
  return {export_cmd, [r, &shared] {
            refuse_libraries(shared.libs, "export",
                             "export writes the campaign's inputs only; the harness on the board "
                             "runs the library it was built with");
            resolve_campaign(r->campaign);
            const auto n = run_export(r->campaign.options, r->out);
            fmt::print(stderr, "bngcert: exported {} cases to {}/\n", n, r->out);
            return kExitPass;
          }};
}

Command add_families_command(CLI::App& app) {
  CLI::App* families = app.add_subcommand("families", "list the built-in case families");
  return {families, [] {
            for (const auto& f : prop::families()) {
              fmt::print("{:<24} {}{}\n", f.name, f.description,
                         f.finite ? "" : " (non-finite inputs)");
            }
            return kExitPass;
          }};
}

}  // namespace bng::cert
