// Policy: every cluster-level object that decides scheduling, as applied by
// users (clusters, flavors, pools, cohorts, teams, priority classes).
//
// Contract: a plain aggregate; validation of cross references (a team naming a
// missing cohort, a cycle of cohorts) is done by validate_policy().
#pragma once

#include <vector>

#include "base/status.h"
#include "model/budget.h"
#include "model/cluster.h"
#include "model/cohort.h"
#include "model/contract.h"
#include "model/node_pool.h"
#include "model/organization.h"
#include "model/policy_exception.h"
#include "model/priority_class.h"
#include "model/resource_flavor.h"
#include "model/signal.h"
#include "model/team.h"

namespace allot {

struct Policy {
  std::vector<Cluster> clusters;
  std::vector<ResourceFlavor> flavors;
  std::vector<NodePool> node_pools;
  std::vector<Cohort> cohorts;
  std::vector<Team> teams;
  std::vector<PriorityClass> priority_classes;
  std::vector<Budget> budgets;  // issue 14: spending limits per team (budget.h)
  // Issue 15: the organisation level (at most one) and the connection contracts.
  std::vector<Organization> organizations;
  std::vector<Contract> contracts;
  std::vector<Signal> signals;  // issue 14: conditions over allot's metrics (signal.h)
  // Issue 15, item 6: relaxations with an owner, an approver and an expiry,
  // applied by governance/policy_exceptions.h while they last.
  std::vector<PolicyException> exceptions;

  [[nodiscard]] const Team* find_team(std::string_view name) const;
  [[nodiscard]] const Team* find_team_by_namespace(std::string_view ns) const;
  [[nodiscard]] const PriorityClass* find_priority_class(std::string_view name) const;
  [[nodiscard]] const ResourceFlavor* find_flavor(std::string_view name) const;
  [[nodiscard]] const Cohort* find_cohort(std::string_view name) const;
  [[nodiscard]] const Cluster* find_cluster(std::string_view name) const;
  // The installation's Organization, or nullptr when none is applied.
  [[nodiscard]] const Organization* organization() const;

  friend bool operator==(const Policy&, const Policy&) = default;
};

// Checks references between objects: flavors of pools and quotas exist, cohorts
// of teams exist, no cohort is its own ancestor, names are unique, namespaces
// map to one team; at most one Organization, whose levels every
// maxDataClassification and Contract names; a Contract's cluster and
// namespaces exist. The Status names the object and field at fault.
Status validate_policy(const Policy& policy);

}  // namespace allot
