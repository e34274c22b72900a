// The fault map of a report.json "faults" entry (judging/fault_map.hpp
// computes it) as inline SVG: the map of the tensor and both tallies.
#include <algorithm>
#include <cstdint>

#include <fmt/format.h>

#include "fault_map.hpp"
#include "svg.hpp"

namespace bng::cert {

using nlohmann::json;

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
