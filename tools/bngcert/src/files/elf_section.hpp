// One named section of an ELF file (64-bit, little-endian: the x86-64 and
// DSP host builds), read with <elf.h>'s layouts and checked bounds: a
// truncated or foreign file gives an error message, never a crash.
#pragma once

#include <filesystem>
#include <optional>
#include <span>
#include <string>

namespace bng::cert {

struct SectionRead {
  std::optional<std::string> bytes;  // the section's contents, if found
  std::string error;                 // why not, when bytes is empty
};

// From the file's bytes already in memory (`file_name` names it in errors):
// the section comes from exactly the bytes that were hashed.
SectionRead read_elf_section(std::span<const unsigned char> file, const std::string& file_name,
                             const std::string& name);
// From the file at `file` (read whole, as a regular file).
SectionRead read_elf_section(const std::filesystem::path& file, const std::string& name);

}  // namespace bng::cert
