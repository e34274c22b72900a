// SHA-256 (OpenSSL's libcrypto) of a file or a byte string, as lowercase hex.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace bng::cert {

struct FileDigest {
  std::string sha256;  // 64 hex digits
  std::uintmax_t size = 0;
};

// Reads the file in blocks (any size, bounded memory). Throws
// std::runtime_error naming the file when it cannot be read.
FileDigest sha256_file(const std::filesystem::path& path);
std::string sha256_hex(std::string_view bytes);

}  // namespace bng::cert
