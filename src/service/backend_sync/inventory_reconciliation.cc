#include "service/backend_sync/inventory_reconciliation.h"

#include <algorithm>
#include <map>
#include <set>

namespace allot {
namespace {

// The first resource the backend has less of than the policy says, in words.
std::string shortfall(const ResourceVector& backend, const ResourceVector& policy) {
  for (Resource resource : kAllResources) {
    if (backend[resource] >= policy[resource]) continue;
    return "the backend reports " + std::string(resource_name(resource)) + " " +
           format_quantity(resource, backend[resource]) + " but the policy says " +
           format_quantity(resource, policy[resource]);
  }
  return {};
}

InventoryVerdict verdict_for(const Node& node, const InventoryNode* found) {
  InventoryVerdict verdict{node.name, true, false, {}};
  if (found == nullptr) {
    verdict.healthy = false;
    verdict.reason = "not in the backend";
  } else if (!found->up) {
    verdict.healthy = false;
    verdict.reason = found->reason.empty() ? "down in the backend" : found->reason;
  } else if (std::string missing = shortfall(found->capacity, node.capacity); !missing.empty()) {
    verdict.healthy = false;
    verdict.reason = std::move(missing);
  } else if (found->drained) {
    verdict.drained = true;
    verdict.reason = found->reason.empty() ? "drained in the backend" : found->reason;
  }
  return verdict;
}

}  // namespace

InventoryReconciliation reconcile_inventory(const CompiledPolicy& policy,
                                            const std::vector<InventoryNode>& inventory) {
  std::map<std::string, const InventoryNode*> by_name;
  for (const InventoryNode& node : inventory) by_name.emplace(node.name.str(), &node);
  InventoryReconciliation out;
  std::set<std::string> named;
  for (const CompiledNode& compiled : policy.nodes()) {
    auto it = by_name.find(compiled.node.name);
    out.nodes.push_back(verdict_for(compiled.node, it == by_name.end() ? nullptr : it->second));
    named.insert(compiled.node.name);
  }
  for (const auto& [name, node] : by_name) {
    if (!named.contains(name)) out.unknown.push_back(name);
  }
  return out;
}

}  // namespace allot
