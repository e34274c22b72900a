// Signatures of certificates with OpenSSH (`ssh-keygen -Y`, OpenSSH 8.1 or
// later: Debian's openssh-client), so that a certificate can be attributed to
// whoever holds a key; bngcert adds no cryptography of its own. A digest
// shows that a file is unchanged since someone computed it — bngcert, or
// anyone who can run sha256 — and cannot say who; a signature can.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace bng::cert {

// The signature namespace (ssh-keygen -n): a signature made for a
// certificate cannot pass for one made for anything else with the same key.
inline constexpr std::string_view kSignatureNamespace = "bngcert-certificate";

// The signature of `bytes` with the private key `key`: what `ssh-keygen -Y
// sign -f KEY -n bngcert-certificate FILE` writes to FILE.sig (the same
// bytes: ssh-keygen signs `bytes` from its standard input here). Throws
// std::runtime_error with ssh-keygen's own message, or naming the package
// when ssh-keygen is missing.
std::string ssh_sign(const std::filesystem::path& key, std::string_view bytes);

struct SignatureCheck {
  bool good = false;
  std::string message;  // ssh-keygen's own words, either way
};

// `ssh-keygen -Y verify -f ALLOWED -I IDENTITY -n bngcert-certificate -s SIG`
// with `bytes` on its standard input. Throws std::runtime_error only when
// ssh-keygen cannot be run (missing: the message names the package).
SignatureCheck ssh_verify(const std::filesystem::path& allowed_signers, const std::string& identity,
                          const std::filesystem::path& signature, std::string_view bytes);

}  // namespace bng::cert
