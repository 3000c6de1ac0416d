#include "backends/slurm/node_list.h"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace allot::slurm {
namespace {

// The top-level comma-separated names (commas inside brackets are ranges).
std::optional<std::vector<std::string_view>> split_names(std::string_view text) {
  std::vector<std::string_view> names;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const char c = i < text.size() ? text[i] : ',';
    if (c == '[') ++depth;
    if (c == ']') --depth;
    if (depth < 0 || depth > 1) return std::nullopt;
    if (c == ',' && depth == 0) {
      if (i > from) names.push_back(text.substr(from, i - from));
      from = i + 1;
    }
  }
  if (depth != 0) return std::nullopt;
  return names;
}

std::optional<int64_t> number_of(std::string_view digits) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || error != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

std::string padded(int64_t value, size_t width) {
  std::string digits = std::to_string(value);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

// "1-3" or "7" within a bracket, appended as head+number+tail.
bool expand_range(std::string_view range, std::string_view head, std::string_view tail,
                  std::vector<std::string>& out) {
  const size_t dash = range.find('-');
  const std::string_view first = range.substr(0, dash);
  const std::string_view last = dash == std::string_view::npos ? first : range.substr(dash + 1);
  const auto from = number_of(first);
  const auto to = number_of(last);
  constexpr int64_t kMaxRange = 100'000;
  if (!from || !to || *to < *from || *to - *from > kMaxRange) return false;
  for (int64_t n = *from; n <= *to; ++n) {
    out.push_back(std::string(head) + padded(n, first.size()) + std::string(tail));
  }
  return true;
}

bool expand_name(std::string_view name, std::vector<std::string>& out) {
  const size_t open = name.find('[');
  if (open == std::string_view::npos) {
    if (name.find(']') != std::string_view::npos) return false;
    out.emplace_back(name);
    return true;
  }
  const size_t close = name.find(']', open);
  if (close == std::string_view::npos) return false;
  const std::string_view tail = name.substr(close + 1);
  if (tail.find_first_of("[]") != std::string_view::npos) return false;
  const std::string_view ranges = name.substr(open + 1, close - open - 1);
  size_t from = 0;
  for (size_t i = 0; i <= ranges.size(); ++i) {
    if (i < ranges.size() && ranges[i] != ',') continue;
    if (!expand_range(ranges.substr(from, i - from), name.substr(0, open), tail, out)) {
      return false;
    }
    from = i + 1;
  }
  return true;
}

}  // namespace

std::optional<std::vector<std::string>> expand_node_list(std::string_view text) {
  std::vector<std::string> nodes;
  if (text.empty() || text == "(null)") return nodes;
  const auto names = split_names(text);
  if (!names) return std::nullopt;
  for (const std::string_view name : *names) {
    if (!expand_name(name, nodes)) return std::nullopt;
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

std::string placed_elsewhere(const std::vector<std::string>& placed, std::string_view slurm_nodes) {
  const auto ran_on = expand_node_list(slurm_nodes);
  if (!ran_on || ran_on->empty()) return "";
  std::vector<std::string> ours = placed;
  std::sort(ours.begin(), ours.end());
  ours.erase(std::unique(ours.begin(), ours.end()), ours.end());
  if (ours == *ran_on) return "";
  std::string text;
  for (const std::string& node : ours) text += (text.empty() ? "" : ",") + node;
  return text;
}

}  // namespace allot::slurm
