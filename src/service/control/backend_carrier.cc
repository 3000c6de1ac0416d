#include "service/control/backend_carrier.h"

#include "service/backend_sync/backend_policy.h"

namespace allot {
namespace {

// The Cluster that names the backend (the first that is not local), or the
// first Cluster; null when the policy has none.
const Cluster* backend_cluster(const Policy& policy) {
  for (const Cluster& cluster : policy.clusters) {
    if (cluster.backend != BackendKind::kLocal) return &cluster;
  }
  return policy.clusters.empty() ? nullptr : &policy.clusters.front();
}

}  // namespace

Result<std::vector<std::string>> BackendCarrier::carry(const PolicyState& next, bool dry_run) {
  const Cluster* cluster = backend_cluster(next.policy());
  if (cluster == nullptr || !next.compiled()) return std::vector<std::string>{};
  const std::string field = "Cluster/" + cluster->meta.name + ".spec.backend";
  const bool slurm = cluster->backend == BackendKind::kSlurm;
  if (slurm && ports_.policy_sync == nullptr) {
    return failed_precondition(
        "the Cluster's backend is slurm, but this allotd runs the local backend: start allotd "
        "with --backend slurm",
        field);
  }
  if (!slurm && ports_.policy_sync != nullptr) {
    return failed_precondition(
        "this allotd runs on Slurm (--backend slurm): the Cluster must say backend: slurm", field);
  }
  if (!slurm) return std::vector<std::string>{};
  BackendPolicy desired = backend_policy_of(*next.compiled(), ports_.root);
  desired.site = {cluster->slurm.cluster_name, cluster->slurm.partition, cluster->slurm.rest_url};
  for (SyncedTeam& team : desired.teams) team.users = ports_.users;
  Result<SyncReport> report =
      dry_run ? ports_.policy_sync->dry_run(desired) : ports_.policy_sync->apply(desired);
  if (!report.ok()) {
    return Status(report.status().code(),
                  "the policy was not applied: " + report.status().message(),
                  report.status().details());
  }
  std::vector<std::string> lines = std::move(report->changes);
  for (const std::string& drift : report->drift) lines.push_back("drift: " + drift);
  for (const std::string& team : report->deferred) {
    lines.push_back("kept until its jobs end: " + team);
  }
  return lines;
}

}  // namespace allot
