#include "service/backend_sync/inventory_nodes.h"

#include <algorithm>
#include <charconv>

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

}  // namespace allot
