// The report's charts as inline SVG (no script, no external reference):
// the ULP-error histogram and the density scatter of normalised error against
// cancellation κ with the declared bound drawn in, and the fault map.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace bng::cert {

// From a report.json output entry ("histogram").
std::string svg_histogram(const nlohmann::json& output, const std::string& title);
// From a report.json output entry ("density", "alpha_over_u").
std::string svg_scatter(const nlohmann::json& output, const std::string& title);

// A report.json "faults" entry: the map and both tallies (svg_fault_map.cpp).
std::string svg_fault_map(const nlohmann::json& faults, const std::string& title);

std::string html_escape(std::string_view s);

}  // namespace bng::cert
