// verify and sign: a certificate checked later (digest, library files,
// signature, verdict), and signed with an OpenSSH key.
#include <memory>

#include "command_line.hpp"
#include "sign.hpp"

namespace bng::cert {

namespace {

// --signature, --allowed-signers, --identity (all three or none), and the
// exit statuses in verify's help.
void add_signature_options(CLI::App* verify, VerifyOptions& o) {
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

struct VerifyArgs {
  VerifyOptions options;
  LibraryPaths libs = no_library_paths();
};

}  // namespace

Command add_verify_command(CLI::App& app) {
  auto a = std::make_shared<VerifyArgs>();
  CLI::App* verify = app.add_subcommand(
      "verify",
      "check a certificate later: its digest, that it covers exactly these library files "
      "(default: the paths it recorded), optionally its signature, and its verdict; exit 0 only "
      "for an intact release PASS (statuses below)");
  verify
      ->add_option("certificate", a->options.certificate,
                   "certificate.json, or the directory holding it")
      ->required();
  add_library_options(verify, a->libs, "the {} library file to check");
  accept_progress(verify);
  add_signature_options(verify, a->options);
  return {verify, [a] {
            for (const auto& [name, path] : a->libs) {
              if (!path.empty()) a->options.libraries[name] = path;
            }
            return run_verify(a->options);
          }};
}

Command add_sign_command(CLI::App& app) {
  auto o = std::make_shared<SignOptions>();
  CLI::App* sign = app.add_subcommand(
      "sign",
      "sign a certificate with an OpenSSH key (ssh-keygen -Y sign, namespace "
      "bngcert-certificate): writes certificate.json.sig beside it, for `bngcert verify "
      "--signature`; an edited certificate (digest differs) is not signed");
  sign->add_option("certificate", o->certificate, "certificate.json, or the directory holding it")
      ->required();
  sign->add_option("--key,-k", o->key,
                   "the signer's private key file (ssh-keygen -f: or its public key, with the "
                   "private key in ssh-agent)")
      ->required();
  sign->footer(
      "Exit status: 0 signed; 2 not a certificate, unreadable, ssh-keygen missing (Debian: "
      "openssh-client) or refusing the key; 3 the certificate's digest differs.");
  accept_progress(sign);
  return {sign, [o] { return run_sign(*o); }};
}

}  // namespace bng::cert
