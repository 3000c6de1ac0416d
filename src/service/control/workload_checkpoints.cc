#include "service/control/workload_checkpoints.h"

#include <algorithm>

#include "service/control/workload_transitions.h"

namespace allot {

CheckpointOwner checkpoint_owner(const LiveWorkload& workload) {
  const Workload& w = workload.doc.workload;
  return {TeamId(workload.doc.status.team), w.meta.namespace_name, w.meta.name, workload.id()};
}

std::string checkpoint_folder(const ServerState& state, const LiveWorkload& workload) {
  if (!workload.doc.workload.spec.checkpoint || !state.checkpoint_dir) return {};
  return state.checkpoint_dir(checkpoint_owner(workload));
}

void add_run_env(const LiveWorkload& workload, const std::string& folder, WorkloadLaunch& launch) {
  launch.env[kRestartCountEnv] = std::to_string(workload.doc.status.restarts);
  if (folder.empty()) return;
  launch.checkpoint_dir = folder;
  launch.env[workload.doc.workload.spec.checkpoint->env] = folder;
}

Timestamp last_checkpoint(const LiveWorkload& workload, Timestamp admitted_at) {
  const std::optional<Timestamp>& reported = workload.doc.status.last_checkpoint_at;
  return reported ? std::max(*reported, admitted_at) : admitted_at;
}

bool record_checkpoint(LiveWorkload& workload, Timestamp at, Timestamp now, WriteBatch& batch) {
  std::optional<Timestamp>& kept = workload.doc.status.last_checkpoint_at;
  const Timestamp time = std::min(at, now);
  if (kept && *kept >= time) return false;
  kept = time;
  store_record(workload, batch);
  return true;
}

}  // namespace allot
