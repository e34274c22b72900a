// Shared by the Markdown and HTML renderers: numbers as the report prints them.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace bng::cert {

// A report number (or "inf"/"nan" string) in 4 significant digits.
std::string show(const nlohmann::json& v);
// A count with thousands separators.
std::string show_count(std::int64_t n);
// The verdict line's words.
std::string verdict_word(bool pass);

}  // namespace bng::cert
