#include "sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

namespace bng::cert {
namespace {

struct Hasher {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), EVP_MD_CTX_free};
  Hasher() {
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
      throw std::runtime_error("SHA-256: OpenSSL could not start a digest");
  }
  void add(const void* p, std::size_t n) {
    if (EVP_DigestUpdate(ctx.get(), p, n) != 1) throw std::runtime_error("SHA-256: update failed");
  }
  std::string hex() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
    unsigned int n = 0;
    if (EVP_DigestFinal_ex(ctx.get(), md.data(), &n) != 1)
      throw std::runtime_error("SHA-256: final failed");
    std::string out;
    for (unsigned int k = 0; k < n; ++k) out += fmt::format("{:02x}", md[k]);
    return out;
  }
};

}  // namespace

FileDigest sha256_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(fmt::format("{}: cannot open", path.string()));
  Hasher h;
  FileDigest d;
  std::array<char, 1 << 16> buf{};
  while (in) {
    in.read(buf.data(), buf.size());
    const auto n = static_cast<std::size_t>(in.gcount());
    h.add(buf.data(), n);
    d.size += n;
  }
  if (in.bad()) throw std::runtime_error(fmt::format("{}: read error", path.string()));
  d.sha256 = h.hex();
  return d;
}

std::string sha256_hex(std::string_view bytes) {
  Hasher h;
  h.add(bytes.data(), bytes.size());
  return h.hex();
}

}  // namespace bng::cert
