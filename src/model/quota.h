// Quota of one team or cohort: per flavor, per resource, a nominal amount and
// optional borrowing and lending limits (Kueue's semantics, DESIGN.md section 3).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/quantity.h"

namespace allot {

struct ResourceQuota {
  int64_t nominal = 0;
  std::optional<int64_t> borrowing_limit;  // unset: may borrow all that is lendable
  std::optional<int64_t> lending_limit;    // unset: lends all that is idle

  friend bool operator==(const ResourceQuota&, const ResourceQuota&) = default;
};

struct FlavorQuota {
  std::string flavor;
  // Indexed by Resource; a resource that the manifest does not mention has
  // nominal 0 and no limits, which means "everything must be borrowed".
  std::array<ResourceQuota, kResourceCount> resources{};
  // Which resources the manifest named (an unnamed resource is not constrained
  // for the team when no quota anywhere names it).
  std::array<bool, kResourceCount> declared{};

  [[nodiscard]] const ResourceQuota& of(Resource r) const {
    return resources[static_cast<size_t>(r)];
  }

  friend bool operator==(const FlavorQuota&, const FlavorQuota&) = default;
};

}  // namespace allot
