#include <fmt/format.h>

#include "render_common.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

std::string text(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return "?";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

std::string commit_text(const json& b) {
  const bool dirty = b.value("git_dirty", false);
  return fmt::format("commit {}{}", text(b, "git_commit"),
                     dirty ? " DIRTY (uncommitted changes: not a release build)" : " (clean)");
}

std::string compiler_text(const json& b) {
  return fmt::format("{}, flags {} ({})", text(b, "compiler"), text(b, "cxx_flags"),
                     text(b, "build_type"));
}

std::string joined(const json& list) {
  std::string out;
  if (!list.is_array()) return "?";
  for (const auto& v : list) out += (out.empty() ? "" : ", ") + v.get<std::string>();
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> build_rows(const json& build) {
  std::vector<std::pair<std::string, std::string>> rows;
  const json& tool = build["tool"];
  rows.emplace_back("bngcert (this tool)", fmt::format("version {}, {}, {}", text(tool, "version"),
                                                       commit_text(tool), compiler_text(tool)));
  if (build.contains("isa")) {  // a report; a certificate states the path of each run
    const json& isa = build["isa"];
    std::string isa_line =
        fmt::format("{} (Highway {})", text(isa, "path"), text(isa, "highway_target"));
    if (!isa["requested"].is_null())
      isa_line += fmt::format(", BNG_ISA={}", text(isa, "requested"));
    if (!isa["note"].is_null()) isa_line += fmt::format(" — {}", text(isa, "note"));
    isa_line += fmt::format("; this processor supports {}", joined(isa["supported"]));
    rows.emplace_back("ISA path", isa_line);
  }
  for (const auto& [target, lib] : build["libraries"].items()) {
    if (lib.contains("error")) {
      rows.emplace_back(target + " library",
                        fmt::format("{}: {}", text(lib, "path"), text(lib, "error")));
      continue;
    }
    std::string file = fmt::format("{}, {} bytes, SHA-256 {}", text(lib, "path"), text(lib, "size"),
                                   text(lib, "sha256"));
    if (lib.contains("role")) file += " (" + text(lib, "role") + ")";
    rows.emplace_back(target + " library", file);
    const json& b = lib["build"];
    if (b.is_null()) {
      rows.emplace_back(target + " build", "not recorded in the file: " + text(lib, "build_error"));
      continue;
    }
    // Records written before issue 25 name no architecture: they are x86-64 builds.
    const std::string architecture =
        b.contains("architecture") ? text(b, "architecture") : "x86_64";
    std::string line =
        fmt::format("version {}, {}, {}, for {}; paths compiled in: {}", text(b, "version"),
                    commit_text(b), compiler_text(b), architecture, joined(b["isa_paths"]));
    if (lib.contains("isa_ran")) line += "; ran on: " + text(lib, "isa_ran");
    rows.emplace_back(target + " build", line);
  }
  return rows;
}

}  // namespace bng::cert
