// The identifiers of allot's objects across layers: the store, the backends
// and the service speak these, not bare integers or strings.
//
// Contract: value types, ordered and hashable.
// - WorkloadId: assigned by allotd when a workload is created, unique forever
//   (never reused, also after a delete); allotd's ids start at 1. The
//   scheduler and the simulator use it to order ties deterministically.
// - PodId: one pod of a workload's run, by its index across the workload's
//   pod sets (0..pods-1).
// - TeamId, NodeId: a team and a node by the name the policy gives them
//   (unique within the policy; a Team's name is also what its Unix identity
//   and its namespace derive from).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>

#include "base/strong_id.h"

namespace allot {

using WorkloadId = StrongId<struct WorkloadIdTag, uint64_t>;

struct PodId {
  WorkloadId workload;
  int32_t index = 0;

  auto operator<=>(const PodId&) const = default;  // NOLINT(modernize-use-nullptr)
};

// A name that cannot be mixed up with another kind of name.
template <typename Tag>
class StrongName {
 public:
  StrongName() = default;
  explicit StrongName(std::string name) : name_(std::move(name)) {}

  [[nodiscard]] const std::string& str() const { return name_; }
  [[nodiscard]] bool empty() const { return name_.empty(); }

  auto operator<=>(const StrongName&) const = default;  // NOLINT(modernize-use-nullptr)

 private:
  std::string name_;
};

using TeamId = StrongName<struct TeamIdTag>;
using NodeId = StrongName<struct NodeIdTag>;

}  // namespace allot

template <typename Tag>
struct std::hash<allot::StrongName<Tag>> {
  size_t operator()(const allot::StrongName<Tag>& name) const noexcept {
    return std::hash<std::string>()(name.str());
  }
};
