#include "dump_shapes.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "input_file.hpp"

namespace bng::cert {

namespace {

constexpr std::array<const char*, 3> kDataArrays = {"x", "dy", "dx"};
constexpr std::array<const char*, 5> kChannelArrays = {"mean", "invar", "scale", "dbias", "dscale"};
constexpr const char* kDataList = "x.npy, dy.npy and dx.npy";
constexpr const char* kChannelList = "mean.npy, invar.npy, scale.npy, dbias.npy and dscale.npy";

// "--batch 4" or "dump/params.json: 'batch' is 4".
std::string said(const GivenValue& v, const char* key) {
  if (v.source.starts_with("--")) return fmt::format("{} {}", v.source, v.value);
  return fmt::format("{}: '{}' is {}", v.source, key, v.value);
}

// "a.npy", "a.npy and b.npy", "a.npy, b.npy and c.npy".
std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

// Every array of the dump with its shape, those of one shape together:
// "dump/ holds x.npy, dy.npy and dx.npy of shape (6, 5), mean.npy of shape
// (4,) and invar.npy, ... of shape (5,)".
std::string shapes_held(const DumpArrays& a, const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;  // shape, names
  const auto add = [&](const char* n) {
    const std::string shape = a.at(n).header().shape_string();
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == shape; });
    if (it == groups.end()) it = groups.insert(groups.end(), {shape, {}});
    it->second.push_back(std::string(n) + ".npy");
  };
  for (const char* n : kDataArrays) add(n);
  for (const char* n : kChannelArrays) add(n);
  std::vector<std::string> parts;
  for (const auto& [shape, names] : groups)
    parts.push_back(fmt::format("{} of shape {}", listed(names), shape));
  return fmt::format("{}/ holds {}", dir.string(), listed(parts));
}

// Whether any per-channel array has another length than c.
bool per_channel_differs(const DumpArrays& a, std::int64_t c) {
  return std::any_of(kChannelArrays.begin(), kChannelArrays.end(),
                     [&](const char* n) { return a.at(n).header().shape[0] != c; });
}

// What the arrays must be whatever the call: x, dy and dx one shape, the
// per-channel arrays one-dimensional and of one length.
void check_array_shapes(const DumpArrays& a, const std::filesystem::path& dir) {
  const npy::Array& x = a.at("x");
  const npy::Header& xh = x.header();
  if (xh.shape.empty()) {
    throw InputError(
        fmt::format("{}: a scalar (shape ()); {} are [batch, channel] or [N, H, W, "
                    "channel]",
                    x.name(), kDataList));
  }
  for (const char* n : kDataArrays) {
    if (a.at(n).header().shape != xh.shape) {
      throw InputError(fmt::format("{} has shape {} but x.npy has {}: {} share one shape",
                                   a.at(n).name(), a.at(n).header().shape_string(),
                                   xh.shape_string(), kDataList));
    }
  }
  for (const char* n : kChannelArrays) {
    const npy::Header& h = a.at(n).header();
    if (h.shape.size() != 1) {
      throw InputError(fmt::format("{} has shape {}: {} are one-dimensional, (channel,)",
                                   a.at(n).name(), h.shape_string(), kChannelList));
    }
  }
  if (per_channel_differs(a, a.at("mean").header().shape[0])) {
    throw InputError(fmt::format("{}: {} must all have one shape, (channel,)", shapes_held(a, dir),
                                 kChannelList));
  }
}

// The channel count: given, or x.npy's last dimension (a one-dimensional x is
// one row, unless a channel count is given).
std::int64_t dump_channels(const DumpArrays& a, const std::filesystem::path& dir,
                           const std::optional<GivenValue>& channel) {
  const npy::Header& xh = a.at("x").header();
  CallSize size;
  if (channel) {
    if ((xh.shape.size() >= 2 && xh.shape.back() != channel->value) ||
        per_channel_differs(a, channel->value)) {
      const std::string last =
          xh.shape.size() >= 2 ? fmt::format(" and x.npy's last dimension to be {}", channel->value)
                               : "";
      throw InputError(fmt::format(
          "{}, but {}: {} channels need each of {} to have shape ({},){} (leave 'channel' out: "
          "it defaults to x.npy's last dimension)",
          said(*channel, "channel"), shapes_held(a, dir), channel->value, kChannelList,
          channel->value, last));
    }
    size.channel = channel->value;
  } else {
    size.channel = xh.shape.back();
    if (size.channel < 1) {
      throw InputError(
          fmt::format("{}: no channels: a call has at least one", shapes_held(a, dir)));
    }
    if (per_channel_differs(a, size.channel)) {
      throw InputError(fmt::format(
          "{}: x.npy's last dimension, the channel count, is {}, so each of {} needs shape ({},)",
          shapes_held(a, dir), size.channel, kChannelList, size.channel));
    }
  }
  return size.channel;
}

// The batch: whole rows of `channel` elements (a division: batch × channel
// given in a file could overflow).
std::int64_t dump_rows(const DumpArrays& a, const std::filesystem::path& dir,
                       const std::optional<GivenValue>& batch,
                       const std::optional<GivenValue>& channel, CallSize size) {
  const npy::Header& xh = a.at("x").header();
  const std::int64_t elements = xh.elements();
  if (elements % size.channel != 0) {
    throw InputError(fmt::format("{}: {} elements, not whole rows of {} channels ({})",
                                 shapes_held(a, dir), elements, size.channel,
                                 channel ? said(*channel, "channel") : "x.npy's last dimension"));
  }
  const std::int64_t rows = elements / size.channel;
  if (batch && batch->value != rows) {
    throw InputError(fmt::format(
        "{}, but {}: {} rows of {} channels, so batch is {} there (leave 'batch' out: it "
        "defaults to that)",
        said(*batch, "batch"), shapes_held(a, dir), rows, size.channel, rows));
  }
  if (rows < 1) {
    throw InputError(fmt::format("{}: no rows: a call has at least one", shapes_held(a, dir)));
  }
  return rows;
}

}  // namespace

CallSize check_dump_shapes(const DumpArrays& a, const std::filesystem::path& dir,
                           const std::optional<GivenValue>& batch,
                           const std::optional<GivenValue>& channel) {
  check_array_shapes(a, dir);
  CallSize size;
  size.channel = dump_channels(a, dir, channel);
  size.batch = dump_rows(a, dir, batch, channel, size);
  return size;
}

}  // namespace bng::cert
