// NameTable: names to dense ids, looked up by string_view without building a
// std::string (the authorizer's hot path looks up a caller's fifty groups).
//
// Contract: a std::unordered_map with a transparent hash; not thread-safe for
// writes, safe for concurrent reads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace allot {

struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view name) const noexcept {
    return std::hash<std::string_view>()(name);
  }
};

using NameTable = std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>>;

// The id of `name`, or kNoId.
inline constexpr uint32_t kNoId = UINT32_MAX;
inline uint32_t find_id(const NameTable& table, std::string_view name) {
  const auto found = table.find(name);
  return found == table.end() ? kNoId : found->second;
}

// The id of `name`, adding it as table.size() when new.
inline uint32_t intern(NameTable& table, std::string_view name) {
  return table.try_emplace(std::string(name), static_cast<uint32_t>(table.size())).first->second;
}

}  // namespace allot
