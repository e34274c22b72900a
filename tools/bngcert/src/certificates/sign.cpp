#include "sign.hpp"

#include <fmt/format.h>

#include "certificate_reader.hpp"
#include "cli.hpp"
#include "output_file.hpp"
#include "ssh_signature.hpp"

namespace bng::cert {

int run_sign(const SignOptions& o) {
  try {
    const CertificateFile c = read_certificate(o.certificate);
    if (!c.digest_intact()) {
      fmt::print(stderr,
                 "bngcert: sign: {}: not signed: its digest differs (stored {}, the content gives "
                 "{}): the certificate was changed after its digest was computed\n",
                 c.path.string(), c.stored_digest, c.actual_digest);
      return kExitMismatch;
    }
    // The bytes checked above are the bytes signed: ssh-keygen reads them
    // from its standard input, not from the file again.
    const std::string signature = ssh_sign(o.key, c.bytes);
    std::filesystem::path sig = c.path;
    sig += ".sig";
    write_text(sig, signature);
    fmt::print(stderr,
               "bngcert: signed {} (digest {}, verdict {}{}) with {}: wrote {} (namespace {})\n",
               c.path.string(), c.actual_digest, c.verdict,
               c.is_release_verdict ? "" : ", NOT a release verdict", o.key.string(), sig.string(),
               kSignatureNamespace);
    return kExitPass;
  } catch (const std::exception& e) {
    fmt::print(stderr, "bngcert: sign: {}\n", e.what());
    return kExitError;
  }
}

}  // namespace bng::cert
