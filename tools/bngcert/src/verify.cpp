// bngcert verify: a certificate checked later, against its own digest and
// against the library files it claims to have judged.
#include <fstream>

#include <fmt/format.h>

#include "certificate.hpp"
#include "cli.hpp"
#include "json_input.hpp"
#include "sha256.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

json read_certificate(std::filesystem::path path) {
  if (std::filesystem::is_directory(path)) path /= "certificate.json";
  const json c = read_json_file(path, kMaxJsonBytes);
  if (!c.is_object() || c.value("schema", "") != "bngcert-certificate") {
    throw std::runtime_error(fmt::format("{}: not a bngcert certificate", path.string()));
  }
  if (c.value("schema_version", 0) != kCertificateSchemaVersion || !c.contains("digest") ||
      !c["build"].contains("libraries")) {
    throw std::runtime_error(fmt::format(
        "{}: certificate schema {} without a digest or library identities (this tool verifies "
        "schema {})",
        path.string(), c.value("schema_version", 0), kCertificateSchemaVersion));
  }
  return c;
}

// One library: the file's hash and size against the certificate's.
bool library_matches(const std::string& target, const json& recorded,
                     const std::filesystem::path& file) {
  std::string sha256;
  std::uintmax_t size = 0;
  try {
    sha256 = sha256_file(file);
    size = std::filesystem::file_size(file);
  } catch (const std::exception& e) {
    fmt::print("{}: {} — cannot be checked\n", target, e.what());
    return false;
  }
  const std::string want = recorded.value("sha256", "");
  if (sha256 != want || size != recorded.value("size", std::uintmax_t{0})) {
    fmt::print("{}: {} DIFFERS — SHA-256 {} ({} bytes); the certificate judged {} ({} bytes)\n",
               target, file.string(), sha256, size, want.empty() ? "?" : want,
               recorded.value("size", std::uintmax_t{0}));
    return false;
  }
  fmt::print("{}: {} matches (SHA-256 {}, {} bytes)\n", target, file.string(), sha256, size);
  return true;
}

}  // namespace

int run_verify(const VerifyOptions& o) {
  json c;
  try {
    c = read_certificate(o.certificate);
  } catch (const std::exception& e) {
    fmt::print(stderr, "bngcert: error: {}\n", e.what());
    return kExitError;
  }
  bool ok = true;
  const std::string stored = c["digest"].value("value", "");
  const std::string actual = certificate_digest(c);
  if (stored == actual) {
    fmt::print("digest: matches ({}): the certificate is as bngcert wrote it\n", actual);
  } else {
    fmt::print(
        "digest: DIFFERS — the certificate was edited after bngcert wrote it (stored {}, "
        "content gives {})\n",
        stored, actual);
    ok = false;
  }
  const json& libs = c["build"]["libraries"];
  for (const auto& [target, file] : o.libraries) {
    if (!libs.contains(target)) {
      fmt::print("{}: {} is not covered: the certificate judged no {} library\n", target,
                 file.string(), target);
      ok = false;
    }
  }
  for (const auto& [target, lib] : libs.items()) {
    const auto given = o.libraries.find(target);
    const std::filesystem::path file =
        given != o.libraries.end() ? given->second : std::filesystem::path(lib.value("path", ""));
    ok = library_matches(target, lib, file) && ok;
  }
  fmt::print("verdict recorded: {}\n", c.value("verdict", "?"));
  fmt::print("bngcert verify: {}\n", ok ? "the certificate covers exactly these files"
                                        : "the certificate does NOT cover these files as they are");
  return ok ? kExitPass : kExitFail;
}

}  // namespace bng::cert
