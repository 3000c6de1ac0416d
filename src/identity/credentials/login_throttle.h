// LoginThrottle: lockout after repeated failed logins of one user name
// (the local provider), so that a password cannot be guessed online.
//
// Contract: after `max_failures` failures in a row, the name is locked for
// `lock_for` from the last failure; a success clears its count. Names are
// compared as given (the caller lower-cases them). Pure: time is passed in.
// Thread-compatible (the caller holds its lock).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/time.h"

namespace allot::identity {

class LoginThrottle {
 public:
  explicit LoginThrottle(int32_t max_failures = 5, Duration lock_for = Duration::minutes(15))
      : max_failures_(max_failures), lock_for_(lock_for) {}

  [[nodiscard]] bool locked(const std::string& name, Timestamp now) const;
  void record_failure(const std::string& name, Timestamp now);
  void record_success(const std::string& name) { failures_.erase(name); }

 private:
  struct Failures {
    int32_t count = 0;
    Timestamp last;
  };
  int32_t max_failures_;
  Duration lock_for_;
  std::map<std::string, Failures> failures_;
};

}  // namespace allot::identity
