// The release certificate: the verdict of a report (every output within its
// kernel's declared α, every valid call succeeded) with what was built and
// what was run, as certificate.json and certificate.md.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace bng::cert {

inline constexpr int kCertificateSchemaVersion = 1;

nlohmann::json certificate_json(const nlohmann::json& report);
std::string render_certificate_markdown(const nlohmann::json& certificate);
// Writes certificate.json and certificate.md into `dir`; returns the verdict.
bool write_certificate(const std::filesystem::path& dir, const nlohmann::json& report);

}  // namespace bng::cert
