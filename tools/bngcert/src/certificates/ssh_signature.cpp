#include "ssh_signature.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "subprocess.hpp"

namespace bng::cert {

namespace {

constexpr const char* kSshKeygen = "ssh-keygen";

ProgramResult run_ssh_keygen(const std::vector<std::string>& args, std::string_view input) {
  std::vector<std::string> argv{kSshKeygen};
  argv.insert(argv.end(), args.begin(), args.end());
  try {
    return run_program(argv, input);
  } catch (const ProgramNotFound&) {
    throw std::runtime_error(
        "ssh-keygen is not on PATH: signing and checking signatures need OpenSSH's ssh-keygen "
        "(8.1 or later); on Debian install the package openssh-client (apt-get install "
        "openssh-client)");
  }
}

// ssh-keygen's messages, on one line each, without the trailing newline.
std::string words(const ProgramResult& r) {
  std::string text = r.out + r.err;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace

std::string ssh_sign(const std::filesystem::path& key, std::string_view bytes) {
  const ProgramResult r = run_ssh_keygen(
      {"-Y", "sign", "-f", key.string(), "-n", std::string(kSignatureNamespace)}, bytes);
  if (r.exit_status != 0 || r.out.empty()) {
    throw std::runtime_error(fmt::format("ssh-keygen -Y sign -f {} failed (exit status {}): {}",
                                         key.string(), r.exit_status, words(r)));
  }
  return r.out;
}

SignatureCheck ssh_verify(const std::filesystem::path& allowed_signers, const std::string& identity,
                          const std::filesystem::path& signature, std::string_view bytes) {
  const ProgramResult r =
      run_ssh_keygen({"-Y", "verify", "-f", allowed_signers.string(), "-I", identity, "-n",
                      std::string(kSignatureNamespace), "-s", signature.string()},
                     bytes);
  return {r.exit_status == 0, words(r)};
}

}  // namespace bng::cert
