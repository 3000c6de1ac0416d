// UuidIds: the ids allotd gives SCIM resources: random (version 4) UUIDs,
// as Entra ID and Okta expect an opaque, unguessable id, from the operating
// system's generator (libsodium). Thread-safe.
#pragma once

#include <string>

#include "identity/scim/scim_directory.h"

namespace allot {

class UuidIds final : public scim::IdGenerator {
 public:
  // "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx", lower-case hex, y in 8..b.
  std::string next_id() override;
};

}  // namespace allot
