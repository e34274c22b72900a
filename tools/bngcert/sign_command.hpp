// Registers `bngcert sign` and the signature options of `bngcert verify` on
// the command line (docs/certification.md §10), in one place beside main.cpp.
#pragma once

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "sign.hpp"

namespace bng::cert {

CLI::App* add_sign_command(CLI::App& app, SignOptions& options);

// --signature, --allowed-signers, --identity (all three or none), and the
// exit statuses in verify's help.
void add_verify_signature_options(CLI::App* verify, VerifyOptions& options);

}  // namespace bng::cert
