// Registers `bngcert diff` on the command line (docs/certification.md §8).
#pragma once

#include <CLI/CLI.hpp>

#include "diff.hpp"

namespace bng::cert {

CLI::App* add_diff_command(CLI::App& app, DiffOptions& options);

}  // namespace bng::cert
