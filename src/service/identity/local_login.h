// LocalLogin: the local identity provider for single-machine installs
// (issue 11): a SCIM User's password (Okta's password sync, or any SCIM
// client that sends one) checked against its stored Argon2id hash, with
// lockout after repeated failures.
//
// Contract: as PasswordLogin (password_login.h). Only active Users with a
// stored password may log in. An unknown name costs the same Argon2id work
// as a known one (it is checked against a hash of nothing anyone knows), and
// every refusal but the lockout reads the same, so neither the answer nor
// its time says whether a user exists. Lockout (identity/credentials/
// login_throttle.h): `max_failures` failures of one name (lower-cased, known
// or not) lock it for `lock_for` from the last one, on the injected clock;
// a locked name is refused before its password is checked. A success clears
// the name's failures. At most `max_concurrent_checks` Argon2id checks run at
// once (each takes 64 MiB and ~0.1 s, and the login needs no credential);
// others wait their turn. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <semaphore>
#include <string>
#include <string_view>

#include "base/clock.h"
#include "identity/credentials/login_throttle.h"
#include "service/identity/password_login.h"
#include "service/identity/scim_service.h"

namespace allot {

struct LocalLoginOptions {
  int32_t max_failures = 5;
  Duration lock_for = Duration::minutes(15);
  int32_t max_concurrent_checks = 4;  // 1..kMaxConcurrentChecks
};

inline constexpr std::ptrdiff_t kMaxConcurrentChecks = 64;

class LocalLogin final : public PasswordLogin {
 public:
  // REQUIRES: `directory` and `clock` outlive it.
  LocalLogin(const ScimService& directory, const Clock& clock, LocalLoginOptions options = {});

  Result<std::string> verify(std::string_view user_name, std::string_view password) override;

 private:
  // A hash no password is known for, made on first use (Argon2id is slow).
  const std::string& decoy_hash();

  const ScimService& directory_;
  const Clock& clock_;
  LocalLoginOptions options_;
  std::mutex mutex_;
  identity::LoginThrottle throttle_;  // guarded by mutex_
  std::counting_semaphore<kMaxConcurrentChecks> check_slots_;
  std::once_flag decoy_once_;
  std::string decoy_hash_;
};

}  // namespace allot
