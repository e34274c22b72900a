// The shapes of a dump's arrays (`bngcert check --dir`): they must agree with
// one another — x, dy and dx one shape, the five per-channel arrays (channel,)
// — and with a batch or channel given by a flag or params.json. A
// disagreement names where the value came from and every array concerned,
// with its shape: whichever is wrong, the reader sees both sides.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "dump_judge.hpp"
#include "dump_params.hpp"

namespace bng::cert {

struct CallSize {
  std::int64_t batch = 1, channel = 1;
};

// The call's batch and channel: given, or from x.npy (channel its last
// dimension, batch its elements over channel). Throws InputError.
CallSize check_dump_shapes(const DumpArrays& arrays, const std::filesystem::path& dir,
                           const std::optional<GivenValue>& batch,
                           const std::optional<GivenValue>& channel);

}  // namespace bng::cert
