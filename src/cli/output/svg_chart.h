// SvgChart: a line chart rendered as an inline <svg> element, for the HTML
// report of `allot simulate --trace --report`.
//
// Why hand-written: the report must be one self-contained file (no scripts or
// assets fetched at view time), and no C++ charting library is packaged in
// Debian; a line chart with axes, ticks and a legend is a few hundred lines.
//
// Contract: pure function of the spec; the output is an <svg> element with
// no external references. Points with non-finite coordinates, and on a log
// axis points at or below `log_x_floor` (clamped to it), never produce NaN in
// the output. Series are drawn in order; a dashed series is drawn dashed.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace allot::cli {

struct ChartSeries {
  std::string name;
  std::string color;                              // CSS colour
  std::vector<std::pair<double, double>> points;  // (x, y), x ascending
  bool dashed = false;
};

struct ChartSpec {
  std::string title;
  std::string x_label;
  std::string y_label;
  bool log_x = false;
  double log_x_floor = 1.0;  // smallest x shown on a log axis
  double y_min = 0.0;
  double y_max = 0.0;  // <= y_min: from the data
  int width = 560;
  int height = 300;
  std::vector<ChartSeries> series;
};

std::string render_line_chart(const ChartSpec& spec);

// Colour of the i-th series (a colour-blind-safe palette, cycled).
std::string chart_color(size_t index);

// Text with &, <, >, " and ' escaped for HTML and SVG.
std::string escape_xml(const std::string& text);

}  // namespace allot::cli
