#include "sha256.hpp"

#include <openssl/evp.h>

#include <fstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace bng::cert {

struct Sha256::State {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  state_->ctx = EVP_MD_CTX_new();
  if (!state_->ctx || EVP_DigestInit_ex(state_->ctx, EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(state_->ctx);
    throw std::runtime_error("sha256: OpenSSL could not start a digest");
  }
}

Sha256::~Sha256() {
  EVP_MD_CTX_free(state_->ctx);
}

void Sha256::update(std::span<const unsigned char> bytes) {
  if (EVP_DigestUpdate(state_->ctx, bytes.data(), bytes.size()) != 1) {
    throw std::runtime_error("sha256: OpenSSL digest update failed");
  }
}

std::string Sha256::hex() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(state_->ctx, digest.data(), &size) != 1 || size != 32) {
    throw std::runtime_error("sha256: OpenSSL digest final failed");
  }
  std::string out;
  out.reserve(64);
  for (unsigned i = 0; i < size; ++i) out += fmt::format("{:02x}", digest[i]);
  return out;
}

std::string sha256_hex(std::span<const unsigned char> bytes) {
  Sha256 h;
  h.update(bytes);
  return h.hex();
}

std::string sha256_hex(std::string_view text) {
  return sha256_hex({reinterpret_cast<const unsigned char*>(text.data()), text.size()});
}

std::string sha256_file(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(fmt::format("{}: cannot open", path.string()));
  Sha256 h;
  std::vector<char> buf(std::size_t{1} << 20);
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto got = f.gcount();
    if (got > 0) {
      h.update({reinterpret_cast<const unsigned char*>(buf.data()), static_cast<std::size_t>(got)});
    }
  }
  if (f.bad()) throw std::runtime_error(fmt::format("{}: read error", path.string()));
  return h.hex();
}

}  // namespace bng::cert
