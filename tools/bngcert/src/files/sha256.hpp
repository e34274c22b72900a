// SHA-256 of bytes and of files, through OpenSSL's libcrypto (a well-kept,
// audited implementation; docs/dependencies.md). Used for the checksums of
// exported case packs and, by certificates, for library identity.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace bng::cert {

// An incremental SHA-256: feed bytes in pieces, read the digest once.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::span<const unsigned char> bytes);
  // Lowercase hex of the 32-byte digest; the object is spent afterwards.
  std::string hex();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::string sha256_hex(std::span<const unsigned char> bytes);
std::string sha256_hex(std::string_view text);
// Reads the file in pieces (bounded memory); throws std::runtime_error naming
// the file if it cannot be opened or read.
std::string sha256_file(const std::filesystem::path& path);

}  // namespace bng::cert
