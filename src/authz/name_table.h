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

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
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

  // find() of every name, calling found(index in `names`, id) for each that
  // is present, in order. Looks names up a chunk at a time, prefetching the
  // slots and then the names of the whole chunk before comparing any, so that
  // the cache misses of a caller's groups overlap instead of adding up.
  template <typename Found>
  void find_all(std::span<const std::string> names, Found&& found) const;

  [[nodiscard]] size_t size() const { return names_.size(); }
  [[nodiscard]] const std::string& name(uint32_t id) const { return names_[id]; }

 private:
  struct Slot {
    uint32_t tag = 0;
    uint32_t id = kNoId;  // kNoId: empty
  };

  static uint64_t hash(std::string_view name);
  [[nodiscard]] bool may_hold(uint64_t hashed) const {
    const size_t bit = filter_bit(hashed);
    return (filter_[bit / 64] & (uint64_t{1} << (bit % 64))) != 0;
  }
  // The first slot, from the hash's home on, that is empty or has its tag.
  [[nodiscard]] size_t first_candidate(uint64_t hashed) const;
  // find()'s probe from `slot` on (a slot first_candidate() gave).
  [[nodiscard]] uint32_t probe_from(size_t slot, uint64_t hashed, std::string_view name) const;
  void grow();
  void place(uint64_t hashed, uint32_t id);
  [[nodiscard]] size_t filter_bit(uint64_t hashed) const {
    return static_cast<size_t>(hashed >> 7) & (filter_.size() * 64 - 1);
  }

  std::vector<Slot> slots_;
  std::vector<uint64_t> filter_;    // 4 bits a slot: a set bit may be a name, a clear one is none
  std::vector<std::string> names_;  // by id
};

template <typename Found>
void NameTable::find_all(std::span<const std::string> names, Found&& found) const {
  if (slots_.empty()) return;
  constexpr size_t kChunk = 32;
  uint64_t hashes[kChunk];
  size_t indexes[kChunk];
  size_t candidates[kChunk];
  for (size_t base = 0; base < names.size(); base += kChunk) {
    const size_t end = std::min(names.size(), base + kChunk);
    size_t count = 0;
    for (size_t i = base; i < end; ++i) {
      const uint64_t hashed = hash(names[i]);
      if (!may_hold(hashed)) continue;
      __builtin_prefetch(&slots_[hashed & (slots_.size() - 1)]);
      hashes[count] = hashed;
      indexes[count++] = i;
    }
    for (size_t c = 0; c < count; ++c) {
      candidates[c] = first_candidate(hashes[c]);
      const uint32_t id = slots_[candidates[c]].id;
      if (id != kNoId) __builtin_prefetch(names_[id].data());
    }
    for (size_t c = 0; c < count; ++c) {
      const uint32_t id = probe_from(candidates[c], hashes[c], names[indexes[c]]);
      if (id != kNoId) found(indexes[c], id);
    }
  }
}

}  // namespace allot
