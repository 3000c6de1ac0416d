#include "cli/output/svg_chart.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>

namespace allot::cli {
namespace {

constexpr double kLeft = 64;    // room for y tick labels and the y label
constexpr double kRight = 40;   // room for the last x tick label
constexpr double kTop = 52;     // title and legend
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
      for (double v = std::pow(10.0, std::ceil(std::log10(min))); v <= max * 1.0001; v *= 10) {
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
  double y_max = spec.y_min;
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
  if (y_max <= spec.y_min) y_max = spec.y_min + 1;
  Axis x{x_min, x_max, spec.log_x, kLeft, spec.width - kRight};
  if (!spec.log_x) x.max = std::ceil(x_max / nice_step(x_max - x_min)) * nice_step(x_max - x_min);
  Axis y{spec.y_min, y_max, false, spec.height - kBottom, kTop};
  if (spec.y_max <= spec.y_min)
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
  return "<polyline fill=\"none\" stroke=\"" + escape_xml(series.color) + "\" stroke-width=\"" +
         num(series.dashed ? 1.5 : width) + "\"" +
         (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + points + "\"/>\n";
}

std::string legend(const ChartSpec& spec) {
  std::string out;
  double cursor = kLeft;
  for (const ChartSeries& series : spec.series) {
    out += "<line x1=\"" + num(cursor) + "\" y1=\"38\" x2=\"" + num(cursor + 22) +
           "\" y2=\"38\" stroke=\"" + escape_xml(series.color) + "\" stroke-width=\"2.5\"" +
           (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
    out += text(cursor + 27, 42, "start", series.name);
    cursor += 40 + 7.0 * static_cast<double>(series.name.size());
  }
  return out;
}

}  // namespace

std::string render_line_chart(const ChartSpec& spec) {
  const auto [x, y] = axes_of(spec);
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(spec.width) + "\" height=\"" + std::to_string(spec.height) +
                    "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  out += text(kLeft, 20, "start", spec.title, " font-size=\"14\" font-weight=\"bold\"");
  out += grid_and_ticks(spec, x, y);
  for (size_t i = 0; i < spec.series.size(); ++i) {
    out += polyline(spec, i, x, y);
  }
  out += legend(spec);
  out += "</svg>\n";
  return out;
}

std::string chart_color(size_t index) {
  static constexpr std::array<const char*, 6> kPalette = {"#0072B2", "#D55E00", "#009E73",
                                                          "#CC79A7", "#E69F00", "#56B4E9"};
  return kPalette[index % kPalette.size()];
}

std::string escape_xml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace allot::cli
