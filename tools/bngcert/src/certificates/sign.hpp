// `bngcert sign`: an OpenSSH signature of a certificate (ssh_signature.hpp),
// written beside it as certificate.json.sig, for `bngcert verify --signature`.
#pragma once

#include <filesystem>

namespace bng::cert {

struct SignOptions {
  std::filesystem::path certificate;  // certificate.json, or the directory holding it
  std::filesystem::path key;          // the signer's private key (or its public key, in an agent)
};

// Signs the certificate's bytes only if it is a bngcert certificate whose
// digest is intact (a changed certificate is not signed: exit 3); prints what
// it signed (path, digest, recorded verdict). Exit 0 signed; 2 not a
// certificate, unreadable, no ssh-keygen or ssh-keygen refused; 3 digest differs.
int run_sign(const SignOptions& options);

}  // namespace bng::cert
