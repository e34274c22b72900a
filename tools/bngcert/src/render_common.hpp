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
// The verdict line's words.
std::string verdict_word(bool pass);

}  // namespace bng::cert

namespace bng::cert {

// The build block of a report or certificate (report.hpp's build_json) as
// (label, text) rows: the tool's build, the ISA path, and per judged library
// its file (path, size, SHA-256) and the build recorded in it. Every renderer
// shows these rows.
std::vector<std::pair<std::string, std::string>> build_rows(const nlohmann::json& build);

}  // namespace bng::cert
