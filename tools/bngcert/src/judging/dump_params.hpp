// The call a dump directory holds (`bngcert check --dir`): its target, mode,
// batch and channel, from the command line first and the dump's params.json
// second, each with where it came from so that a message can name the file or
// flag that disagrees with the data. α is not among them: it is the kernel's
// declared one (release_verdict.hpp), never read from the data.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bng/properties/target.hpp"
#include "dump_check_options.hpp"

namespace bng::cert {

// A value of the call and what gave it: "--batch", or the params.json path.
struct GivenValue {
  std::int64_t value = 0;
  std::string source;
};

struct DumpParams {
  prop::Target target{};
  int is_train = 1;
  std::optional<GivenValue> batch, channel;  // nullopt: from x.npy's shape
  std::vector<std::string> notes;            // for stderr: what was given but is not used
};

// --dir must be an existing directory: said first and plainly, before any
// other requirement (a mistyped --dir is not a missing is_train). Throws
// InputError.
void require_dump_dir(const std::filesystem::path& dir);

// Flags, then params.json (--params, or <dir>/params.json when there is one).
// Every field of params.json that is used is checked for type and range, and
// a wrong one is an InputError naming the file, the key and what it must be.
DumpParams resolve_dump_params(const CheckOptions& options);

}  // namespace bng::cert
