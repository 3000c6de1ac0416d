#include "api/json_diff.h"

#include <algorithm>
#include <set>

namespace allot {
namespace {

using nlohmann::json;

std::string show(const json* value) { return value ? value->dump() : "(absent)"; }

std::string join_path(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

void diff_into(const std::string& path, const json* before, const json* after,
               std::vector<std::string>& lines) {
  if (before && after && *before == *after) return;
  if (before && after && before->is_object() && after->is_object()) {
    std::set<std::string> keys;
    for (const auto& item : before->items()) keys.insert(item.key());
    for (const auto& item : after->items()) keys.insert(item.key());
    for (const std::string& key : keys) {
      const json* old_value = before->contains(key) ? &before->at(key) : nullptr;
      const json* new_value = after->contains(key) ? &after->at(key) : nullptr;
      diff_into(join_path(path, key), old_value, new_value, lines);
    }
    return;
  }
  if (before && after && before->is_array() && after->is_array()) {
    const size_t size = std::max(before->size(), after->size());
    for (size_t i = 0; i < size; ++i) {
      const json* old_value = i < before->size() ? &(*before)[i] : nullptr;
      const json* new_value = i < after->size() ? &(*after)[i] : nullptr;
      diff_into(path + "[" + std::to_string(i) + "]", old_value, new_value, lines);
    }
    return;
  }
  lines.push_back((path.empty() ? std::string("(root)") : path) + ": " + show(before) + " -> " +
                  show(after));
}

}  // namespace

std::vector<std::string> json_diff(const json& before, const json& after) {
  std::vector<std::string> lines;
  diff_into("", &before, &after, lines);
  return lines;
}

}  // namespace allot
