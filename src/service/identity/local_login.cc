#include "service/identity/local_login.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "identity/credentials/password_hash.h"
#include "identity/credentials/secret_codec.h"
#include "identity/scim/scim_names.h"

namespace allot {
namespace {

Status refused() {
  return Status(ErrorCode::kUnauthenticated, "the user name or password is wrong");
}

}  // namespace

LocalLogin::LocalLogin(const ScimService& directory, const Clock& clock, LocalLoginOptions options)
    : directory_(directory),
      clock_(clock),
      options_(options),
      throttle_(options.max_failures, options.lock_for),
      check_slots_(
          std::clamp<std::ptrdiff_t>(options.max_concurrent_checks, 1, kMaxConcurrentChecks)) {}

const std::string& LocalLogin::decoy_hash() {
  std::call_once(decoy_once_, [this] {
    const Result<std::string> hash =
        identity::hash_password(identity::base64url_encode(identity::random_bytes(32)));
    decoy_hash_ = hash.ok() ? *hash : std::string();
  });
  return decoy_hash_;
}

Result<std::string> LocalLogin::verify(std::string_view user_name, std::string_view password) {
  const std::string key = scim::ascii_lower(user_name);
  {
    std::lock_guard lock(mutex_);
    if (throttle_.locked(key, clock_.now())) {
      return Status(ErrorCode::kUnauthenticated,
                    "too many failed logins for this user name; try again later");
    }
  }
  const std::optional<StoredPassword> stored = directory_.password_of(user_name);
  // The same work whether or not the user exists.
  const std::string& hash = stored ? stored->hash : decoy_hash();
  check_slots_.acquire();
  const bool matches = identity::verify_password(hash, password);
  check_slots_.release();
  std::lock_guard lock(mutex_);
  if (!stored || !matches) {
    throttle_.record_failure(key, clock_.now());
    return refused();
  }
  throttle_.record_success(key);
  return stored->user_name;
}

}  // namespace allot
