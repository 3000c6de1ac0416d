#include "service/backend_sync/inventory_nodes.h"

#include <algorithm>
#include <charconv>

#include "model/node_inventory.h"

namespace allot {
namespace {

int32_t label_number(const InventoryNode& node, const std::string& key) {
  auto it = node.labels.find(key);
  if (it == node.labels.end()) return 0;
  int32_t value = 0;
  const std::string& text = it->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && value >= 0 ? value : 0;
}

}  // namespace

InventoryNodes nodes_of_inventory(const std::string& cluster,
                                  const std::vector<InventoryNode>& inventory,
                                  const std::vector<std::string>& flavors) {
  InventoryNodes out;
  for (const InventoryNode& listed : inventory) {
    std::string flavor;
    if (!listed.flavor.empty() &&
        std::find(flavors.begin(), flavors.end(), listed.flavor) != flavors.end()) {
      flavor = listed.flavor;
    } else if (flavors.size() == 1) {
      flavor = flavors.front();
    }
    if (flavor.empty()) {
      out.unmatched.push_back(
          listed.name.str() + ": " +
          (listed.flavor.empty() ? std::string("no GPU type, and the policy has several flavors")
                                 : "GPU type " + listed.flavor + " is not a flavor of the policy"));
      continue;
    }
    Node node;
    node.name = listed.name.str();
    node.pool = cluster;
    node.flavor = std::move(flavor);
    node.capacity = listed.capacity;
    node.rack = label_number(listed, "rack");
    node.block = label_number(listed, "block");
    node.healthy = listed.up;
    node.cordoned = listed.drained;
    out.nodes.push_back(std::move(node));
  }
  return out;
}

std::vector<std::string> inventory_clusters(const Policy& policy) {
  std::vector<std::string> out;
  for (const Cluster& cluster : policy.clusters) {
    if (cluster.backend != BackendKind::kSlurm) continue;
    const bool pooled =
        std::any_of(policy.node_pools.begin(), policy.node_pools.end(),
                    [&](const NodePool& pool) { return pool.cluster == cluster.meta.name; });
    if (!pooled) out.push_back(cluster.meta.name);
  }
  return out;
}

InventoryNodes policy_inventory_nodes(const Policy& policy,
                                      const std::vector<InventoryNode>& inventory) {
  const std::vector<std::string> clusters = inventory_clusters(policy);
  if (clusters.empty()) return {};
  std::vector<std::string> flavors;
  for (const ResourceFlavor& flavor : policy.flavors) flavors.push_back(flavor.meta.name);
  InventoryNodes out = nodes_of_inventory(clusters.front(), inventory, flavors);
  for (Node& node : out.nodes) {
    node.healthy = true;
    node.cordoned = false;
  }
  return out;
}

std::vector<Node> policy_nodes(const Policy& policy, const std::vector<Node>& owned) {
  std::vector<Node> nodes = expand_node_pools(policy);
  const std::vector<std::string> clusters = inventory_clusters(policy);
  for (const Node& node : owned) {
    if (std::find(clusters.begin(), clusters.end(), node.pool) != clusters.end()) {
      nodes.push_back(node);
    }
  }
  return nodes;
}

}  // namespace allot
