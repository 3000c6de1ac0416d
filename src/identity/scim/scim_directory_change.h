// What one write of the SCIM directory changed, resource by resource: what
// the server stores (one record per resource, not the whole directory), how
// it undoes a write whose commit failed, and how it keeps the indexes that
// authentication reads in step.
//
// Contract: a write lists every resource it touched once, in the order it
// touched them: the resource written (POST, PUT, PATCH, DELETE) and, when a
// User or Group is deleted, each group it was a member of. `before` is the
// stored content before the write (none: created), `after` the content
// after it (none: deleted). Stored content is normalized (scim_resource.h)
// with id and meta; it never holds a password nor a User's computed
// "groups". Value types; thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "identity/scim/scim_schema.h"

namespace allot::scim {

// One resource as stored: the record the server persists and loads.
struct StoredResource {
  ResourceKind kind = ResourceKind::kUser;
  // Creation order, shared by Users and Groups; lists follow it.
  uint64_t sequence = 0;
  nlohmann::json resource;

  friend bool operator==(const StoredResource&, const StoredResource&) = default;
};

struct ResourceChange {
  ResourceKind kind = ResourceKind::kUser;
  std::string id;
  uint64_t sequence = 0;
  std::optional<nlohmann::json> before;  // none: created by the write
  std::optional<nlohmann::json> after;   // none: deleted by the write

  friend bool operator==(const ResourceChange&, const ResourceChange&) = default;
};

struct DirectoryChange {
  std::vector<ResourceChange> resources;

  friend bool operator==(const DirectoryChange&, const DirectoryChange&) = default;
};

}  // namespace allot::scim
