#include "server/oidc_pending_logins.h"

#include <algorithm>
#include <utility>

namespace allot::server {

void OidcPendingLogins::drop_expired(Timestamp now) {
  std::erase_if(by_state_, [&](const auto& item) { return now >= item.second.created + ttl_; });
}

void OidcPendingLogins::put(const std::string& state, OidcPendingLogin login, Timestamp now) {
  MutexLock lock(mu_);
  drop_expired(now);
  while (!by_state_.empty() && by_state_.size() >= capacity_) {
    const auto oldest = std::min_element(
        by_state_.begin(), by_state_.end(),
        [](const auto& a, const auto& b) { return a.second.created < b.second.created; });
    by_state_.erase(oldest);
  }
  by_state_[state] = Entry{std::move(login), now};
}

std::optional<OidcPendingLogin> OidcPendingLogins::take(const std::string& state, Timestamp now) {
  MutexLock lock(mu_);
  const auto found = by_state_.find(state);
  if (found == by_state_.end()) return std::nullopt;
  Entry entry = std::move(found->second);
  by_state_.erase(found);
  if (now >= entry.created + ttl_) return std::nullopt;
  return std::move(entry.login);
}

size_t OidcPendingLogins::size() const {
  MutexLock lock(mu_);
  return by_state_.size();
}

}  // namespace allot::server
