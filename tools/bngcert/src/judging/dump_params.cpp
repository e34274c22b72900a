#include "dump_params.hpp"

#include <limits>

#include <fmt/format.h>

#include "bng/properties/target.hpp"
#include "json_input.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

constexpr std::int64_t kMaxDimension = std::numeric_limits<std::int64_t>::max();

// A value too long to quote whole in a message is cut.
std::string quoted(const json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

std::optional<GivenValue> dimension(const std::optional<std::int64_t>& flag, const char* option,
                                    const json& params, const char* key,
                                    const std::string& params_name) {
  if (flag) {
    if (*flag < 1) throw InputError(fmt::format("{} {}: must be at least 1", option, *flag));
    return GivenValue{*flag, option};
  }
  if (!has_member(params, key)) return std::nullopt;
  return GivenValue{int_field<std::int64_t>(params, key, 1, kMaxDimension, params_name),
                    params_name};
}

}  // namespace

void require_dump_dir(const std::filesystem::path& dir) {
  // stat, not lstat: a --dir given as a symlink to a directory is the user's choice.
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (status.type() == std::filesystem::file_type::not_found) {
    throw InputError(fmt::format(
        "--dir {}: no such directory (a dump directory holds x.npy, dy.npy, mean.npy, "
        "invar.npy, scale.npy, dx.npy, dbias.npy, dscale.npy and optionally params.json)",
        dir.string()));
  }
  if (ec)
    throw InputError(fmt::format("--dir {}: cannot be examined: {}", dir.string(), ec.message()));
  if (status.type() != std::filesystem::file_type::directory) {
    throw InputError(
        fmt::format("--dir {}: {}, not a directory (give the directory holding the "
                    "dump's .npy files)",
                    dir.string(), file_kind(dir)));
  }
}

DumpParams resolve_dump_params(const CheckOptions& o) {
  const std::filesystem::path file = o.params.value_or(o.dir / "params.json");
  const std::string name = file.string();
  // Read when given, or when anything at all lies at the default path (a
  // dangling link or a FIFO there is refused by the reader, not skipped).
  const bool have_file = o.params.has_value() || file_kind(file) != "missing";
  json params = json::object();
  if (have_file) {
    params = read_json_file(file, kMaxSmallJsonBytes);
    if (!params.is_object()) {
      throw InputError(
          fmt::format("{}: must be a JSON object such as {{\"is_train\": 1, \"target\": "
                      "\"{}\"}}, not {}",
                      name, prop::target_name(prop::all_targets().front()),
                      params.is_null() ? "null" : params.type_name()));
    }
  }
  const std::string where_to_give =
      have_file ? fmt::format("in {}", name) : fmt::format("in {} (there is none)", name);

  DumpParams p;
  if (o.is_train) {
    p.is_train = *o.is_train;
  } else if (has_member(params, "is_train")) {
    p.is_train = int_field<int>(params, "is_train", 0, 1, name);
  } else {
    throw InputError(fmt::format(
        "{}: the mode is needed: give --is-train 1 (training) or 0 (inference), or 'is_train' {}",
        o.dir.string(), where_to_give));
  }

  if (o.target) {
    p.target = prop::target(*o.target);  // the command line accepts registry names only
  } else if (has_member(params, "target")) {
    const std::string target = string_field(params, "target", name);
    const std::optional<prop::Target> found = prop::find_target(target);
    if (!found) {
      throw InputError(fmt::format("{}: 'target' is \"{}\", which is no target: expected {}", name,
                                   target, prop::target_names(" or ")));
    }
    p.target = *found;
  } else {
    throw InputError(fmt::format(
        "{}: the target that produced the outputs ({}) is needed: give --target, or 'target' {}",
        o.dir.string(), prop::target_names(" or "), where_to_give));
  }

  p.batch = dimension(o.batch, "--batch", params, "batch", name);
  p.channel = dimension(o.channel, "--channel", params, "channel", name);

  if (has_member(params, "alpha")) {
    p.notes.push_back(fmt::format(
        "{}: 'alpha' ({}) is ignored: α is the kernel's declared bound, never one the data "
        "carries (a file could otherwise loosen its own bound); to judge at another α for "
        "investigation, give --alpha (its verdict is then not a release verdict)",
        name, quoted(params.at("alpha"))));
  }
  return p;
}

}  // namespace bng::cert
