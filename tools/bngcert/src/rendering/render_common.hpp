// Shared by the Markdown and HTML renderers: numbers as the report prints them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace bng::cert {

// A report number (or "inf"/"nan" string) in 4 significant digits.
std::string show(const nlohmann::json& v);
// A count with thousands separators.
std::string show_count(std::int64_t n);
// A share in [0, 1] as a percentage ("99.97 %"); "—" for null. Never rounds a
// share below 1 up to "100 %".
std::string show_share(const nlohmann::json& v);
// The sentence under every summary table: why the raw maximum ULP error is not
// what a reader decides on.
inline constexpr const char* kUlpNote =
    "Read the maximum ULP error beside κ: where the terms cancel (y* near 0, κ large) the "
    "allowed error is α·M, which is many ulps of y*, so a huge ULP error there can be well "
    "within the bound (worst bound use ≤ 1). Cosine similarity, relative errors and the "
    "shares over 1e-3 / 1e-4 are the golden-data figures of other accelerator toolchains: "
    "they inform, the verdict is each kernel's criterion (docs/report-format.md, \"metrics\").";
// What an output must meet to pass, as the verdict lines of report.md and
// report.html say it (SPEC §5; docs/spec-notes.md #15 for correct rounding).
inline constexpr const char* kCriterionWords =
    "an error within 1·ulp(y*) + α·M, or RN(y*) itself where the kernel declares correct "
    "rounding";
// The verdict line's words.
std::string verdict_word(bool pass);
// "Merged from 3 of 4 shards — PARTIAL, missing: 2/4" (run.sharding of a merged report).
std::string sharding_line(const nlohmann::json& sharding);
// A report's verdict: PASS, FAIL, or PARTIAL for a merge of some shards only.
std::string verdict_word(const nlohmann::json& verdict);

}  // namespace bng::cert

namespace bng::cert {

// The build block of a report or certificate (report.hpp's build_json) as
// (label, text) rows: the tool's build, the ISA path, and per judged library
// its file (path, size, SHA-256) and the build recorded in it. Every renderer
// shows these rows.
std::vector<std::pair<std::string, std::string>> build_rows(const nlohmann::json& build);

}  // namespace bng::cert
