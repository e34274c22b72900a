#include "elf_section.hpp"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <vector>

#include <fmt/format.h>

namespace bng::cert {
namespace {

bool inside(std::uint64_t file_size, std::uint64_t offset, std::uint64_t n) {
  return offset <= file_size && n <= file_size - offset;
}

// Reads [offset, offset + n) of the file, or false if it lies outside it.
bool read_at(std::ifstream& in, std::uint64_t file_size, std::uint64_t offset, void* out,
             std::uint64_t n) {
  if (!inside(file_size, offset, n)) return false;
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
  return static_cast<std::uint64_t>(in.gcount()) == n;
}

}  // namespace

SectionRead read_elf_section(const std::filesystem::path& file, const std::string& name) {
  SectionRead r;
  std::error_code ec;
  const std::uint64_t size = std::filesystem::file_size(file, ec);
  std::ifstream in(file, std::ios::binary);
  if (ec || !in) {
    r.error = fmt::format("{}: cannot read", file.string());
    return r;
  }
  Elf64_Ehdr eh{};
  if (!read_at(in, size, 0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    r.error = fmt::format("{}: not an ELF file", file.string());
    return r;
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    r.error = fmt::format("{}: not a 64-bit little-endian ELF file", file.string());
    return r;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum) {
    r.error = fmt::format("{}: no usable section table", file.string());
    return r;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  if (!read_at(in, size, eh.e_shoff, sections.data(), sizeof(Elf64_Shdr) * eh.e_shnum)) {
    r.error = fmt::format("{}: section table outside the file", file.string());
    return r;
  }
  const Elf64_Shdr& names = sections[eh.e_shstrndx];
  if (names.sh_type != SHT_STRTAB || !inside(size, names.sh_offset, names.sh_size)) {
    r.error = fmt::format("{}: section names unreadable", file.string());
    return r;
  }
  std::string strtab(names.sh_size, '\0');
  if (!read_at(in, size, names.sh_offset, strtab.data(), strtab.size())) {
    r.error = fmt::format("{}: section names unreadable", file.string());
    return r;
  }
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_name >= strtab.size()) continue;
    if (std::strncmp(strtab.c_str() + s.sh_name, name.c_str(), strtab.size() - s.sh_name) != 0)
      continue;
    if (s.sh_type == SHT_NOBITS) break;
    if (!inside(size, s.sh_offset, s.sh_size)) {
      r.error = fmt::format("{}: section {} outside the file", file.string(), name);
      return r;
    }
    std::string bytes(s.sh_size, '\0');
    if (!read_at(in, size, s.sh_offset, bytes.data(), bytes.size())) {
      r.error = fmt::format("{}: section {} outside the file", file.string(), name);
      return r;
    }
    r.bytes = std::move(bytes);
    return r;
  }
  r.error = fmt::format("{}: no section {}", file.string(), name);
  return r;
}

}  // namespace bng::cert
