#include "fault_map.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "bng/optimized/schedule.hpp"
#include "svg.hpp"

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

std::string svg_fault_map(const json& f, const std::string& title) {
  constexpr int kCell = 12, kLeft = 46, kTop = 30;
  const int rows = f.value("row_bins", FaultMap::kRowBins);
  const int cols = f.value("channel_bins", FaultMap::kChannelBins);
  const int lanes = std::max(1, f.value("vector_lanes", 1));
  const int map_w = cols * kCell, map_h = rows * kCell;
  const int bars_x = kLeft + map_w + 40, bar_w = std::max(4, 256 / lanes), bars_h = 90;
  const int width = bars_x + std::max(lanes * bar_w, 200) + 20;
  const int height = kTop + std::max(map_h, 2 * bars_h + 60) + 40;
  std::int64_t top = 1;
  for (const auto& row : f["cells"]) {
    for (const auto& v : row) top = std::max(top, v.get<std::int64_t>());
  }
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0} {1}\" width=\"{0}\" "
      "height=\"{1}\"><text class=\"t\" x=\"8\" y=\"18\">{2}</text>\n",
      width, height, html_escape(title));
  // The tensor: rows down, channels across; darker red = more failures.
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#f4f4f4\"/>\n", kLeft,
                   kTop, map_w, map_h);
  int r = 0;
  for (const auto& row : f["cells"]) {
    int c = 0;
    for (const auto& v : row) {
      const std::int64_t n = v.get<std::int64_t>();
      if (n > 0) {
        s += fmt::format(
            "<rect class=\"cell fail\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
            "fill-opacity=\"{:.2f}\"><title>rows {}/{}, channels {}/{} of each call: {} "
            "failures</title></rect>\n",
            kLeft + c * kCell, kTop + r * kCell, kCell, kCell,
            0.25 + 0.75 * static_cast<double>(n) / static_cast<double>(top), r, rows, c, cols, n);
      }
      ++c;
    }
    ++r;
  }
  s += fmt::format(
      "<text class=\"axis\" x=\"{}\" y=\"{}\">channel (relative) →</text>"
      "<text class=\"axis\" transform=\"translate(14,{}) rotate(-90)\">row (relative) →</text>\n",
      kLeft + map_w / 2, kTop + map_h + 16, kTop + map_h / 2);
  // Failures by lane and by part, as bars.
  const auto bars = [&](const json& list, const char* key, int n_bars, int y0,
                        const std::string& label) {
    std::int64_t most = 1;
    for (const auto& e : list) most = std::max(most, e["fails"].get<std::int64_t>());
    std::string b = fmt::format("<text class=\"axis\" x=\"{}\" y=\"{}\">{}</text>\n",
                                bars_x + n_bars * bar_w / 2, y0 + bars_h + 16, html_escape(label));
    b += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#999\"/>\n",
        bars_x, y0 + bars_h, bars_x + n_bars * bar_w);
    for (const auto& e : list) {
      const int k = e[key].get<int>();
      const std::int64_t n = e["fails"].get<std::int64_t>();
      const int h = static_cast<int>(static_cast<double>(bars_h) * static_cast<double>(n) /
                                     static_cast<double>(most));
      b += fmt::format(
          "<rect class=\"bar over\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} {}: {} "
          "failures</title></rect>\n",
          bars_x + std::min(k, n_bars - 1) * bar_w, y0 + bars_h - h, std::max(1, bar_w - 1), h, key,
          k, n);
    }
    return b;
  };
  s += bars(f["by_lane"], "lane", lanes, kTop, fmt::format("lane mod {} (vector width)", lanes));
  int parts = 1;
  for (const auto& e : f["by_part"]) parts = std::max(parts, e["part"].get<int>() + 1);
  s += bars(f["by_part"], "part", std::max(parts, 8), kTop + bars_h + 40,
            "part of the call (row band / core share)");
  s += "</svg>";
  return s;
}

}  // namespace bng::cert
