// EvidenceService: what a project's evidence report holds (issue 15, item 7;
// docs/governance.md): the project's contracts with their status and
// history, the PolicyExceptions of its teams, the RBAC bindings in force,
// and its usage and cost over a period. The server adds the audit log's
// range and verification and signs the whole (server/evidence_routes.cc).
//
// Contract: reads only, what is stored (CommittedRead).
// - A project is every Contract whose spec.project names it (kNotFound when
//   none does); its namespaces are those of its contracts, its teams the
//   Teams of those namespaces.
// - Who may: for every contract of the project, the caller may get
//   `contracts/evidence` of that contract's name (RBAC: cluster-admin, the
//   built-in contract-approver), or is one of that contract's owners
//   (owners.*, schedulingPolicyOwner, exceptionOwner) as a user or through a
//   group it is in; kPermissionDenied otherwise.
// - The period is [from, to): `from` by default the creation of the
//   project's first contract, `to` by default now and clipped to now;
//   kInvalidArgument when it is then empty. Usage is the usage report of the project's teams over
//   it (report_service.h), by team, with idle capacity separate; none when the project has no team.
// - Bindings: the applied RoleBindings of the project's namespaces, and the
//   applied ClusterRoleBindings (they reach every namespace); built-ins are
//   not listed. Exceptions: the applied PolicyExceptions of its teams, in
//   force or expired (one deleted is no longer known), each with its status
//   as shown now (phase, requestedBy, decidedBy, history: exception_state.h).
// Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "service/control/cluster_state.h"
#include "service/control/report_service.h"

namespace allot {

struct ProjectEvidence {
  std::string project;
  Timestamp from;
  Timestamp to;  // clipped to now
  Timestamp generated_at;
  std::vector<std::string> namespaces;
  std::vector<std::string> teams;
  std::vector<PolicyObjectView> contracts;  // with their standing (status, history, review)
  std::vector<PolicyObjectView> exceptions;
  std::vector<PolicyObjectView> role_bindings;
  std::vector<PolicyObjectView> cluster_role_bindings;
  std::optional<UsageReportResult> usage;
};

class EvidenceService {
 public:
  EvidenceService(ClusterState& cluster, const ReportService& reports, const Clock& clock)
      : cluster_(cluster), reports_(reports), clock_(clock) {}

  [[nodiscard]] Result<ProjectEvidence> collect(const Principal& caller, const std::string& project,
                                                std::optional<Timestamp> from,
                                                std::optional<Timestamp> to) const;

 private:
  ClusterState& cluster_;
  const ReportService& reports_;
  const Clock& clock_;
};

}  // namespace allot
