// The release certificate: the verdict of one campaign (or check) run on one
// or more ISA paths — every output within its kernel's declared α, every
// valid call succeeded — with the tool's build, the identity of each library
// judged (file hash, recorded build) and the ISA path each run used, as
// certificate.json and certificate.md. Whether the verdict is a release
// verdict (every kernel at its declared α) is recorded beside it. A digest
// over the canonical JSON lets `bngcert verify` detect an edited certificate;
// only a signature (bngcert sign) says who wrote it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bng::cert {

// 2: build = {tool, libraries}, one entry per ISA path in `runs`, a digest.
inline constexpr int kCertificateSchemaVersion = 2;

// One certificate from the reports of the same campaign on each ISA path
// (one report for a single path or a check). Throws std::runtime_error when
// the reports judged different library files.
nlohmann::json certificate_json(const std::vector<nlohmann::json>& reports);
std::string render_certificate_markdown(const nlohmann::json& certificate);
// Writes certificate.json and certificate.md into `dir` (which must exist);
// returns the verdict.
bool write_certificate(
    const std::filesystem::path& dir,
    const std::vector<nlohmann::json>&
        reports);  // (One report is passed as {report}: a bare json would convert implicitly
// into a vector of its members.)

// SHA-256 of the certificate's canonical JSON (nlohmann's compact dump, keys
// sorted) without its "digest" member.
std::string certificate_digest(const nlohmann::json& certificate);

}  // namespace bng::cert
