// Metering: the writes of the ledger (DESIGN.md section 6), each in the
// WriteBatch of the decision that causes it, so that no second is lost or
// counted twice: an admission opens its workload's allocation interval, the
// release of its capacity (the run ends, or a preemption releases it at once)
// closes it; a policy change records a new rate card version when a flavor's
// price changes and a new capacity when its nodes change (its NodePools', or
// the nodes read from the backend: a Slurm cluster's); a restart closes
// what was open and records the time allotd was down as missing data.
//
// Contract: pure state changes on ServerState and a batch; the caller holds
// the state's writer lock and commits the batch. Not thread-safe.
#pragma once

#include <vector>

#include "base/time.h"
#include "model/node.h"
#include "model/policy.h"
#include "service/control/live_workload.h"
#include "service/control/metering_state.h"
#include "store/store.h"

namespace allot {

struct ServerState;

// How often the admission loop stores that allotd is alive: after a crash,
// at most this much before it is reported as missing data.
inline constexpr Duration kMeteringHeartbeatEvery = Duration::seconds(10);

// Opens the workload's allocation at its admission: `usage` on its flavor,
// of which `borrowed` above its team's nominal quota.
void open_allocation(LiveWorkload& live, const ResourceVector& usage,
                     const ResourceVector& borrowed, Timestamp now, WriteBatch& batch);
// Closes the workload's open allocation at `now`; nothing when none is open.
void close_allocation(LiveWorkload& live, Timestamp now, WriteBatch& batch);

// The rate card versions and capacities that `policy` changes, from `now`.
struct MeteringChanges {
  std::vector<RateCardVersion> rate_cards;
  std::vector<CapacityInterval> capacity;  // opening; the previous of each flavor ends at start
  std::vector<TeamQuotaInterval> quotas;   // opening; the previous of each team ends at start

  [[nodiscard]] bool empty() const {
    return rate_cards.empty() && capacity.empty() && quotas.empty();
  }
};
// Capacity counts the NodePools' nodes and `backend_nodes` (those read from
// the backend for a Cluster that declares no NodePool, e.g. Slurm's:
// PolicyState::backend_nodes()), so that idle capacity covers them too.
// The teams' quotas are `compiled`'s (quota_history.h; null: none).
MeteringChanges metering_changes(const MeteringState& state, const Policy& policy,
                                 const std::vector<Node>& backend_nodes,
                                 const CompiledPolicy* compiled, Timestamp now);
void put_metering_changes(const MeteringChanges& changes, WriteBatch& batch);
// After the batch holding them is stored.
void apply_metering_changes(MeteringChanges changes, MeteringState& state);

// Startup: gives each open allocation to the live workload that holds it;
// the others become orphans. An admission after the last heartbeat is a
// later sign of life: the heartbeat is raised to it.
void attach_open_allocations(std::vector<AllocationRecord> open, ServerState& state);
// Startup, after the interrupted runs ended (closing their allocations):
// closes the orphans at `now` and records [last sign of life, now) as
// missing data (nothing on a first start). REQUIRES: the open allocations
// were attached.
void record_restart(ServerState& state, Timestamp now, WriteBatch& batch);

// Stores the heartbeat when kMeteringHeartbeatEvery has passed since the last.
void heartbeat_if_due(MeteringState& state, Timestamp now, WriteBatch& batch);

}  // namespace allot
