#include <algorithm>
#include <string>
#include <vector>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_parts.h"

namespace allot {
namespace {

void add_policy_wide(const Policy& policy, std::vector<MappingNote>& notes) {
  notes.push_back({"Cluster scheduling: several admissions per queue per cycle",
                   "Kueue admits at most the head of each ClusterQueue per scheduling cycle; allot "
                   "admits every workload that fits",
                   "nothing"});
  notes.push_back({"Cluster scheduling: reservations and backfill",
                   "Kueue neither reserves capacity for a blocked gang nor backfills shorter work "
                   "around it (StrictFIFO blocks, BestEffortFIFO passes the head)",
                   "nothing"});
  notes.push_back({"Preemption: checkpoint-aware victims",
                   "Kueue picks victims by priority and start time; it does not prefer those that "
                   "lose least work since their last checkpoint",
                   "nothing"});
  notes.push_back({"Workloads of kind Space: idle reclaim",
                   "Kubernetes does not suspend an idle Space and give its GPUs back", "nothing"});
  notes.push_back({"Budgets and contracts", "not enforced by Kubernetes or Kueue",
                   "nothing (allotd enforces them)"});
  for (const Cluster& cluster : policy.clusters) {
    if (!cluster.scheduling.fair_sharing) continue;
    notes.push_back({"Cluster/" + cluster.meta.name + ": scheduling.fairSharing",
                     "Kueue's fair sharing is switched on in its Configuration (fairSharing), not "
                     "in any object",
                     "the fairSharing.weight of each ClusterQueue and Cohort; set "
                     "fairSharing.enable in Kueue's Configuration"});
  }
  std::string unnamed;
  for (Resource resource : kAllResources) {
    const bool named = std::any_of(policy.teams.begin(), policy.teams.end(), [&](const Team& t) {
      return std::any_of(t.quota.begin(), t.quota.end(), [&](const FlavorQuota& f) {
        return f.declared[static_cast<size_t>(resource)];
      });
    });
    if (!named)
      unnamed += (unnamed.empty() ? "" : ", ") + std::string(kubernetes_resource_name(resource));
  }
  if (!unnamed.empty()) {
    notes.push_back({"Resources named by no quota: " + unnamed,
                     "allot leaves them unconstrained; Kueue does not admit a workload that "
                     "requests a resource its ClusterQueue does not cover",
                     "nothing; list them in resources.excludeResourcePrefixes of Kueue's "
                     "Configuration"});
  }
}

void add_priority_classes(const Policy& policy, std::vector<MappingNote>& notes) {
  for (const PriorityClass& pc : policy.priority_classes) {
    const std::string where = "PriorityClass/" + pc.meta.name + ": ";
    if (pc.min_runtime.ms() > 0) {
      notes.push_back({where + "minRuntimeSeconds", "Kueue may preempt a workload at once",
                       "annotation allot.dev/min-runtime on the WorkloadPriorityClass"});
    }
    if (pc.preemption_policy == PreemptionPolicy::kNever) {
      notes.push_back({where + "preemptionPolicy Never",
                       "a WorkloadPriorityClass has no preemption policy: its workloads preempt",
                       "annotation allot.dev/preemption-policy on the WorkloadPriorityClass"});
    }
    notes.push_back({where + "preemptionGracePeriod",
                     "Kueue evicts through the pods' own termination grace period",
                     "terminationGracePeriodSeconds of rendered workloads; annotation "
                     "allot.dev/preemption-grace-period"});
  }
}

// Settings of a team's quota and preemption that Kueue reads otherwise.
void add_team_quota(const Policy& policy, const Team& team, std::vector<MappingNote>& notes) {
  const std::string where = "Team/" + team.meta.name + ": ";
  if (resource_groups_json(team.quota, true).size() > 1) {
    notes.push_back({where + "flavors naming disjoint resources",
                     "Kueue gives a pod set one flavor per resource group; allot gives it one "
                     "flavor for all its resources",
                     "one resource group per set of resources"});
  }
  const bool fair = std::any_of(policy.clusters.begin(), policy.clusters.end(),
                                [](const Cluster& c) { return c.scheduling.fair_sharing; });
  if (fair && team.preemption.borrow_within_cohort != BorrowWithinCohortPolicy::kNever &&
      team.preemption.reclaim_within_cohort != ReclaimPolicy::kNever) {
    notes.push_back({where + "preemption.borrowWithinCohort with fair sharing",
                     "Kueue applies borrowWithinCohort with classical preemption only, not "
                     "with fair sharing",
                     "borrowWithinCohort as set; Kueue ignores it while fair sharing is on"});
  }
}

void add_teams(const Policy& policy, std::vector<MappingNote>& notes) {
  for (const Team& team : policy.teams) {
    add_team_quota(policy, team, notes);
    const std::string where = "Team/" + team.meta.name + ": ";
    if (!team.allowed_priority_classes.empty()) {
      notes.push_back({where + "allowedPriorityClasses",
                       "Kueue lets every workload of a namespace use any WorkloadPriorityClass",
                       "annotation allot.dev/allowed-priority-classes on the Namespace (enforce "
                       "it with an admission policy)"});
    }
    if (!team.storage.empty()) {
      notes.push_back({where + "storage", "not rendered as volumes", "nothing"});
    }
    if (!team.cohort.empty()) {
      notes.push_back({where + "ResourceQuota",
                       "a ResourceQuota counts a namespace only: it is set to nominal plus all "
                       "the team may borrow in its cohort tree, an upper bound",
                       "ResourceQuota allot-quota; Kueue's ClusterQueue holds the exact quota"});
    }
  }
}

void add_rbac(const RbacPolicy& rbac, std::vector<MappingNote>& notes) {
  notes.push_back({"RBAC: allot's own resources (teams, policy, reports, RBAC objects)",
                   "only workloads, jobs, pods and their logs are rendered",
                   "Roles allot-view and allot-act in each team namespace"});
  const auto has_sa = [](const std::vector<Subject>& subjects) {
    return std::any_of(subjects.begin(), subjects.end(),
                       [](const Subject& s) { return s.kind == SubjectKind::kServiceAccount; });
  };
  const bool service_accounts =
      std::any_of(rbac.role_bindings.begin(), rbac.role_bindings.end(),
                  [&](const RoleBinding& b) { return has_sa(b.subjects); }) ||
      std::any_of(rbac.cluster_role_bindings.begin(), rbac.cluster_role_bindings.end(),
                  [&](const ClusterRoleBinding& b) { return has_sa(b.subjects); });
  if (service_accounts) {
    notes.push_back({"RBAC: ServiceAccount subjects",
                     "allot's service accounts are not "
                     "Kubernetes ServiceAccounts",
                     "nothing"});
  }
  if (!rbac.cluster_role_bindings.empty()) {
    notes.push_back({"RBAC: ClusterRoleBindings",
                     "cluster-wide rights beyond the teams' namespaces are EKS access entries",
                     "RoleBindings in every team namespace"});
  }
}

}  // namespace

std::vector<MappingNote> mapping_notes(const Policy& policy, const RbacPolicy& rbac,
                                       const KubernetesRenderOptions& /*options*/) {
  std::vector<MappingNote> notes;
  add_policy_wide(policy, notes);
  add_priority_classes(policy, notes);
  add_teams(policy, notes);
  add_rbac(rbac, notes);
  return notes;
}

std::string format_mapping_report(const std::vector<MappingNote>& notes, std::string_view comment) {
  const std::string c(comment);
  std::string text = c + "allot -> Kubernetes mapping report: what Kueue cannot express\n";
  for (const MappingNote& note : notes) {
    text += std::string(comment.substr(0, comment.find_last_not_of(' ') + 1)) + "\n";
    text += c + "- " + note.setting + "\n";
    text += c + "    lost: " + note.lost + "\n";
    text += c + "    rendered: " + note.rendered + "\n";
  }
  return text;
}

}  // namespace allot
