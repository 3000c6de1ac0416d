// Resource amounts in manifests: per-node or per-pod resource maps
// ({gpu: 8, cpu: 500m, memory: 64Gi}) and the per-flavor quota lists of teams
// and cohorts ([{flavor, resources: {gpu: {nominal, borrowingLimit, lendingLimit}}}]).
//
// Contract: keys are the resource names of base/quantity.h; any other key is an
// unknown field. Quantities go through parse_quantity(), so negative, malformed
// and oversized amounts are errors located at their field. Stateless.
#pragma once

#include <vector>

#include "api/manifest_fields.h"
#include "base/quantity.h"
#include "base/result.h"
#include "model/quota.h"

namespace allot {

// {gpu: 8, cpu: 96, memory: 1024Gi}; resources not named are zero.
Result<ResourceVector> decode_resources(const Field& field);

// A list of per-flavor quotas. Marks FlavorQuota::declared for each named
// resource; a lendingLimit above its nominal is an error.
Result<std::vector<FlavorQuota>> decode_quota(const Field& field);

}  // namespace allot
