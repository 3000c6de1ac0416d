// NodeView: one node as `allot get nodes` and the API show it: where it is,
// what it has, what is allocated on it, its condition and the workloads on it.
//
// Contract: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"

namespace allot {

// A change of a node's health, as the health checks saw it (newest last).
struct NodeHealthChange {
  Timestamp at;
  bool healthy = true;
  std::string reason;  // why unhealthy ("" when healthy again)

  friend bool operator==(const NodeHealthChange&, const NodeHealthChange&) = default;
};

// How many health changes a node keeps (the oldest are dropped).
inline constexpr size_t kNodeHealthHistoryLength = 20;

struct NodeView {
  std::string name;
  std::string pool;
  std::string flavor;
  int32_t rack = 0;   // dense rack number, unique across flavors
  int32_t block = 0;  // dense block number, unique across flavors
  ResourceVector capacity;
  ResourceVector allocated;
  bool healthy = true;
  bool cordoned = false;
  std::string reason;  // why unhealthy or cordoned
  std::optional<Timestamp> last_heartbeat;
  // The backend's own view where it owns the nodes (Slurm's node state and
  // reason, as of the last health round); empty otherwise.
  std::string backend_state;
  std::string backend_reason;
  std::vector<std::string> workloads;  // "namespace/name" of admitted and running work
  // Its last kNodeHealthHistoryLength health changes, oldest first.
  std::vector<NodeHealthChange> health_history;

  friend bool operator==(const NodeView&, const NodeView&) = default;
};

// A page of nodes in the policy's order: at most `limit` from position
// `after` (a position, not a name; a policy change between two pages may
// shift it).
struct NodeQuery {
  size_t limit = 500;
  size_t after = 0;
};

struct NodePage {
  std::vector<NodeView> items;
  std::optional<size_t> next;  // the `after` of the next page; none after the last
};

enum class NodeAction : uint8_t { kCordon, kDrain, kUncordon };

}  // namespace allot
