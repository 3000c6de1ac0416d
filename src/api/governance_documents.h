// The `spec` of the governance manifests of issue 15 (items 2 and 3;
// docs/governance.md):
//
//   kind: Organization
//   metadata: {name: acme}
//   spec: {dataClassifications: [public, internal, confidential, restricted]}
//
//   kind: Contract
//   metadata: {name: vision-main}
//   spec: {project, owners: {business, operations, cost},
//          cluster: {name, account, region, orchestrator, orchestratorVersion},
//          projectRole, accessRole, approvedWorkloadKinds: [TrainingJob, ...],
//          dataClassification, namespaces: [...], slurmScope: {account, partition},
//          schedulingPolicyOwner, exceptionOwner,
//          terms: {monitoring, support, decommission},
//          reviewInterval: 90d, reviewGracePeriod: 14d,
//          reviewWebhook: https://...}  (optional: where a review falling due is POSTed)
//
// Contract: decode_*() return the model value or a Status located at the
// offending field. Required in a Contract: project, the three owners,
// cluster.name, approvedWorkloadKinds (not empty, no kind twice),
// dataClassification, schedulingPolicyOwner, exceptionOwner; reviewInterval
// at least 1 h. References (levels, clusters, namespaces) are checked by
// validate_policy(); owners by the service. Stateless.
//
//   kind: PolicyException
//   metadata: {name: vision-deadline}
//   spec: {team: vision,
//          relaxes: {quota: {flavor: h100, resources: {gpu: 4}}}   # or exactly one of
//                   # priorityClass: high | workloadKind: Job | dataClassification: confidential
//          owner: ana, reason: "paper deadline", approver: bob,
//          expires: "2026-12-10T00:00:00Z"}
//
// Required: every field; relaxes names exactly one thing (a quota adds a
// positive amount); expires is RFC 3339. validate_policy() checks the
// references and that the approver is not the owner.
#pragma once

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/contract.h"
#include "model/organization.h"
#include "model/policy_exception.h"

namespace allot {

Result<Organization> decode_organization(ObjectMeta meta, const Field& spec);
Result<Contract> decode_contract(ObjectMeta meta, const Field& spec);
Result<PolicyException> decode_policy_exception(ObjectMeta meta, const Field& spec);

}  // namespace allot
