// NameTable: names to dense ids (0, 1, 2, ... in the order first added), the
// interning behind the Authorizer's index.
//
// Contract: a value; not thread-safe for writes (intern), safe for
// concurrent reads (find). Open addressing over a power-of-two array of
// 8-byte slots (a 32-bit hash tag and the id), at most half full: a lookup
// reads one or two adjacent slots and compares the name itself only when a
// tag matches. The Authorizer looks up each of a caller's fifty groups, most
// of which no binding names: a miss costs a hash and, nine times in ten, one
// bit of a small filter (8 bits a name, one hash: a Bloom filter) that stays
// in the first-level cache, where a slot read would not.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace allot {

inline constexpr uint32_t kNoId = UINT32_MAX;

class NameTable {
 public:
  // The id of `name`, adding it (as size()) when new.
  uint32_t intern(std::string_view name);
  // The id of `name`, or kNoId.
  [[nodiscard]] uint32_t find(std::string_view name) const;

  [[nodiscard]] size_t size() const { return names_.size(); }
  [[nodiscard]] const std::string& name(uint32_t id) const { return names_[id]; }

 private:
  struct Slot {
    uint32_t tag = 0;
    uint32_t id = kNoId;  // kNoId: empty
  };

  static uint64_t hash(std::string_view name);
  void grow();
  void place(uint64_t hashed, uint32_t id);
  [[nodiscard]] size_t filter_bit(uint64_t hashed) const {
    return static_cast<size_t>(hashed >> 7) & (filter_.size() * 64 - 1);
  }

  std::vector<Slot> slots_;
  std::vector<uint64_t> filter_;    // 4 bits a slot: a set bit may be a name, a clear one is none
  std::vector<std::string> names_;  // by id
};

}  // namespace allot
