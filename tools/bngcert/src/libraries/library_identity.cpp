#include "library_identity.hpp"

#include <algorithm>
#include <sstream>

#include "bng/optimized/isa.hpp"
#include "elf_section.hpp"
#include "input_file.hpp"
#include "sha256.hpp"

namespace bng::cert {
namespace {

constexpr const char* kRecordSection = ".bng_build";
constexpr const char* kRecordHeader = "bng-build-record 1";
// Larger than any library of this project by far; the file is read whole.
constexpr std::uint64_t kMaxLibraryBytes = std::uint64_t{1} << 30;

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// Highway picks, per library, the best path compiled into it that this
// process allows (BNG_ISA's cap and the processor, both the same for every
// library in the process): the best of its paths not above the one this
// tool's own kernels dispatch to.
std::string path_ran(const std::vector<std::string>& compiled) {
  const std::string here = opt::isa_path();
  const auto rank = [](const std::string& p) {
    const auto* end = std::end(opt::kIsaPaths);
    return std::find(std::begin(opt::kIsaPaths), end, p) - std::begin(opt::kIsaPaths);
  };
  for (const std::string& p : compiled) {
    if (rank(p) < static_cast<long>(std::size(opt::kIsaPaths)) && rank(p) >= rank(here)) return p;
  }
  return "";
}

}  // namespace

bool parse_build_record(const std::string& text, std::map<std::string, std::string>* out,
                        std::string* error) {
  // The section holds the NUL-terminated text.
  const std::string body = text.substr(0, text.find('\0'));
  std::istringstream in(body);
  std::string line;
  if (!std::getline(in, line) || line != kRecordHeader) {
    *error = "build record of an unknown format (first line \"" + line + "\")";
    return false;
  }
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos || eq == 0) {
      *error = "build record line without key=value: \"" + line + "\"";
      return false;
    }
    (*out)[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return true;
}

LibraryIdentity identify_library(const std::filesystem::path& file) {
  LibraryIdentity id;
  id.path = file.string();
  // One read: the hash, the size and the record are of the same bytes, and
  // `file` says which file they came from.
  const IdentifiedBytes read = read_identified_file(file, kMaxLibraryBytes);
  id.sha256 = sha256_hex(read.bytes);
  id.size = read.bytes.size();
  id.file = read.file;
  const SectionRead s = read_elf_section(read.bytes, id.path, kRecordSection);
  if (!s.bytes) {
    id.record_error = s.error + " (no build record: not built by this project's CMake)";
  } else if (!parse_build_record(*s.bytes, &id.record, &id.record_error)) {
    id.record.clear();
  } else {
    id.isa_paths = words(id.record["isa_paths"]);
    id.isa_ran = path_ran(id.isa_paths);
  }
  return id;
}

nlohmann::json identity_json(const LibraryIdentity& id) {
  nlohmann::json build = nlohmann::json::object();
  for (const auto& [k, v] : id.record) {
    if (k == "dirty") {
      build["git_dirty"] = v == "1";
    } else if (k == "commit") {
      build["git_commit"] = v;
    } else if (k == "flags") {
      build["cxx_flags"] = v;  // the name the tool's own build uses
    } else if (k == "isa_paths") {
      build["isa_paths"] = id.isa_paths;
    } else {
      build[k] = v;
    }
  }
  nlohmann::json j = {
      {"path", id.path},
      {"size", id.size},
      {"sha256", id.sha256},
      {"build", id.record.empty() ? nlohmann::json(nullptr) : build},
      {"isa_ran", id.isa_ran.empty() ? nlohmann::json(nullptr) : nlohmann::json(id.isa_ran)}};
  if (!id.record_error.empty()) j["build_error"] = id.record_error;
  return j;
}

}  // namespace bng::cert
