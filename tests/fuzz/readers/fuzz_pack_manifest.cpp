// libFuzzer: the bytes are a pack's pack.json, read as `check --pack` reads
// it (open_pack_manifest: limits, campaign record, plan derivation, head
// comparison), and its first cases' lines compared with their derivation.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pack_case.hpp"
#include "pack_reader.hpp"
#include "reader_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bng::fuzz::expect_read_or_refused([&] {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const bng::cert::OpenedPack pack = bng::cert::open_pack_manifest(text, "fuzz/pack.json");
    for (std::size_t i = 0; i < pack.jobs.size() && i < 2; ++i) {
      const auto derived = bng::cert::derive_pack_case(pack.plan, pack.jobs[i]);
      (void)bng::cert::entry_difference(pack, i, derived);
    }
  });
  return 0;
}
