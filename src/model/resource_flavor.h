// ResourceFlavor: one kind of accelerator or node (h100, a100, cpu-only).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/object_meta.h"

namespace allot {

struct FlavorPrice {
  double gpu_hour = 0;
  double cpu_hour = 0;
  double memory_gib_hour = 0;
  std::string currency = "USD";

  friend bool operator==(const FlavorPrice&, const FlavorPrice&) = default;
};

struct ResourceFlavor {
  ObjectMeta meta;
  std::map<std::string, std::string> node_labels;
  FlavorPrice price;
  std::vector<std::string> topology_levels;  // e.g. ["block", "rack"]

  friend bool operator==(const ResourceFlavor&, const ResourceFlavor&) = default;
};

}  // namespace allot
