#include "svg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "render_common.hpp"

namespace bng::cert {

using nlohmann::json;

namespace {

constexpr double kWidth = 560, kHeight = 300;
constexpr double kLeft = 64, kRight = 16, kTop = 28, kBottom = 44;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

std::string open_svg(const std::string& title, const std::string& cls) {
  return fmt::format(
      "<svg class=\"{}\" role=\"img\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\">"
      "<title>{}</title><rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#fff\"/>"
      "<text x=\"{}\" y=\"18\" class=\"t\">{}</text>",
      cls, kWidth, kHeight, kWidth, kHeight, html_escape(title), kWidth, kHeight, kLeft,
      html_escape(title));
}

std::string frame() {
  return fmt::format(
      "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>", kLeft,
      kTop, kPlotW, kPlotH);
}

std::string pow2_label(int k) {
  return k == 0 ? "1" : fmt::format("2^{}", k);
}

// Tick spacing in binades for a span, so that at most ~8 labels show.
int tick_step(int span) {
  for (int s : {1, 2, 4, 5, 8, 10, 16, 20, 32, 64}) {
    if (span / s <= 8) return s;
  }
  return 128;
}

// The histogram's columns: "0" (no error), each binade [2^k, 2^(k+1)) present, "inf".
struct Column {
  std::string label, tip;
  std::int64_t count;
  int k;
};

// The columns, and how many binades each groups.
std::vector<Column> histogram_columns(const json& h, int& group) {
  std::vector<Column> cols;
  cols.push_back({"0", "no error", h["zero"].get<std::int64_t>(), std::numeric_limits<int>::min()});
  // Errors below 2^-8 ulp are as good as none: one column. Above, binades are
  // grouped so that at most ~56 columns remain however wide the range.
  constexpr int kLowest = -8;
  std::int64_t tiny = 0;
  int hi = 0;
  for (const auto& b : h["bins"]) {
    const int k = b["log2_lo"].get<int>();
    if (k < kLowest) tiny += b["count"].get<std::int64_t>();
    hi = std::max(hi, k);
  }
  cols.push_back({"<2^-8", "below 2^-8 ulp", tiny, kLowest - 1});
  group = std::max(1, (hi - kLowest + 1 + 55) / 56);
  for (int k = kLowest; k <= hi; k += group) {
    std::int64_t n = 0;
    for (const auto& b : h["bins"]) {
      const int bk = b["log2_lo"].get<int>();
      if (bk >= k && bk < k + group) n += b["count"].get<std::int64_t>();
    }
    cols.push_back(
        {pow2_label(k), fmt::format("[{}, {}) ulp", pow2_label(k), pow2_label(k + group)), n, k});
  }
  cols.push_back({"inf", "infinite (non-finite y for a finite y*)",
                  h["infinite"].get<std::int64_t>(), std::numeric_limits<int>::max()});
  return cols;
}

// The bars, their labels and the line at 1 ulp; counts on a log scale up to 10^top.
std::string histogram_bars(const std::vector<Column>& cols, int group, double top) {
  const double bar_w = kPlotW / static_cast<double>(cols.size());
  std::string svg;
  const int step = tick_step(static_cast<int>(cols.size())) * group;
  for (std::size_t i = 0; i < cols.size(); ++i) {
    const Column& c = cols[i];
    const double x = kLeft + bar_w * static_cast<double>(i);
    const double hgt = kPlotH * std::log10(static_cast<double>(c.count) + 1) / std::max(top, 1.0);
    const bool beyond = c.k != std::numeric_limits<int>::min() && c.k >= 0;  // at least 1 ulp
    svg += fmt::format(
        "<rect class=\"bar{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
        "height=\"{:.1f}\"><title>{}: {}</title></rect>",
        beyond ? " over" : "", x + 1, kTop + kPlotH - hgt, std::max(bar_w - 2, 1.0), hgt,
        html_escape(c.tip), show_count(c.count));
    // Edge columns always; binades on the tick step, clear of the edge labels.
    const bool inner = i >= 3 && i + 3 < cols.size();
    const bool label = i == 0 || i + 1 == cols.size() || (inner && c.k % step == 0);
    if (label) {
      svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"xl\">{}</text>", x + bar_w / 2,
                         kTop + kPlotH + 16, html_escape(c.label));
    }
    if (c.k == 0) {
      svg += fmt::format(
          "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" class=\"bound\"/>"
          "<text x=\"{3:.1f}\" y=\"{4:.1f}\" class=\"bl\">1 ulp</text>",
          x, kTop, kTop + kPlotH, x + 3, kTop + 12);
    }
  }
  return svg;
}

// The scatter's plot area: binades of κ (x) and of normalised error (y), with
// a strip for κ = ∞ on the right and error = ∞ on top when any cell is there.
constexpr double kEdge = 14;
struct ScatterAxes {
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;  // log2 κ, log2 error
  double pw = 0, ph = 0, py0 = 0;
  bool inf_kappa = false, inf_err = false;
  std::int64_t max_count = 1;  // of a cell, passing and failing
  double X(double lk) const { return kLeft + (lk - x_lo) / (x_hi - x_lo) * pw; }
  double Y(double le) const { return py0 + ph - (le - y_lo) / (y_hi - y_lo) * ph; }
};

ScatterAxes scatter_axes(const json& d, int per, int inf_cell, double log_floor) {
  // Axis ranges in binades: κ from 1 (= 2^0) to the largest finite κ seen (at
  // least 2^8); error from the smallest seen to the largest seen or the bound.
  int kx_max = 8 * per, ky_min = (static_cast<int>(std::floor(log_floor)) - 4) * per,
      ky_max = 2 * per;
  ScatterAxes a;
  for (const auto& c : d["cells"]) {
    const int kx = c[0].get<int>(), ky = c[1].get<int>();
    a.max_count = std::max(a.max_count, c[2].get<std::int64_t>() + c[3].get<std::int64_t>());
    if (kx == inf_cell)
      a.inf_kappa = true;
    else
      kx_max = std::max(kx_max, kx + 1);
    if (ky == inf_cell)
      a.inf_err = true;
    else {
      ky_min = std::min(ky_min, ky);
      ky_max = std::max(ky_max, ky + 1);
    }
  }
  a.x_lo = 0;
  a.x_hi = static_cast<double>(kx_max) / per;  // log2 κ
  a.y_lo = std::floor(static_cast<double>(ky_min) / per);
  a.y_hi = std::ceil(static_cast<double>(ky_max) / per);
  a.pw = kPlotW - (a.inf_kappa ? kEdge : 0);
  a.ph = kPlotH - (a.inf_err ? kEdge : 0);
  a.py0 = kTop + (a.inf_err ? kEdge : 0);
  return a;
}

// Grid lines and labels in binades, and ∞ on each axis that has the strip.
std::string scatter_grid(const ScatterAxes& a) {
  std::string svg;
  const int xs = tick_step(static_cast<int>(a.x_hi - a.x_lo));
  for (int k = 0; k <= static_cast<int>(a.x_hi); k += xs) {
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" class=\"grid\"/>"
        "<text x=\"{0:.1f}\" y=\"{3:.1f}\" class=\"xl\">{4}</text>",
        a.X(k), a.py0, a.py0 + a.ph, kTop + kPlotH + 16, pow2_label(k));
  }
  const int ys = tick_step(static_cast<int>(a.y_hi - a.y_lo));
  for (int k = static_cast<int>(std::ceil(a.y_lo / ys) * ys); k <= static_cast<int>(a.y_hi);
       k += ys) {
    svg += fmt::format(
        "<line x1=\"{1:.1f}\" y1=\"{0:.1f}\" x2=\"{2:.1f}\" y2=\"{0:.1f}\" class=\"grid\"/>"
        "<text x=\"{3:.1f}\" y=\"{4:.1f}\" class=\"yl\">{5}</text>",
        a.Y(k), kLeft, kLeft + a.pw, kLeft - 4, a.Y(k) + 4, pow2_label(k));
  }
  if (a.inf_kappa) {
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"xl\">∞</text>",
                       kLeft + kPlotW - kEdge / 2, kTop + kPlotH + 16);
  }
  if (a.inf_err)
    svg +=
        fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"yl\">∞</text>", kLeft - 4, kTop + 11);
  return svg;
}

