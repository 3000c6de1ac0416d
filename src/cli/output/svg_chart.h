// SvgChart: a line chart rendered as an inline <svg> element, for the HTML
// report of `allot simulate --trace --report`.
//
// Why hand-written: the report must be one self-contained file (no scripts or
// assets fetched at view time), and no C++ charting library is packaged in
// Debian; a line chart with axes, ticks and a legend is a few hundred lines.
//
// Contract: pure function of the spec. The output is a <figure class="chart">
// with no external references: a <figcaption> with the title, an <svg>
// (role="img", labelled by the title, scaled to its container's width through
// its viewBox, never wider than spec.width) and the legend as an HTML list
// (<ul class="legend">, one <li data-series="NAME"> per line drawn), which
// wraps instead of clipping. Series whose points and dash are identical are
// drawn once, as one line named "first = second" (the colour of the first):
// a policy never hides under another. Points with non-finite coordinates,
// and on a log axis points below the axis' floor (log_x_floor; y_min for a
// log y axis, which must then be > 0), are clamped or skipped, never NaN in
// the output. Series are drawn in order; a dashed series is drawn dashed.
// chart_css() is the style sheet a page holding charts must include.
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
  bool log_y = false;        // y on a log axis from y_min (> 0)
  double y_min = 0.0;
  double y_max = 0.0;  // <= y_min: from the data
  int width = 560;
  int height = 300;
  std::vector<ChartSeries> series;
};

std::string render_line_chart(const ChartSpec& spec);

// Series with identical points and dash merged into the first of them, its
// name "first = second"; order of first appearance kept.
std::vector<ChartSeries> merge_coinciding(const std::vector<ChartSeries>& series);

// The CSS of the charts' captions and legends.
const char* chart_css();

// Colour of the i-th series (a colour-blind-safe palette, cycled).
std::string chart_color(size_t index);

// Text with &, <, >, " and ' escaped for HTML and SVG.
std::string escape_xml(const std::string& text);

}  // namespace allot::cli
