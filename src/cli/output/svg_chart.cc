#include "cli/output/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

#include "api/markup_escape.h"

namespace allot::cli {
namespace {

constexpr double kLeft = 64;    // room for y tick labels and the y label
constexpr double kRight = 40;   // room for the last x tick label
constexpr double kTop = 12;     // the title and legend are HTML, outside the svg
constexpr double kBottom = 44;  // x tick labels and the x label

std::string num(double value) {
  if (!std::isfinite(value)) {
    value = 0;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  return buffer;
}

std::string tick_label(double value) {
  char buffer[32];
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6) {
    std::snprintf(buffer, sizeof(buffer), "%.0e", value);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%g", value);
  }
  return buffer;
}

// 1, 2 or 5 times a power of ten, near range / 5.
double nice_step(double range) {
  const double raw = range / 5.0;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 5.0}) {
    if (raw <= factor * power) {
      return factor * power;
    }
  }
  return 10.0 * power;
}

struct Axis {
  double min = 0;
  double max = 1;
  bool log = false;
  double pixel_from = 0;
  double pixel_to = 1;

  [[nodiscard]] double map(double value) const {
    const double v = log ? std::log10(value) : value;
    const double lo = log ? std::log10(min) : min;
    const double hi = log ? std::log10(max) : max;
    return pixel_from + (v - lo) / (hi - lo) * (pixel_to - pixel_from);
  }

  [[nodiscard]] std::vector<double> ticks() const {
    std::vector<double> values;
    if (log) {
      for (double v = std::pow(10.0, std::ceil(std::log10(min) - 1e-9)); v <= max * 1.0001;
           v *= 10) {
        values.push_back(v);
      }
      return values;
    }
    const double step = nice_step(max - min);
    for (double v = std::ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
      values.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
    }
    return values;
  }
};

double clamp_x(const ChartSpec& spec, double x) {
  return spec.log_x ? std::max(x, spec.log_x_floor) : x;
}

// The data's extent, widened so that a flat or empty chart still has axes.
std::pair<Axis, Axis> axes_of(const ChartSpec& spec) {
  double x_min = std::numeric_limits<double>::infinity();
  double x_max = -x_min;
  double y_max = spec.log_y ? 0.0 : spec.y_min;
  for (const ChartSeries& series : spec.series) {
    for (const auto& [x, y] : series.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) continue;
      x_min = std::min(x_min, clamp_x(spec, x));
      x_max = std::max(x_max, clamp_x(spec, x));
      y_max = std::max(y_max, y);
    }
  }
  if (!std::isfinite(x_min)) {
    x_min = spec.log_x ? spec.log_x_floor : 0;
    x_max = x_min;
  }
  if (x_max <= x_min) x_max = spec.log_x ? x_min * 10 : x_min + 1;
  if (spec.y_max > spec.y_min) y_max = spec.y_max;
  if (y_max <= spec.y_min) y_max = spec.log_y ? spec.y_min * 10 : spec.y_min + 1;
  Axis x{x_min, x_max, spec.log_x, kLeft, spec.width - kRight};
  if (!spec.log_x) x.max = std::ceil(x_max / nice_step(x_max - x_min)) * nice_step(x_max - x_min);
  Axis y{spec.y_min, y_max, spec.log_y, spec.height - kBottom, kTop};
  if (spec.log_y) {
    y.max = std::pow(10.0, std::ceil(std::log10(y_max) - 1e-9));
  } else if (spec.y_max <= spec.y_min)
    y.max = std::ceil(y_max / nice_step(y_max - y.min)) * nice_step(y_max - y.min);
  return {x, y};
}

std::string text(double x, double y, const std::string& anchor, const std::string& content,
                 const std::string& extra = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\"" + extra +
         ">" + escape_xml(content) + "</text>\n";
}