// The declared bound in normalised units: |y - y*| ≤ ulp(y*) + α·M becomes
// e ≤ α/u + ulp(y*)/(u·M), and ulp(y*)/u lies in (|y*|, 2|y*|] for normal
// y*, so the bound of a point at κ lies between α/u + 1/κ and α/u + 2/κ.
std::string bound_curve(const ScatterAxes& a, double alpha_over_u, double factor, bool reverse) {
  std::string pts;
  const int steps = 120;
  for (int i = 0; i <= steps; ++i) {
    const int j = reverse ? steps - i : i;
    const double lk = a.x_lo + (a.x_hi - a.x_lo) * j / steps;
    const double e = std::log2(alpha_over_u + factor * std::exp2(-lk));
    pts += fmt::format("{:.1f},{:.1f} ", a.X(lk), a.Y(std::clamp(e, a.y_lo, a.y_hi)));
  }
  return pts;
}

std::string scatter_bound(const ScatterAxes& a, double alpha_over_u, double log_floor) {
  std::string svg;
  svg += fmt::format(
      "<polygon class=\"band\" points=\"{}{}\"><title>declared bound: between α/u + 1/κ and α/u + "
      "2/κ "
      "depending on where y* sits in its binade</title></polygon>",
      bound_curve(a, alpha_over_u, 1, false), bound_curve(a, alpha_over_u, 2, true));
  svg += fmt::format("<polyline class=\"bound\" fill=\"none\" points=\"{}\"/>",
                     bound_curve(a, alpha_over_u, 2, false));
  svg +=
      fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"bl\">bound α/u + 2/κ (α/u = {})</text>",
                  a.X(a.x_hi) - 4, a.Y(std::log2(alpha_over_u)) - 5,
                  pow2_label(static_cast<int>(std::lround(log_floor))));
  return svg;
}

