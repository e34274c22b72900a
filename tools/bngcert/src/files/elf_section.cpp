#include "elf_section.hpp"

#include <elf.h>

#include <cstring>
#include <vector>

#include <fmt/format.h>

#include "input_file.hpp"

namespace bng::cert {
namespace {

// Larger than any library of this project by far.
constexpr std::uint64_t kMaxElfBytes = std::uint64_t{1} << 30;

bool inside(std::uint64_t file_size, std::uint64_t offset, std::uint64_t n) {
  return offset <= file_size && n <= file_size - offset;
}

// Copies [offset, offset + n) of the file, or false if it lies outside it.
bool read_at(std::span<const unsigned char> file, std::uint64_t offset, void* out,
             std::uint64_t n) {
  if (!inside(file.size(), offset, n)) return false;
  std::memcpy(out, file.data() + offset, n);
  return true;
}

}  // namespace

SectionRead read_elf_section(std::span<const unsigned char> file, const std::string& file_name,
                             const std::string& name) {
  SectionRead r;
  Elf64_Ehdr eh{};
  if (!read_at(file, 0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    r.error = fmt::format("{}: not an ELF file", file_name);
    return r;
  }
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB) {
    r.error = fmt::format("{}: not a 64-bit little-endian ELF file", file_name);
    return r;
  }
  if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum) {
    r.error = fmt::format("{}: no usable section table", file_name);
    return r;
  }
  std::vector<Elf64_Shdr> sections(eh.e_shnum);
  if (!read_at(file, eh.e_shoff, sections.data(), sizeof(Elf64_Shdr) * eh.e_shnum)) {
    r.error = fmt::format("{}: section table outside the file", file_name);
    return r;
  }
  const Elf64_Shdr& names = sections[eh.e_shstrndx];
  if (names.sh_type != SHT_STRTAB || !inside(file.size(), names.sh_offset, names.sh_size)) {
    r.error = fmt::format("{}: section names unreadable", file_name);
    return r;
  }
  std::string strtab(names.sh_size, '\0');
  read_at(file, names.sh_offset, strtab.data(), strtab.size());
  for (const Elf64_Shdr& s : sections) {
    if (s.sh_name >= strtab.size()) continue;
    if (std::strncmp(strtab.c_str() + s.sh_name, name.c_str(), strtab.size() - s.sh_name) != 0)
      continue;
    if (s.sh_type == SHT_NOBITS) break;
    if (!inside(file.size(), s.sh_offset, s.sh_size)) {
      r.error = fmt::format("{}: section {} outside the file", file_name, name);
      return r;
    }
    std::string bytes(s.sh_size, '\0');
    read_at(file, s.sh_offset, bytes.data(), bytes.size());
    r.bytes = std::move(bytes);
    return r;
  }
  r.error = fmt::format("{}: no section {}", file_name, name);
  return r;
}

SectionRead read_elf_section(const std::filesystem::path& file, const std::string& name) {
  std::vector<unsigned char> bytes;
  try {
    bytes = read_regular_file(file, kMaxElfBytes);
  } catch (const InputError& e) {
    return {std::nullopt, e.what()};
  }
  return read_elf_section(bytes, file.string(), name);
}

}  // namespace bng::cert
