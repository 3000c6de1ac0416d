// PolicyManifests: allot's quota policy (flavors, cohorts, priority classes,
// teams) written back as allot/v1 manifests, what `allot import kubernetes`
// prints.
//
// Contract: one JSON document per object, in the order ResourceFlavor,
// Cohort, PriorityClass, Team, each in the policy's order; parse_manifests()
// of their YAML gives the same objects (prices, owners, storage and allowed
// priority classes included; clusters and node pools are not written). Pure.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "model/policy.h"

namespace allot {

std::vector<nlohmann::json> policy_manifests(const Policy& policy);

}  // namespace allot
