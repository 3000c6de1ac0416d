#include "cli/client/json_fields.h"

#include <charconv>

namespace allot::cli {

const nlohmann::json* find_at(const nlohmann::json& value,
                              std::initializer_list<std::string_view> path) {
  const nlohmann::json* current = &value;
  for (std::string_view key : path) {
    if (!current->is_object()) return nullptr;
    const auto it = current->find(key);
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

std::string scalar_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_null()) return {};
  return value.dump();
}

std::string text_at(const nlohmann::json& value, std::initializer_list<std::string_view> path) {
  const nlohmann::json* found = find_at(value, path);
  return found == nullptr ? std::string() : scalar_text(*found);
}

std::optional<int64_t> integer_of(const nlohmann::json& value) {
  if (value.is_number_integer()) return value.get<int64_t>();
  if (value.is_number_float()) {
    const auto number = value.get<double>();
    const auto whole = static_cast<int64_t>(number);
    if (static_cast<double>(whole) == number) return whole;
    return std::nullopt;
  }
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  int64_t parsed = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, parsed);
  if (error != std::errc() || stop != end || text.empty()) return std::nullopt;
  return parsed;
}

const nlohmann::json& array_at(const nlohmann::json& value, std::string_view key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const nlohmann::json* found = find_at(value, {key});
  return found != nullptr && found->is_array() ? *found : kEmpty;
}

}  // namespace allot::cli
