// libFuzzer: the bytes are a .npy file, read by the reader `check` uses on a
// device's dumps (npy::Array::from_bytes) and decoded whole.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "npy.hpp"
#include "reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bng::fuzz::expect_read_or_refused([&] {
    const auto a = bng::cert::npy::Array::from_bytes("fuzz.npy", {data, data + size});
    (void)a.read_all();
  });
  return 0;
}
