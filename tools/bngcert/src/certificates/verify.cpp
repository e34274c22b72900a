// bngcert verify: a certificate checked later — is it unchanged since its
// digest was computed, does it cover exactly these library files, (with
// --signature) did the holder of a trusted key sign it, and what verdict
// does it record. The exit status keeps these apart (cli.hpp, VerifyOptions):
// a release gate needs 0, which only an intact certificate recording a
// release PASS over exactly the files at hand gives.
#include <cctype>
#include <string>

#include <fmt/format.h>

#include "certificate_reader.hpp"
#include "cli.hpp"
#include "input_file.hpp"
#include "sha256.hpp"
#include "ssh_signature.hpp"

namespace bng::cert {

namespace {

// Signature files are a few hundred bytes; allowed_signers a line per key.
constexpr std::uint64_t kMaxSignatureBytes = std::uint64_t{1} << 20;

// "PASS", "FAIL", "PARTIAL".
std::string verdict_word(std::string verdict) {
  for (char& ch : verdict) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return verdict;
}

// One library: the file's hash and size against the certificate's.
bool library_matches(const std::string& target, const RecordedLibrary& recorded,
                     const std::filesystem::path& file) {
  if (recorded.sha256.empty()) {
    fmt::print(
        "{}: {} — the certificate records no SHA-256 for it (the judging run could not "
        "read it): it covers no file\n",
        target, file.string());
    return false;
  }
  std::string sha256;
  std::uintmax_t size = 0;
  try {
    sha256 = sha256_file(file);
    size = std::filesystem::file_size(file);
  } catch (const std::exception& e) {
    fmt::print("{}: {} — cannot be checked\n", target, e.what());
    return false;
  }
  if (sha256 != recorded.sha256 || size != recorded.size) {
    fmt::print("{}: {} DIFFERS — SHA-256 {} ({} bytes); the certificate judged {} ({} bytes)\n",
               target, file.string(), sha256, size, recorded.sha256, recorded.size);
    return false;
  }
  fmt::print("{}: {} matches (SHA-256 {}, {} bytes)\n", target, file.string(), sha256, size);
  return true;
}

bool covers_exactly(const CertificateFile& c, const VerifyOptions& o) {
  bool ok = true;
  for (const auto& [target, file] : o.libraries) {
    if (!c.libraries.contains(target)) {
      fmt::print("{}: {} is not covered: the certificate judged no {} library\n", target,
                 file.string(), target);
      ok = false;
    }
  }
  for (const auto& [target, lib] : c.libraries) {
    const auto given = o.libraries.find(target);
    ok = library_matches(target, lib, given != o.libraries.end() ? given->second : lib.path) && ok;
  }
  return ok;
}

// Before anything is judged: the files a signature check needs are there and
// are files (a missing .sig is a usage error, exit 2, not a bad signature).
void require_signature_files(const VerifyOptions& o) {
  if (!o.signature) return;
  read_regular_file(*o.signature, kMaxSignatureBytes);
  read_regular_file(o.allowed_signers, kMaxSignatureBytes);
  if (o.identity.empty()) throw InputError("--identity: empty; give the signer's identity");
}

}  // namespace

int run_verify(const VerifyOptions& o) {
  CertificateFile c;
  try {
    c = read_certificate(o.certificate);
    require_signature_files(o);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bngcert: verify: {}\n", e.what());
    return kExitError;
  }
  fmt::print("certificate: {}\n", c.path.string());

  const bool intact = c.digest_intact();
  if (intact) {
    fmt::print(
        "digest: intact (SHA-256 {}): the certificate is unchanged since its digest was "
        "computed. That is all a digest shows: bngcert computes it, and so can anyone who can "
        "run sha256, so it cannot say who wrote the file; {}\n",
        c.actual_digest,
        o.signature ? "the signature (below) can" : "a signature can (--signature)");
  } else {
    fmt::print(
        "digest: DIFFERS — the certificate was changed after its digest was computed (stored "
        "{}, the content gives {})\n",
        c.stored_digest, c.actual_digest);
  }

  const bool covers = covers_exactly(c, o);

  bool signed_ok = true;
  if (o.signature) {
    SignatureCheck s;
    try {
      s = ssh_verify(o.allowed_signers, o.identity, *o.signature, c.bytes);
    } catch (const std::exception& e) {
      fmt::print(stderr, "bngcert: verify: {}\n", e.what());
      return kExitError;
    }
    signed_ok = s.good;
    fmt::print("signature: {} — {} for {} (ssh-keygen: {})\n", s.good ? "GOOD" : "DOES NOT VERIFY",
               o.signature->string(), o.identity, s.message);
  } else {
    fmt::print(
        "signature: not checked (no --signature): nothing here says who wrote the "
        "certificate\n");
  }

  const bool release_pass = c.verdict == "pass" && c.is_release_verdict;
  fmt::print("verdict recorded: {}{} — {}\n", verdict_word(c.verdict),
             intact ? "" : " (not to be trusted: the certificate was changed)", c.release_note);
  if (!intact || !covers || !signed_ok) {
    std::string why;
    const auto add = [&why](const char* w) { why += (why.empty() ? "" : "; ") + std::string(w); };
    if (!intact) add("its digest differs");
    if (!covers) add("it does not cover these files as they are");
    if (!signed_ok) add("the signature does not verify");
    fmt::print("bngcert verify: exit {}: the certificate is NOT as recorded: {}\n", kExitMismatch,
               why);
    return kExitMismatch;
  }
  if (!release_pass) {
    fmt::print(
        "bngcert verify: exit {}: the certificate is intact and covers exactly these files, but "
        "it does not record a release PASS ({})\n",
        kExitFail,
        c.verdict != "pass" ? fmt::format("its verdict is {}", verdict_word(c.verdict))
                            : std::string("its PASS is not a release verdict"));
    return kExitFail;
  }
  fmt::print(
      "bngcert verify: exit 0: the certificate is intact{}, covers exactly these files "
      "and records a release PASS\n",
      o.signature ? ", signed by " + o.identity : "");
  return kExitPass;
}

}  // namespace bng::cert
