#include "identity/credentials/login_throttle.h"

namespace allot::identity {

bool LoginThrottle::locked(const std::string& name, Timestamp now) const {
  const auto it = failures_.find(name);
  return it != failures_.end() && it->second.count >= max_failures_ &&
         now < it->second.last + lock_for_;
}

void LoginThrottle::record_failure(const std::string& name, Timestamp now) {
  Failures& failures = failures_[name];
  // A lock that ran out starts the count again.
  if (failures.count >= max_failures_ && now >= failures.last + lock_for_) failures.count = 0;
  ++failures.count;
  failures.last = now;
}

}  // namespace allot::identity
