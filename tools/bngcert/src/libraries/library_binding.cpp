#include "library_binding.hpp"

#include <dlfcn.h>
#include <sys/sysmacros.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "bng/properties/runner.hpp"

namespace bng::cert {
namespace {

// Any symbol every BatchNormGrad library exports (SPEC §2): its address
// leads to the object the loader mapped for the library.
constexpr const char* kProbeSymbol = "bng_status_string";

// One line of /proc/self/maps: "start-end perms offset major:minor inode path".
struct MapsLine {
  std::uintptr_t start = 0, end = 0;
  MappedFile mapped;
};

std::optional<MapsLine> parse_maps_line(const std::string& line) {
  unsigned long long start = 0, end = 0, offset = 0, inode = 0;
  unsigned major_id = 0, minor_id = 0;
  char perms[5] = {};
  int path_at = 0;
  if (std::sscanf(line.c_str(), "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &offset,
                  &major_id, &minor_id, &inode, &path_at) < 7) {
    return std::nullopt;
  }
  MapsLine m;
  m.start = static_cast<std::uintptr_t>(start);
  m.end = static_cast<std::uintptr_t>(end);
  m.mapped.file = {static_cast<std::uint64_t>(makedev(major_id, minor_id)), inode};
  if (path_at > 0) m.mapped.path = line.substr(static_cast<std::size_t>(path_at));
  return m;
}

std::string describe(const FileId& f) {
  const auto dev = static_cast<dev_t>(f.device);
  return fmt::format("device {}:{}, inode {}", major(dev), minor(dev), f.inode);
}

}  // namespace

MappedFile mapped_file(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  // Read line by line as the kernel writes it (its size is not known ahead:
  // read_regular_file does not apply to /proc).
  std::ifstream maps("/proc/self/maps");
  if (!maps) throw std::runtime_error("/proc/self/maps: cannot read it (is /proc mounted?)");
  for (std::string line; std::getline(maps, line);) {
    const std::optional<MapsLine> m = parse_maps_line(line);
    if (!m || at < m->start || at >= m->end) continue;
    if (m->mapped.file.inode == 0) {
      throw std::runtime_error(fmt::format(
          "/proc/self/maps: address {} lies in {}, not in a mapping of a file", address,
          m->mapped.path.empty() ? std::string("an anonymous mapping") : m->mapped.path));
    }
    return m->mapped;
  }
  throw std::runtime_error(fmt::format("/proc/self/maps: no mapping holds address {}", address));
}

std::string binding_mismatch(const LibraryIdentity& hashed, const void* symbol) {
  Dl_info info{};
  if (::dladdr(symbol, &info) == 0 || info.dli_fbase == nullptr) {
    return fmt::format(
        "{}: the address {} belongs to no object the loader mapped: which file was loaded is "
        "unknown",
        hashed.path, symbol);
  }
  MappedFile loaded;
  try {
    loaded = mapped_file(info.dli_fbase);
  } catch (const std::exception& e) {
    return fmt::format("{}: which file was loaded is unknown: {}", hashed.path, e.what());
  }
  if (loaded.file == hashed.file) return "";
  return fmt::format(
      "the file loaded is not the file hashed: bngcert hashed {} ({}) but the loader mapped {} "
      "({}); the file was replaced, or another one was loaded",
      hashed.path, describe(hashed.file), loaded.path, describe(loaded.file));
}

const LibraryIdentity& bind_library(prop::Target t) {
  static std::mutex mutex;
  static std::map<prop::Target, LibraryIdentity> bound;
  std::lock_guard lock(mutex);
  if (const auto it = bound.find(t); it != bound.end()) return it->second;

  const std::string name(prop::target_name(t));
  // Hashed first, loaded after: what the loader maps is then held against
  // what was hashed, never the other way round.
  LibraryIdentity id = identify_library(prop::library_path(t));
  if (const auto built_for = id.record.find("target");
      built_for != id.record.end() && built_for->second != name) {
    throw std::runtime_error(fmt::format(
        "{}: given as the {} library, but its build record says target={}: a library is judged "
        "only as the target it was built for",
        id.path, name, built_for->second));
  }
  const void* symbol = prop::find_symbol(t, kProbeSymbol);
  if (symbol == nullptr) {
    throw std::runtime_error(
        fmt::format("{}: has no {}: not a BatchNormGrad library (given as the "
                    "{} library)",
                    id.path, kProbeSymbol, name));
  }
  if (const std::string m = binding_mismatch(id, symbol); !m.empty()) {
    throw std::runtime_error(fmt::format("the {} library: {}", name, m));
  }
  return bound.emplace(t, std::move(id)).first->second;
}

}  // namespace bng::cert
