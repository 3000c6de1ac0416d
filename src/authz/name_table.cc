#include "authz/name_table.h"

#include <cstring>

namespace allot {
namespace {

uint64_t mix(uint64_t h, uint64_t word) {
  h = (h ^ word) * 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

}  // namespace

// Eight bytes at a time, inline: names are short (a group, a namespace), and
// a caller's fifty groups are hashed on every request.
uint64_t NameTable::hash(std::string_view name) {
  const char* data = name.data();
  const size_t size = name.size();
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ size;
  uint64_t word = 0;
  if (size >= 8) {
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::memcpy(&word, data + i, 8);
      h = mix(h, word);
    }
    if (i < size) {  // the last eight bytes, overlapping the words before
      std::memcpy(&word, data + size - 8, 8);
      h = mix(h, word);
    }
  } else {
    for (size_t i = 0; i < size; ++i) word = (word << 8) | static_cast<unsigned char>(data[i]);
    h = mix(h, word);
  }
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 32);
}

uint32_t NameTable::find(std::string_view name) const {
  if (slots_.empty()) return kNoId;
  const uint64_t hashed = hash(name);
  if (!may_hold(hashed)) return kNoId;
  return probe_from(first_candidate(hashed), hashed, name);
}

size_t NameTable::first_candidate(uint64_t hashed) const {
  const auto tag = static_cast<uint32_t>(hashed >> 32);
  const size_t mask = slots_.size() - 1;
  size_t i = hashed & mask;
  while (slots_[i].id != kNoId && slots_[i].tag != tag) i = (i + 1) & mask;
  return i;
}

uint32_t NameTable::probe_from(size_t slot, uint64_t hashed, std::string_view name) const {
  const auto tag = static_cast<uint32_t>(hashed >> 32);
  const size_t mask = slots_.size() - 1;
  for (size_t i = slot;; i = (i + 1) & mask) {
    const Slot& candidate = slots_[i];
    if (candidate.id == kNoId) return kNoId;
    if (candidate.tag == tag && names_[candidate.id] == name) return candidate.id;
  }
}

uint32_t NameTable::intern(std::string_view name) {
  const uint32_t found = find(name);
  if (found != kNoId) return found;
  if (2 * (names_.size() + 1) > slots_.size()) grow();
  const auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(name);
  place(hash(name), id);
  return id;
}

void NameTable::place(uint64_t hashed, uint32_t id) {
  const size_t mask = slots_.size() - 1;
  size_t i = hashed & mask;
  while (slots_[i].id != kNoId) i = (i + 1) & mask;
  slots_[i] = {static_cast<uint32_t>(hashed >> 32), id};
  const size_t bit = filter_bit(hashed);
  filter_[bit / 64] |= uint64_t{1} << (bit % 64);
}

void NameTable::grow() {
  slots_.assign(slots_.empty() ? 16 : 2 * slots_.size(), Slot{});
  filter_.assign(slots_.size() / 16, 0);
  for (uint32_t id = 0; id < names_.size(); ++id) place(hash(names_[id]), id);
}

}  // namespace allot
