// ServiceAccountView: a team's service account as the API shows it, with its
// API tokens' metadata (never their secrets); IssuedToken: a token just
// issued, the only value that ever carries the secret.
//
// Contract: plain values (service/control/service_accounts.h makes them).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/time.h"

namespace allot {

struct ServiceAccountTokenView {
  std::string id;  // "<namespace>.<account>.<n>": unique among live tokens
  Timestamp created_at;
  std::optional<Timestamp> expires_at;  // none: until revoked
  bool expired = false;                 // at the time of the answer

  friend bool operator==(const ServiceAccountTokenView&, const ServiceAccountTokenView&) = default;
};

struct ServiceAccountView {
  std::string namespace_name;
  std::string name;
  std::string subject;  // "system:serviceaccount:<namespace>:<name>"
  Timestamp created_at;
  std::vector<ServiceAccountTokenView> tokens;  // in the order issued

  friend bool operator==(const ServiceAccountView&, const ServiceAccountView&) = default;
};

struct IssuedToken {
  std::string namespace_name;
  std::string service_account;
  ServiceAccountTokenView view;
  std::string token;  // the secret: shown once, never stored or logged
};

}  // namespace allot
