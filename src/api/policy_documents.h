// Decoders for the `spec` of the cluster-level policy kinds that have no
// sub-structure worth a file of their own: Cluster, ResourceFlavor, NodePool,
// Cohort and PriorityClass (Team is in team_document.h).
//
// Contract: each takes the document's already decoded metadata and its `spec`
// field (path "spec"), and returns the model value or a Status located at the
// offending field. Defaults are those of the model types. Stateless.
#pragma once

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/cluster.h"
#include "model/cohort.h"
#include "model/node_pool.h"
#include "model/object_meta.h"
#include "model/priority_class.h"
#include "model/resource_flavor.h"

namespace allot {

// Largest NodePool.count accepted: pools expand into one Node each.
inline constexpr int32_t kMaxNodesPerPool = 100'000;

Result<Cluster> decode_cluster(ObjectMeta meta, const Field& spec);
Result<ResourceFlavor> decode_resource_flavor(ObjectMeta meta, const Field& spec);
Result<NodePool> decode_node_pool(ObjectMeta meta, const Field& spec);
Result<Cohort> decode_cohort(ObjectMeta meta, const Field& spec);
Result<PriorityClass> decode_priority_class(ObjectMeta meta, const Field& spec);

}  // namespace allot
