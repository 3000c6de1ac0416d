#include "identity/scim/scim_names.h"

#include <vector>

namespace allot::scim {
namespace {

char fold(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

}  // namespace

std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = fold(c);
  return out;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (fold(a[i]) != fold(b[i])) return false;
  }
  return true;
}

bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}

const nlohmann::json* find_member(const nlohmann::json& object, std::string_view name) {
  if (!object.is_object()) return nullptr;
  if (auto exact = object.find(std::string(name)); exact != object.end()) return &*exact;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (iequals(it.key(), name)) return &it.value();
  }
  return nullptr;
}

nlohmann::json* find_member(nlohmann::json& object, std::string_view name) {
  const nlohmann::json& as_const = object;
  return const_cast<nlohmann::json*>(find_member(as_const, name));  // NOLINT
}

void erase_member(nlohmann::json& object, std::string_view name) {
  if (!object.is_object()) return;
  std::vector<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (iequals(it.key(), name)) keys.push_back(it.key());
  }
  for (const std::string& key : keys) object.erase(key);
}

}  // namespace allot::scim
