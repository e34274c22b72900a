#include "certificate_reader.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "certificate.hpp"
#include "json_input.hpp"
#include "release_verdict.hpp"

namespace bng::cert {

using nlohmann::json;

CertificateFile read_certificate(const std::filesystem::path& given) {
  std::error_code ec;  // anything but a directory is read as the file itself, and refused there
  const std::filesystem::path path =
      std::filesystem::is_directory(given, ec) ? given / "certificate.json" : given;
  return parse_certificate(read_text_file(path, kMaxJsonBytes), path);
}

CertificateFile parse_certificate(std::string bytes, const std::filesystem::path& path) {
  CertificateFile c;
  c.path = path;
  const std::string name = c.path.string();
  c.bytes = std::move(bytes);
  c.json = parse_json(c.bytes, name);
  if (!c.json.is_object() || !has_member(c.json, "schema") || !c.json["schema"].is_string() ||
      c.json["schema"] != "bngcert-certificate") {
    throw InputError(
        fmt::format("{}: not a bngcert certificate (no \"schema\": "
                    "\"bngcert-certificate\")",
                    name));
  }
  const int version = int_field<int>(c.json, "schema_version", 0, 1 << 20, name);
  if (version != kCertificateSchemaVersion || !has_member(c.json, "digest")) {
    throw InputError(fmt::format(
        "{}: certificate schema {} without a digest or library identities (this tool verifies "
        "schema {})",
        name, version, kCertificateSchemaVersion));
  }

  c.verdict = string_field(c.json, "verdict", name);
  if (c.verdict != "pass" && c.verdict != "fail" && c.verdict != "partial") {
    throw InputError(
        fmt::format("{}: 'verdict' is \"{}\": expected pass, fail or partial", name, c.verdict));
  }
  const ReleaseStatus release = recorded_release_status(c.json, name);
  c.is_release_verdict = release.is_release_verdict;
  c.release_note = release.note;

  const json& digest = object_field(c.json, "digest", name);
  const std::string digest_name = name + ": digest";
  if (string_field(digest, "algorithm", digest_name) != "sha256") {
    throw InputError(fmt::format("{}: 'algorithm' is not sha256", digest_name));
  }
  c.stored_digest = string_field(digest, "value", digest_name);
  c.actual_digest = certificate_digest(c.json);

  const json& libraries =
      object_field(object_field(c.json, "build", name), "libraries", name + ": build");
  for (const auto& [target, lib] : libraries.items()) {
    const std::string where = fmt::format("{}: build.libraries.{}", name, target);
    RecordedLibrary r;
    r.path = string_field(lib, "path", where);
    // A library the judging run could not read has no hash: it covers no file.
    if (has_member(lib, "sha256")) {
      r.sha256 = string_field(lib, "sha256", where);
      r.size = int_field<std::uintmax_t>(lib, "size", 0, UINTMAX_MAX, where);
    }
    c.libraries.emplace(target, std::move(r));
  }
  return c;
}

}  // namespace bng::cert
