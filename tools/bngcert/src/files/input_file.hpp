// Reading a file that may be hostile: everything bngcert reads (a pack, a
// shard, a certificate, a dump) comes from elsewhere and may have been made to
// hang, crash or mislead it. A file is read whole, once, into memory, so what
// is checked is what is used (no map that a shrinking file turns into SIGBUS,
// no second read that sees other bytes). Only regular files are read: a FIFO
// or a device (/dev/zero) is refused at once instead of blocking or never
// ending, and inside a pack or a shard a symbolic link is refused too.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace bng::cert {

// A file that cannot be used, with a message naming it and saying why.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// follow: the path was given by the user (a symlink is their choice);
// refuse: the path comes from inside a pack or a shard directory.
enum class Links { follow, refuse };

// Sizes beyond which a file is refused unread: no JSON file bngcert writes
// comes near them.
inline constexpr std::uint64_t kMaxJsonBytes = std::uint64_t{1} << 30;  // a 100x pack's manifest
inline constexpr std::uint64_t kMaxSmallJsonBytes = std::uint64_t{1} << 20;  // params, status
inline constexpr std::uint64_t kMaxDataBytes = std::uint64_t{1} << 40;       // .npy and tallies

// The whole file. Throws InputError when it is missing, not a regular file,
// a symlink (with Links::refuse), larger than max_bytes, or changes size
// while it is read; std::bad_alloc becomes an InputError too.
std::vector<unsigned char> read_regular_file(const std::filesystem::path& path,
                                             std::uint64_t max_bytes, Links links = Links::follow);
std::string read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                           Links links = Links::follow);

// Which file bytes were read from: the device and inode fstat gave for the
// descriptor they came through (a second look at the path may see another
// file, renamed there meanwhile).
struct FileId {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileId&) const = default;
};
struct IdentifiedBytes {
  std::vector<unsigned char> bytes;
  FileId file;
};
// read_regular_file, and which file it read.
IdentifiedBytes read_identified_file(const std::filesystem::path& path, std::uint64_t max_bytes,
                                     Links links = Links::follow);

// What lies at `path` without following a final symlink: "missing",
// "a directory", "a regular file", "a symbolic link", "a FIFO", "a device", ...
std::string file_kind(const std::filesystem::path& path);

}  // namespace bng::cert