std::string grid_and_ticks(const ChartSpec& spec, const Axis& x, const Axis& y) {
  std::string out;
  for (const double v : x.ticks()) {
    const double px = x.map(v);
    out += "<line x1=\"" + num(px) + "\" y1=\"" + num(y.pixel_to) + "\" x2=\"" + num(px) +
           "\" y2=\"" + num(y.pixel_from) + "\" stroke=\"#e0e0e0\"/>\n";
    out += text(px, y.pixel_from + 16, "middle", tick_label(v));
  }
  for (const double v : y.ticks()) {
    const double py = y.map(v);
    out += "<line x1=\"" + num(x.pixel_from) + "\" y1=\"" + num(py) + "\" x2=\"" + num(x.pixel_to) +
           "\" y2=\"" + num(py) + "\" stroke=\"#e0e0e0\"/>\n";
    out += text(x.pixel_from - 6, py + 4, "end", tick_label(v));
  }
  out += "<rect x=\"" + num(x.pixel_from) + "\" y=\"" + num(y.pixel_to) + "\" width=\"" +
         num(x.pixel_to - x.pixel_from) + "\" height=\"" + num(y.pixel_from - y.pixel_to) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
  out += text((x.pixel_from + x.pixel_to) / 2, spec.height - 8, "middle", spec.x_label);
  const double mid_y = (y.pixel_from + y.pixel_to) / 2;
  out +=
      text(16, mid_y, "middle", spec.y_label, " transform=\"rotate(-90 16 " + num(mid_y) + ")\"");
  return out;
}

// Earlier series are drawn wider, so that a line hidden under a later one that
// coincides with it still shows at its edges.
std::string polyline(const ChartSpec& spec, size_t index, const Axis& x, const Axis& y) {
  const ChartSeries& series = spec.series[index];
  const double width =
      std::max(1.5, 1.5 + 1.0 * static_cast<double>(spec.series.size() - 1 - index));
  std::string points;
  for (const auto& [vx, vy] : series.points) {
    if (!std::isfinite(vx) || !std::isfinite(vy)) continue;
    const double clamped_y = std::clamp(vy, y.min, y.max);
    points += num(x.map(clamp_x(spec, vx))) + "," + num(y.map(clamped_y)) + " ";
  }
  return "<polyline data-series=\"" + escape_xml(series.name) + "\" fill=\"none\" stroke=\"" +
         escape_xml(series.color) + "\" stroke-width=\"" + num(series.dashed ? 1.5 : width) + "\"" +
         (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + points + "\"/>\n";
}

std::string legend(const std::vector<ChartSeries>& series) {
  std::string out = "<ul class=\"legend\">";
  for (const ChartSeries& line : series) {
    out += "<li data-series=\"" + escape_xml(line.name) +
           "\"><span class=\"swatch\" style=\"border-top-color:" + escape_xml(line.color) +
           (line.dashed ? ";border-top-style:dashed" : "") + "\"></span>" + escape_xml(line.name) +
           "</li>";
  }
  return out + "</ul>\n";
}

}  // namespace

std::vector<ChartSeries> merge_coinciding(const std::vector<ChartSeries>& series) {
  std::vector<ChartSeries> merged;
  for (const ChartSeries& line : series) {
    const auto same = std::find_if(merged.begin(), merged.end(), [&](const ChartSeries& kept) {
      return kept.dashed == line.dashed && kept.points == line.points;
    });
    if (same == merged.end()) {
      merged.push_back(line);
    } else {
      same->name += " = " + line.name;
    }
  }
  return merged;
}

std::string render_line_chart(const ChartSpec& given) {
  ChartSpec spec = given;
  spec.series = merge_coinciding(given.series);
  const auto [x, y] = axes_of(spec);
  std::string out = "<figure class=\"chart\" style=\"max-width:" + std::to_string(spec.width) +
                    "px\"><figcaption>" + escape_xml(spec.title) + "</figcaption>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + std::to_string(spec.width) +
         " " + std::to_string(spec.height) + "\" role=\"img\" aria-label=\"" +
         escape_xml(spec.title) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += grid_and_ticks(spec, x, y);
  for (size_t i = 0; i < spec.series.size(); ++i) {
    out += polyline(spec, i, x, y);
  }
  out += "</svg>\n" + legend(spec.series) + "</figure>\n";
  return out;
}

const char* chart_css() {
  return ".chart{display:inline-block;vertical-align:top;width:100%;margin:0 0 16px 0}"
         ".chart figcaption{font-weight:bold;margin-bottom:4px}"
         ".chart svg{display:block;width:100%;height:auto}"
         ".legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 18px;padding:0;margin:4px 0}"
         ".legend li{overflow-wrap:anywhere}"
         ".swatch{display:inline-block;width:22px;border-top:3px solid;vertical-align:middle;"
         "margin-right:6px}";
}

std::string chart_color(size_t index) {
  static constexpr std::array<const char*, 6> kPalette = {"#0072B2", "#D55E00", "#009E73",
                                                          "#CC79A7", "#E69F00", "#56B4E9"};
  return kPalette[index % kPalette.size()];
}

std::string escape_xml(const std::string& text) { return escape_markup(text); }

}  // namespace allot::cli
