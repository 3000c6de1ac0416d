#include "model/workload_sort.h"

#include <array>
#include <charconv>
#include <optional>
#include <utility>

namespace allot {
namespace {

constexpr std::array<std::pair<std::string_view, WorkloadSortKey>, 6> kWorkloadSortKeyNames{{
    {"age", WorkloadSortKey::kAge},
    {"name", WorkloadSortKey::kName},
    {"namespace", WorkloadSortKey::kNamespace},
    {"phase", WorkloadSortKey::kPhase},
    {"priority", WorkloadSortKey::kPriority},
    {"user", WorkloadSortKey::kUser},
}};

constexpr std::string_view kWorkloadSortHexDigits = "0123456789abcdef";

std::string workload_sort_hex(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 2);
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    out.push_back(kWorkloadSortHexDigits[byte >> 4U]);
    out.push_back(kWorkloadSortHexDigits[byte & 0xFU]);
  }
  return out;
}

std::optional<std::string> workload_sort_unhex(std::string_view hex) {
  if (hex.size() % 2 != 0) return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    const size_t high = kWorkloadSortHexDigits.find(hex[i]);
    const size_t low = kWorkloadSortHexDigits.find(hex[i + 1]);
    if (high == std::string_view::npos || low == std::string_view::npos) return std::nullopt;
    out.push_back(static_cast<char>((high << 4U) | low));
  }
  return out;
}

template <typename Number>
bool workload_sort_number(std::string_view text, Number& out) {
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && ec == std::errc() && ptr == end;
}

Status bad_workload_cursor(WorkloadSort sort) {
  return invalid_argument("the continue token is not one of sort=" + workload_sort_name(sort) +
                              " (a token carries the sort of the page it came from)",
                          "continue");
}

}  // namespace

Result<WorkloadSort> parse_workload_sort(std::string_view text) {
  WorkloadSort sort;
  if (text.empty()) return sort;
  std::string_view key = text;
  if (key.starts_with('-')) {
    sort.descending = true;
    key.remove_prefix(1);
  }
  for (const auto& [name, value] : kWorkloadSortKeyNames) {
    if (name == key) {
      sort.key = value;
      return sort;
    }
  }
  return invalid_argument("unknown sort '" + std::string(text) + "'; sort is one of " +
                              std::string(kWorkloadSortValues),
                          "sort");
}

std::string workload_sort_name(WorkloadSort sort) {
  for (const auto& [name, value] : kWorkloadSortKeyNames) {
    if (value == sort.key) return (sort.descending ? "-" : "") + std::string(name);
  }
  return "age";
}

std::string encode_workload_cursor(WorkloadSort sort, const WorkloadCursor& cursor) {
  if (sort.is_default()) return std::to_string(cursor.uid);
  return workload_sort_name(sort) + "." + std::to_string(cursor.value.number) + "." +
         workload_sort_hex(cursor.value.text) + "." + std::to_string(cursor.uid);
}

Result<WorkloadCursor> decode_workload_cursor(WorkloadSort sort, std::string_view token) {
  WorkloadCursor cursor;
  if (sort.is_default()) {
    if (!workload_sort_number(token, cursor.uid)) return bad_workload_cursor(sort);
    return cursor;
  }
  const std::string prefix = workload_sort_name(sort) + ".";
  if (!token.starts_with(prefix)) return bad_workload_cursor(sort);
  token.remove_prefix(prefix.size());
  const size_t first = token.find('.');
  const size_t second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos) return bad_workload_cursor(sort);
  std::optional<std::string> text =
      workload_sort_unhex(token.substr(first + 1, second - first - 1));
  if (!text || !workload_sort_number(token.substr(0, first), cursor.value.number) ||
      !workload_sort_number(token.substr(second + 1), cursor.uid)) {
    return bad_workload_cursor(sort);
  }
  cursor.value.text = std::move(*text);
  return cursor;
}

}  // namespace allot
