#include "fault_map.hpp"

#include <algorithm>

#include "bng/optimized/schedule.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

const opt::TargetInfo& info_of(prop::Target t) {
  return opt::kTargets.at(static_cast<std::size_t>(t));
}

}  // namespace

int vector_lanes(prop::Target t) {
  return info_of(t).vector_lanes;
}

FaultPlace fault_place(const FaultSite& s) {
  const std::int64_t data_bytes = data_format(s.combo) == Format::binary16 ? 2 : 4;
  const opt::Schedule schedule =
      opt::make_schedule(s.batch, s.channel, s.is_train != 0, data_bytes,
                         opt::target_model(info_of(s.target)), s.core_mask);
  const opt::Placement at = s.output == Output::dx ? opt::place_dx(schedule, s.n, s.c)
                                                   : opt::place_channel(schedule, s.c);
  return {.lane = static_cast<int>(at.lane % vector_lanes(s.target)),
          .part = at.part,
          .parts = at.parts};
}

void FaultMap::add(const FaultSite& s) {
  ++fails;
  const int row = s.output == Output::dx
                      ? static_cast<int>(s.n * kRowBins / std::max<std::int64_t>(s.batch, 1))
                      : 0;
  const int col = static_cast<int>(s.c * kChannelBins / std::max<std::int64_t>(s.channel, 1));
  ++cells[static_cast<std::size_t>(std::clamp(row, 0, kRowBins - 1))]
         [static_cast<std::size_t>(std::clamp(col, 0, kChannelBins - 1))];
  const FaultPlace f = fault_place(s);
  ++by_lane[f.lane];
  ++by_part[f.part];
  vector_lanes = bng::cert::vector_lanes(s.target);
}

void FaultMap::merge(const FaultMap& o) {
  fails += o.fails;
  for (int r = 0; r < kRowBins; ++r) {
    for (int c = 0; c < kChannelBins; ++c) {
      cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)] +=
          o.cells[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
    }
  }
  for (const auto& [k, n] : o.by_lane) by_lane[k] += n;
  for (const auto& [k, n] : o.by_part) by_part[k] += n;
  vector_lanes = std::max(vector_lanes, o.vector_lanes);
}

json fault_map_json(const FaultMap& m) {
  json cells = json::array();
  for (const auto& row : m.cells) cells.push_back(row);
  json lanes = json::array(), parts = json::array();
  for (const auto& [k, n] : m.by_lane) lanes.push_back({{"lane", k}, {"fails", n}});
  for (const auto& [k, n] : m.by_part) parts.push_back({{"part", k}, {"fails", n}});
  return {{"fails", m.fails},
          {"row_bins", FaultMap::kRowBins},
          {"channel_bins", FaultMap::kChannelBins},
          {"cells", cells},
          {"vector_lanes", m.vector_lanes},
          {"by_lane", lanes},
          {"by_part", parts}};
}

}  // namespace bng::cert
