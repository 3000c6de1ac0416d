// LoginThrottle: lockout after repeated failed logins of one user name
// (the local provider), so that a password cannot be guessed online.
//
// Contract: after `max_failures` failures in a row, the name is locked for
// `lock_for` from the last failure; a success clears its count. Names are
// compared as given (the caller lower-cases them). Pure: time is passed in.
// Bounded: guessed names cannot grow it without end. At `max_names` names,
// those whose last failure is older than `lock_for` (no lock, a stale count)
// are forgotten; if every name is still fresh, the one failed longest ago is.
// Thread-compatible (the caller holds its lock).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/time.h"

namespace allot::identity {

class LoginThrottle {
 public:
  explicit LoginThrottle(int32_t max_failures = 5, Duration lock_for = Duration::minutes(15),
                         size_t max_names = 100'000)
      : max_failures_(max_failures), lock_for_(lock_for), max_names_(max_names) {}

  [[nodiscard]] size_t names() const { return failures_.size(); }
  [[nodiscard]] bool locked(const std::string& name, Timestamp now) const;
  void record_failure(const std::string& name, Timestamp now);
  void record_success(const std::string& name) { failures_.erase(name); }

 private:
  struct Failures {
    int32_t count = 0;
    Timestamp last;
  };
  void make_room(Timestamp now);

  int32_t max_failures_;
  Duration lock_for_;
  size_t max_names_;
  std::map<std::string, Failures> failures_;
};

}  // namespace allot::identity
