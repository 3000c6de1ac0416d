#include "governance/policy_exceptions.h"

#include <algorithm>
#include <iterator>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace allot {
namespace {

Team* exception_team(Policy& policy, const std::string& name) {
  for (Team& team : policy.teams) {
    if (team.meta.name == name) return &team;
  }
  return nullptr;
}

void relax_team_quota(Team& team, const QuotaRelaxation& relaxation) {
  auto it = std::find_if(team.quota.begin(), team.quota.end(),
                         [&](const FlavorQuota& q) { return q.flavor == relaxation.flavor; });
  if (it == team.quota.end()) {
    FlavorQuota added;
    added.flavor = relaxation.flavor;
    team.quota.push_back(added);
    it = std::prev(team.quota.end());
  }
  for (size_t r = 0; r < kResourceCount; ++r) {
    if (relaxation.amounts[r] == 0) continue;
    it->resources[r].nominal += relaxation.amounts[r];
    it->declared[r] = true;
  }
}

// The level the contract's cluster holds (the lowest without a maximum).
std::string exception_cluster_level(const Policy& policy, const Organization& org,
                                    const Contract& contract) {
  const Cluster* cluster = policy.find_cluster(contract.spec.cluster.name);
  return cluster == nullptr || cluster->max_data_classification.empty()
             ? org.data_classifications.front()
             : cluster->max_data_classification;
}

// Relaxes the contracts that cover `ns` for an exception of `target`.
void relax_team_contracts(Policy& policy, const std::string& ns, const PolicyExceptionSpec& spec) {
  const Organization* org = policy.organization();
  for (Contract& contract : policy.contracts) {
    const std::vector<std::string>& namespaces = contract.spec.namespaces;
    if (std::find(namespaces.begin(), namespaces.end(), ns) == namespaces.end()) continue;
    if (spec.target == ExceptionTarget::kWorkloadKind) {
      std::vector<WorkloadKind>& kinds = contract.spec.approved_workload_kinds;
      if (std::find(kinds.begin(), kinds.end(), spec.workload_kind) == kinds.end()) {
        kinds.push_back(spec.workload_kind);
      }
      continue;
    }
    if (org == nullptr || org->data_classifications.empty()) continue;
    const std::optional<size_t> allowed = org->rank(spec.data_classification);
    const std::optional<size_t> wanted = org->rank(contract.spec.data_classification);
    if (!allowed || !wanted || *wanted > *allowed) continue;
    const std::string held = exception_cluster_level(policy, *org, contract);
    if (org->rank(held).value_or(0) < *wanted) contract.spec.data_classification = held;
  }
}

void apply_policy_exception(Policy& policy, const PolicyExceptionSpec& spec) {
  Team* team = exception_team(policy, spec.team);
  if (team == nullptr) return;
  switch (spec.target) {
    case ExceptionTarget::kQuota: relax_team_quota(*team, spec.quota); break;
    case ExceptionTarget::kPriorityClass: {
      std::vector<std::string>& classes = team->allowed_priority_classes;
      if (!classes.empty() &&
          std::find(classes.begin(), classes.end(), spec.priority_class) == classes.end()) {
        classes.push_back(spec.priority_class);
      }
      break;
    }
    case ExceptionTarget::kWorkloadKind:
    case ExceptionTarget::kDataClassification: {
      const std::string ns = team->namespace_name.empty() ? team->meta.name : team->namespace_name;
      relax_team_contracts(policy, ns, spec);
      break;
    }
  }
}

}  // namespace

bool exception_active(const PolicyException& exception, Timestamp now) {
  return now < exception.spec.expires;
}

Policy policy_with_exceptions(const Policy& policy, Timestamp now,
                              const std::set<std::string>& withheld) {
  Policy effective = policy;
  for (const PolicyException& exception : policy.exceptions) {
    if (exception_active(exception, now) && !withheld.contains(exception.meta.name)) {
      apply_policy_exception(effective, exception.spec);
    }
  }
  return effective;
}

std::vector<std::string> active_exception_names(const Policy& policy, Timestamp now,
                                                const std::set<std::string>& withheld) {
  std::vector<std::string> names;
  for (const PolicyException& exception : policy.exceptions) {
    if (exception_active(exception, now) && !withheld.contains(exception.meta.name)) {
      names.push_back(exception.meta.name);
    }
  }
  return names;
}

bool exception_expiring(const PolicyException& exception, Timestamp now, Duration window) {
  return exception_active(exception, now) && exception.spec.expires <= now + window;
}

}  // namespace allot
