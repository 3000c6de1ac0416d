#include "service/metrics/exposition_points.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <utility>

namespace allot {
namespace {

// Reads `key="value"` pairs from `line` at `pos` up to the closing '}'.
std::optional<MetricLabels> read_exposition_labels(std::string_view line, size_t& pos) {
  MetricLabels labels;
  while (pos < line.size() && line[pos] != '}') {
    const size_t eq = line.find('=', pos);
    if (eq == std::string_view::npos || eq + 1 >= line.size() || line[eq + 1] != '"') {
      return std::nullopt;
    }
    std::string key(line.substr(pos, eq - pos));
    std::string value;
    size_t i = eq + 2;
    for (; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        ++i;
        value += line[i] == 'n' ? '\n' : line[i];
      } else {
        value += line[i];
      }
    }
    if (i >= line.size()) return std::nullopt;
    labels.emplace_back(std::move(key), std::move(value));
    pos = i + 1;
    if (pos < line.size() && line[pos] == ',') ++pos;
  }
  if (pos >= line.size()) return std::nullopt;
  ++pos;  // '}'
  std::sort(labels.begin(), labels.end());
  return labels;
}

std::optional<MetricPoint> read_exposition_line(std::string_view line,
                                                const std::set<std::string, std::less<>>& names) {
  const size_t name_end = line.find_first_of("{ ");
  if (name_end == std::string_view::npos) return std::nullopt;
  const std::string_view name = line.substr(0, name_end);
  if (!names.empty() && !names.contains(name)) return std::nullopt;
  MetricPoint point{std::string(name), {}, 0};
  size_t pos = name_end;
  if (line[pos] == '{') {
    ++pos;
    std::optional<MetricLabels> labels = read_exposition_labels(line, pos);
    if (!labels) return std::nullopt;
    point.labels = std::move(*labels);
  }
  while (pos < line.size() && line[pos] == ' ') ++pos;
  const std::string_view value = line.substr(pos, line.find(' ', pos) - pos);
  const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), point.value);
  if (ec != std::errc() || ptr != value.data() + value.size()) return std::nullopt;
  return point;
}

}  // namespace

std::vector<MetricPoint> exposition_points(std::string_view text,
                                           const std::set<std::string, std::less<>>& names) {
  std::vector<MetricPoint> points;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    if (std::optional<MetricPoint> point = read_exposition_line(line, names)) {
      points.push_back(std::move(*point));
    }
  }
  return points;
}

}  // namespace allot
