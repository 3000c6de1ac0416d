#include "service/control/live_workload.h"

#include <utility>

namespace allot {

LiveWorkload* WorkloadTable::find(uint64_t uid) {
  auto it = by_uid_.find(uid);
  return it == by_uid_.end() ? nullptr : &it->second;
}

const LiveWorkload* WorkloadTable::find(uint64_t uid) const {
  auto it = by_uid_.find(uid);
  return it == by_uid_.end() ? nullptr : &it->second;
}

LiveWorkload* WorkloadTable::find(const std::string& ns, const std::string& name) {
  auto it = by_key_.find(ns + "/" + name);
  return it == by_key_.end() ? nullptr : find(it->second);
}

const LiveWorkload* WorkloadTable::find(const std::string& ns, const std::string& name) const {
  auto it = by_key_.find(ns + "/" + name);
  return it == by_key_.end() ? nullptr : find(it->second);
}

bool WorkloadTable::name_taken(const std::string& key) const {
  return by_key_.contains(key) || reserved_.contains(key);
}

bool WorkloadTable::reserve_name(const std::string& key) {
  if (name_taken(key)) return false;
  reserved_.insert(key);
  return true;
}

void WorkloadTable::release_name(const std::string& key) { reserved_.erase(key); }

void WorkloadTable::insert(LiveWorkload workload) {
  const uint64_t uid = workload.uid();
  by_key_[workload.key()] = uid;
  // Uids grow: a new workload goes last, and the hint makes that O(1).
  auto it = by_uid_.insert_or_assign(by_uid_.end(), uid, std::move(workload));
  if (is_final(it->second.phase())) {
    active_.erase(uid);
  } else {
    active_.insert_or_assign(active_.end(), uid, &it->second);
  }
}

void WorkloadTable::prune_finished() {
  std::erase_if(active_, [](const auto& entry) { return is_final(entry.second->phase()); });
}

void WorkloadTable::erase(uint64_t uid) {
  auto it = by_uid_.find(uid);
  if (it == by_uid_.end()) return;
  by_key_.erase(it->second.key());
  active_.erase(uid);
  by_uid_.erase(it);
}

}  // namespace allot
