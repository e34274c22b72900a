// libFuzzer: the bytes are a certificate.json, read as `bngcert verify` and
// `bngcert sign` read it (parse_certificate: limits, no duplicate key, every
// field used type-checked), and its digest recomputed.
#include <cstddef>
#include <cstdint>
#include <string>

#include "certificate.hpp"
#include "certificate_reader.hpp"
#include "reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bng::fuzz::expect_read_or_refused([&] {
    const auto c = bng::cert::parse_certificate(
        std::string(reinterpret_cast<const char*>(data), size), "fuzz/certificate.json");
    (void)c.digest_intact();
  });
  return 0;
}
