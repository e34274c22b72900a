// bngcert: numerical error reports, release certificates and checks of
// outputs dumped from real hardware, for the BatchNormGrad kernels.
// docs/certification.md walks through it; docs/report-format.md documents
// what it writes and reads. Each subcommand is registered by its file in
// commands/ (command_line.hpp); this only parses and runs the one chosen.
#include <CLI/CLI.hpp>

#include <exception>

#include <fmt/format.h>

#include "commands/command_line.hpp"

int main(int argc, char** argv) {
  CLI::App app{"bngcert: error reports and release certificates for the BatchNormGrad kernels"};
  app.require_subcommand(1);
  app.set_version_flag("--version", bng::cert::version_text(),
                       "print bngcert's own build and exit");
  bng::cert::SharedOptions shared;
  shared.args.assign(argv + 1, argv + argc);
  const std::vector<bng::cert::Command> commands = bng::cert::add_commands(app, shared);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : bng::cert::kExitError;
  }
  try {
    for (const bng::cert::Command& command : commands) {
      if (*command.app) return command.run();
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bngcert: error: {}\n", e.what());
    return bng::cert::kExitError;
  }
  return bng::cert::kExitError;
}
