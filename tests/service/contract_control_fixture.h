// The contract tests' fixture (contract_control_test.cc,
// contract_review_control_test.cc): an Organization with data
// classifications, a Contract document of a namespace, kTwoTeamPolicy under
// it, and ContractControl: the directory's ana, bob and ml-ops, applies and
// transitions by a named caller, a workload's explanation and whether it
// holds its capacity.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {

constexpr const char* kOrganization = R"(
---
apiVersion: allot/v1
kind: Organization
metadata: {name: acme}
spec: {dataClassifications: [public, internal, confidential]}
---
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: approvers}
subjects: [{kind: User, name: ana}, {kind: User, name: bob}]
roleRef: {kind: ClusterRole, name: contract-approver}
)";

inline std::string contract_yaml(const std::string& name, const std::string& ns,
                                 const std::string& classification = "internal",
                                 const std::string& kinds = "[Job, TrainingJob]",
                                 const std::string& owner = "ana") {
  return "apiVersion: allot/v1\nkind: Contract\nmetadata: {name: " + name +
         "}\nspec:\n  project: " + ns + "-project\n  owners: {business: " + owner +
         ", operations: ml-ops, cost: bob}\n  cluster: {name: local, orchestrator: local}\n"
         "  projectRole: training\n  accessRole: team-member\n  approvedWorkloadKinds: " +
         kinds + "\n  dataClassification: " + classification + "\n  namespaces: [" + ns +
         "]\n  schedulingPolicyOwner: bob\n  exceptionOwner: ml-ops\n"
         "  terms: {monitoring: dashboards, support: business hours, decommission: 30 days}\n"
         "  reviewInterval: 30d\n  reviewGracePeriod: 7d\n";
}

// kTwoTeamPolicy with the cluster allowed `level`.
inline std::string governed_policy(const std::string& level = "internal") {
  std::string policy = kTwoTeamPolicy;
  const std::string spec = "spec: {backend: local, scheduling: {cycle: 1s}}";
  policy.replace(
      policy.find(spec), spec.size(),
      "spec: {backend: local, maxDataClassification: " + level + ", scheduling: {cycle: 1s}}");
  return policy + kOrganization;
}

class ContractControl : public ControlPlaneTest {
 protected:
  void SetUp() override {
    for (const char* user : {"ana", "bob"}) {
      ASSERT_TRUE(plane_->scim().create(scim::ResourceKind::kUser, {{"userName", user}}).ok());
    }
    ASSERT_TRUE(
        plane_->scim().create(scim::ResourceKind::kGroup, {{"displayName", "ml-ops"}}).ok());
  }

  Status apply_as(const std::string& who, const std::string& yaml) {
    return apply_by(Principal::user(who), yaml);
  }

  // The cluster admin: only it writes the Organization and the clusters.
  Status apply_as_admin(const std::string& yaml) {
    return apply_by(Principal::anonymous_admin(), yaml);
  }

  Status apply_by(const Principal& caller, const std::string& yaml) {
    const Result<ParsedManifests> parsed = parse_manifests_with_documents(yaml);
    if (!parsed.ok()) return parsed.status();
    return plane_->policies().apply(caller, *parsed, false).status();
  }

  Result<std::string> act(const std::string& who, const std::string& name, ContractAction action,
                          const std::string& reason = "checked") {
    Result<PolicyObjectView> view =
        plane_->contracts().transition(Principal::user(who), name, action, reason);
    if (!view.ok()) return view.status();
    return std::string(contract_phase_name(view->contract->status.phase));
  }

  nlohmann::json explanation(const std::string& ns, const std::string& name) {
    const Result<nlohmann::json> view = calls_->get_workload(ns, name);
    return view.ok() ? (*view)["status"]["explanation"] : nlohmann::json();
  }

  bool holds(const std::string& ns, const std::string& name) {
    const std::string now = phase(ns, name);
    return now == "Admitted" || now == "Running";
  }
};

}  // namespace allot::testing
