// Writing bngcert's results where they belong and nowhere else. Each file is
// written under a fresh temporary name in its directory (O_CREAT | O_EXCL |
// O_NOFOLLOW: never through a link planted there), then renamed over its
// final name: a reader sees the old file or the new one, never half of one,
// and a symlink in the way is replaced, not written through. Directories that
// bngcert creates inside an output directory must be real directories.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace bng::cert {

// Before any work: `dir` (an --out) exists as a directory, or is created, and
// a file can be written there. Throws std::invalid_argument naming `option`
// and what is wrong (a file in the way, not writable), so that a bad --out
// fails at once rather than after a whole campaign.
void prepare_output_dir(const std::filesystem::path& dir, std::string_view option = "--out");

// `base`/`rel`, created component by component; throws std::runtime_error
// when a component exists as anything but a directory (a symlink included).
std::filesystem::path make_subdirectory(const std::filesystem::path& base,
                                        const std::filesystem::path& rel);

// Writes the bytes to `path` atomically (see above). Throws std::runtime_error
// naming the file.
void write_file(const std::filesystem::path& path, std::span<const unsigned char> bytes);
void write_text(const std::filesystem::path& path, std::string_view text);

}  // namespace bng::cert
