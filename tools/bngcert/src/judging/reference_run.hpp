// Which reference judged a run, as report.json's run.reference says it:
// {"path": "tiered" | "exact", "exact_fallbacks": N}. The commands that judge
// set the path (--reference); the report adds the fall-backs its kernels'
// tallies count, so a merged run says what its shards' cases took together.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "bng/reference/reference.hpp"

namespace bng::cert {

inline nlohmann::json reference_run_field(ref::Path p) {
  return {{"path", std::string(ref::path_name(p))}};
}

// The same in words, for report.md/html and the certificate's summary: what
// a run's "reference" says, or "?" parts where it says nothing readable.
inline std::string reference_words(const nlohmann::json& run) {
  const nlohmann::json r = run.contains("reference") ? run["reference"] : nlohmann::json::object();
  const std::string path = r.is_object() && r.contains("path") && r["path"].is_string()
                               ? r["path"].get<std::string>()
                               : "?";
  if (!r.is_object() || !r.contains("exact_fallbacks") ||
      !r["exact_fallbacks"].is_number_integer()) {
    return path;
  }
  const auto n = r["exact_fallbacks"].get<std::int64_t>();
  if (path == "exact") return "exact (every output by the BigInt path)";
  return fmt::format("{} ({} output{} taken to the exact path)", path, n, n == 1 ? "" : "s");
}

}  // namespace bng::cert
