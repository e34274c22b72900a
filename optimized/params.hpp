// Decoding of the seed's packed parameter array `long long params[12]`
// (SPEC §2): slots 0..4 are pointers, 5..7 integers, 8..11 reserved.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bng::opt {

// Only slots 0..7 are read: the seed's own example leaves 8..11 uninitialised,
// so reading them would be reading indeterminate memory.
inline constexpr std::size_t kParamsSlotsRead = 8;
inline constexpr std::size_t kParamsBytesRead = kParamsSlotsRead * sizeof(long long);

// The eight read slots, untouched: pointers as addresses, integers at full
// `long long` width so that validation sees e.g. is_train = 2^32 + 1 as the
// invalid value it is rather than as a truncated 1.
struct RawParams {
  std::uintptr_t mean;
  std::uintptr_t invar;
  std::uintptr_t scale;
  std::uintptr_t dbias;
  std::uintptr_t dscale;
  long long batch;
  long long channel;
  long long is_train;
};

// Reads slots 0..7. `params` must be non-null and aligned to long long (the
// caller checks both first, since they decide the status before any read).
RawParams decode_params(const long long* params);

}  // namespace bng::opt
