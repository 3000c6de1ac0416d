#include "identity/credentials/login_throttle.h"

#include <algorithm>

namespace allot::identity {

bool LoginThrottle::locked(const std::string& name, Timestamp now) const {
  const auto it = failures_.find(name);
  return it != failures_.end() && it->second.count >= max_failures_ &&
         now < it->second.last + lock_for_;
}

void LoginThrottle::make_room(Timestamp now) {
  std::erase_if(failures_, [&](const auto& entry) { return now >= entry.second.last + lock_for_; });
  if (failures_.size() < max_names_) return;
  const auto oldest =
      std::min_element(failures_.begin(), failures_.end(),
                       [](const auto& a, const auto& b) { return a.second.last < b.second.last; });
  failures_.erase(oldest);
}

void LoginThrottle::record_failure(const std::string& name, Timestamp now) {
  if (failures_.size() >= max_names_ && !failures_.contains(name)) make_room(now);
  Failures& failures = failures_[name];
  // A lock that ran out starts the count again.
  if (failures.count >= max_failures_ && now >= failures.last + lock_for_) failures.count = 0;
  ++failures.count;
  failures.last = now;
}

}  // namespace allot::identity
