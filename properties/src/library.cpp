// Loading the shipped libraries. Each target's .so is opened once, RTLD_LOCAL
// so the two libraries' identical fp_* names never resolve to each other, and
// never closed: the kernels keep a persistent core pool whose threads must not
// outlive their code.
#include <dlfcn.h>
#include <elf.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>

#include "bng/properties/runner.hpp"

#ifndef BNG_PROP_LIB_FT78NE
#error "BNG_PROP_LIB_FT78NE must name the built libbatchnormgrad_ft78ne.so"
#endif
#ifndef BNG_PROP_LIB_MT7004
#error "BNG_PROP_LIB_MT7004 must name the built libbatchnormgrad_mt7004.so"
#endif

namespace bng::prop {
namespace {

struct Slot {
  std::string override_path;
  void* handle = nullptr;
};

std::mutex g_mutex;
std::array<Slot, 2> g_slots;

Slot& slot(Target t) {
  return g_slots[static_cast<std::size_t>(t)];
}

std::string path_locked(Target t) {
  const char* env = std::getenv(t == Target::ft78ne ? "BNG_LIB_FT78NE" : "BNG_LIB_MT7004");
  if (env != nullptr && *env != '\0') return env;
  if (!slot(t).override_path.empty()) return slot(t).override_path;
  return t == Target::ft78ne ? BNG_PROP_LIB_FT78NE : BNG_PROP_LIB_MT7004;
}

void* handle_locked(Target t) {
  Slot& s = slot(t);
  if (s.handle == nullptr) {
    const std::string path = path_locked(t);
    s.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (s.handle == nullptr) {
      const char* err = dlerror();
      throw std::runtime_error("cannot load " + std::string(target_name(t)) + " library " + path +
                               ": " + (err != nullptr ? err : "unknown dlopen error"));
    }
  }
  return s.handle;
}

// Symbols every shared object may carry from the linker itself, not from the
// library's code: they are not part of any API surface.
bool linker_symbol(const std::string& name) {
  static const std::array<const char*, 5> names{"_init", "_fini", "_edata", "_end", "__bss_start"};
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

}  // namespace

std::string library_path(Target t) {
  std::lock_guard lock(g_mutex);
  return path_locked(t);
}

void set_library_path(Target t, std::string path) {
  std::lock_guard lock(g_mutex);
  if (slot(t).handle != nullptr) {
    throw std::logic_error("set_library_path(" + std::string(target_name(t)) +
                           ") after the library was loaded");
  }
  slot(t).override_path = std::move(path);
}

void* find_symbol(Target t, const char* name) {
  std::lock_guard lock(g_mutex);
  void* h = handle_locked(t);
  dlerror();
  return dlsym(h, name);
}

std::vector<std::string> dynamic_symbols(Target t) {
  const std::string path = library_path(t);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  const std::vector<char> file((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
  auto need = [&](std::size_t off, std::size_t len) {
    if (off > file.size() || len > file.size() - off)
      throw std::runtime_error(path + ": truncated ELF file");
  };
  Elf64_Ehdr eh;
  need(0, sizeof eh);
  std::memcpy(&eh, file.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) {
    throw std::runtime_error(path + ": not a 64-bit ELF file");
  }
  auto section = [&](std::size_t i) {
    Elf64_Shdr sh;
    need(eh.e_shoff + i * sizeof sh, sizeof sh);
    std::memcpy(&sh, file.data() + eh.e_shoff + i * sizeof sh, sizeof sh);
    return sh;
  };
  std::vector<std::string> names;
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sh = section(i);
    if (sh.sh_type != SHT_DYNSYM) continue;
    const Elf64_Shdr strtab = section(sh.sh_link);
    need(sh.sh_offset, sh.sh_size);
    need(strtab.sh_offset, strtab.sh_size);
    for (std::size_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size; off += sizeof(Elf64_Sym)) {
      Elf64_Sym sym;
      std::memcpy(&sym, file.data() + sh.sh_offset + off, sizeof sym);
      const int bind = ELF64_ST_BIND(sym.st_info);
      const int type = ELF64_ST_TYPE(sym.st_info);
      // Undefined (imports) and absolute symbols (symbol-version names) are not exports.
      if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS) continue;
      if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) continue;
      if (type == STT_SECTION || type == STT_FILE) continue;
      if (sym.st_name >= strtab.sh_size)
        throw std::runtime_error(path + ": bad symbol name offset");
      const char* p = file.data() + strtab.sh_offset + sym.st_name;
      std::string name(p, strnlen(p, strtab.sh_size - sym.st_name));
      if (!linker_symbol(name)) names.push_back(std::move(name));
    }
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace bng::prop