// One rectangle per density cell, shaded by its count; failing cells in red.
std::string scatter_cells(const ScatterAxes& a, const json& d, int per, int inf_cell) {
  const double cw = a.pw / ((a.x_hi - a.x_lo) * per), ch = a.ph / ((a.y_hi - a.y_lo) * per);
  std::string svg;
  for (const auto& c : d["cells"]) {
    const int kx = c[0].get<int>(), ky = c[1].get<int>();
    const std::int64_t pass = c[2].get<std::int64_t>(), fail = c[3].get<std::int64_t>();
    const double x =
        kx == inf_cell ? kLeft + kPlotW - kEdge + 2 : a.X(static_cast<double>(kx) / per);
    const double y = ky == inf_cell ? kTop + 2 : a.Y(static_cast<double>(ky + 1) / per);
    const double w = kx == inf_cell ? kEdge - 4 : std::max(cw, 1.5);
    const double hh = ky == inf_cell ? kEdge - 4 : std::max(ch, 1.5);
    const double shade = 0.3 + 0.7 * std::log1p(static_cast<double>(pass + fail)) /
                                   std::log1p(static_cast<double>(a.max_count));
    svg += fmt::format(
        "<rect class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
        "fill-opacity=\"{:.2f}\"><title>{} passing, {} failing</title></rect>",
        fail ? "cell fail" : "cell", x, y, w, hh, fail ? 1.0 : shade, show_count(pass),
        show_count(fail));
  }
  return svg;
}

}  // namespace

std::string html_escape(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out.push_back(ch);
    }
  }
  return out;
}

std::string svg_histogram(const json& output, const std::string& title) {
  const json& h = output["histogram"];
  int group = 1;
  const std::vector<Column> cols = histogram_columns(h, group);
  std::int64_t max_count = 1;
  for (const auto& c : cols) max_count = std::max(max_count, c.count);
  const double top = std::log10(static_cast<double>(max_count) + 1);
  std::string svg = open_svg(title, "histogram");
  // Log count axis: decades.
  for (int d = 0; d <= static_cast<int>(std::ceil(top)); ++d) {
    const double y =
        kTop + kPlotH - kPlotH * std::log10(std::pow(10.0, d) + 1) / std::max(top, 1.0);
    if (y < kTop - 0.5) break;
    svg += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" class=\"grid\"/>"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"yl\">{}</text>",
        kLeft, y, kLeft + kPlotW, y, kLeft - 4, y + 4,
        show_count(static_cast<std::int64_t>(std::pow(10.0, d))));
  }
  svg += histogram_bars(cols, group, top);
  svg += frame();
  svg += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"axis\">ULP error |y − y*| / ulp(y*) (bins [2^k, "
      "2^(k+1)))</text>",
      kLeft + kPlotW / 2, kHeight - 8);
  svg += fmt::format(
      "<text transform=\"translate(14 {:.1f}) rotate(-90)\" class=\"axis\">outputs (log)</text>",
      kTop + kPlotH / 2);
  return svg + "</svg>";
}

std::string svg_scatter(const json& output, const std::string& title) {
  const json& d = output["density"];
  const int per = d["cells_per_binade"].get<int>();
  const int inf_cell = d["infinite_cell"].get<int>();
  const double alpha_over_u = output["alpha_over_u"].get<double>();
  const double log_floor = std::log2(alpha_over_u);
  const ScatterAxes a = scatter_axes(d, per, inf_cell, log_floor);
  std::string svg = open_svg(title, "scatter");
  svg += scatter_grid(a);
  svg += scatter_bound(a, alpha_over_u, log_floor);
  svg += scatter_cells(a, d, per, inf_cell);
  svg += frame();
  svg +=
      fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" class=\"axis\">cancellation κ = M / |y*|</text>",
                  kLeft + kPlotW / 2, kHeight - 8);
  svg += fmt::format(
      "<text transform=\"translate(14 {:.1f}) rotate(-90)\" class=\"axis\">normalised error |y − "
      "y*| / (u·M)</text>",
      kTop + kPlotH / 2);
  return svg + "</svg>";
}

}  // namespace bng::cert
