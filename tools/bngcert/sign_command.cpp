// The `sign` subcommand and verify's signature options (registered from
// main.cpp in one call each, so main.cpp keeps every subcommand in outline).
#include "sign_command.hpp"

#include <string>

namespace bng::cert {

CLI::App* add_sign_command(CLI::App& app, SignOptions& o) {
  CLI::App* sign = app.add_subcommand(
      "sign",
      "sign a certificate with an OpenSSH key (ssh-keygen -Y sign, namespace "
      "bngcert-certificate): writes certificate.json.sig beside it, for `bngcert verify "
      "--signature`; an edited certificate (digest differs) is not signed");
  sign->add_option("certificate", o.certificate, "certificate.json, or the directory holding it")
      ->required();
  sign->add_option("--key,-k", o.key,
                   "the signer's private key file (ssh-keygen -f: or its public key, with the "
                   "private key in ssh-agent)")
      ->required();
  sign->footer(
      "Exit status: 0 signed; 2 not a certificate, unreadable, ssh-keygen missing (Debian: "
      "openssh-client) or refusing the key; 3 the certificate's digest differs.");
  return sign;
}

void add_verify_signature_options(CLI::App* verify, VerifyOptions& o) {
  auto* signature = verify->add_option(
      "--signature", o.signature,
      "FILE.sig from `bngcert sign` (or ssh-keygen -Y sign -n bngcert-certificate): checked "
      "against --allowed-signers for --identity");
  auto* allowed = verify->add_option("--allowed-signers", o.allowed_signers,
                                     "the keys trusted to sign (ssh-keygen's ALLOWED SIGNERS "
                                     "format: one line per identity and key)");
  auto* identity = verify->add_option("--identity", o.identity,
                                      "the signer expected (e.g. release@example.com)");
  signature->needs(allowed)->needs(identity);
  allowed->needs(signature);
  identity->needs(signature);
  verify->footer(
      "Exit status: 0 the certificate is intact (its digest holds), covers exactly these library "
      "files, (with --signature) carries a good signature, and records a release PASS; 1 the "
      "same, but the verdict recorded is FAIL, PARTIAL or not a release verdict (judged at "
      "another α than the kernels' declared one); 3 the digest differs, a library differs or is "
      "not covered, or the signature does not verify; 2 not a certificate, unreadable, a "
      "signature or allowed-signers file missing, bad usage. A digest shows that the file is "
      "unchanged since someone computed it (bngcert, or anyone who can run sha256), not who "
      "wrote it: that needs --signature.");
}

}  // namespace bng::cert
