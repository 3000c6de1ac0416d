// The governance documents the contract tests share: an Organization with two
// classification levels, ana and bob bound to contract-approver, carol a
// member of research; and research's Contract on the local cluster, owned by
// ana (business), ml-ops (operations) and bob (cost), approving Jobs.
#pragma once

namespace allot::server_test {

inline constexpr const char* kContractGovernance = R"(
---
apiVersion: allot/v1
kind: Organization
metadata: {name: acme}
spec: {dataClassifications: [public, internal]}
---
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: approvers}
subjects: [{kind: User, name: ana}, {kind: User, name: bob}]
roleRef: {kind: ClusterRole, name: contract-approver}
---
apiVersion: allot/v1
kind: RoleBinding
metadata: {name: members, namespace: research}
subjects: [{kind: User, name: carol}]
roleRef: {kind: ClusterRole, name: team-member}
)";

inline constexpr const char* kResearchContract = R"(apiVersion: allot/v1
kind: Contract
metadata: {name: research-local}
spec:
  project: research
  owners: {business: ana, operations: ml-ops, cost: bob}
  cluster: {name: local}
  approvedWorkloadKinds: [Job]
  dataClassification: public
  namespaces: [research]
  schedulingPolicyOwner: bob
  exceptionOwner: ml-ops
)";

}  // namespace allot::server_test
