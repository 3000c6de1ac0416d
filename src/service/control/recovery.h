// Recovery: rebuilds the state in memory from the store when allotd starts,
// and requeues what the previous process left running.
//
// Contract: load_state() reads every stored object and workload into the
// cluster's state (policy documents, node conditions, workloads with their
// requests compiled under the stored policy) and sets the next workload id
// past the highest ever stored, and installs the applied RBAC objects in
// AccessControl (access_control.h); an undecodable record is an error and leaves
// allotd unstarted. requeue_interrupted() ends the runs that the previous
// process left (their processes are gone, or were killed by the executor's
// own recovery) as their stored stop says: work that was being cancelled is
// Cancelled, work stopped for a pod failure or maxRuntime has Failed, and any
// other run goes back to Pending at its original position with a restart
// counted. Workloads deleted while they ran are then erased. It commits that
// before returning, then builds the workloads' activity index
// (workload_activity.h) from them and the ledger's allocations since the
// oldest one's creation.
#pragma once

#include <vector>

#include "base/status.h"
#include "base/time.h"
#include "service/control/cluster_state.h"

namespace allot {

// Objects of AccessControl's kinds (tokens, session keys), of service
// accounts and of the directory's (ScimService: SCIM resources, passwords) go
// to `access_objects`.
Status load_state(ClusterState& cluster, std::vector<ObjectRecord>& access_objects);

Status requeue_interrupted(ClusterState& cluster, Timestamp now);

}  // namespace allot
