// What a contract's revocation takes away (issue 15, item 5): its
// namespaces that no other contract in force covers, and their RoleBindings.
#include "governance/contract_revocation.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace allot {
namespace {

Contract revocation_contract(const std::string& name, std::vector<std::string> namespaces) {
  Contract contract;
  contract.meta.name = name;
  contract.spec.namespaces = std::move(namespaces);
  return contract;
}

ContractStatus revocation_status(ContractPhase phase) {
  ContractStatus status;
  status.phase = phase;
  return status;
}

TEST(ContractRevocation, DrainsOnlyNamespacesNoOtherContractInForceCovers) {
  Policy policy;
  policy.contracts = {revocation_contract("a", {"vision", "shared", "vision"}),
                      revocation_contract("b", {"shared"}), revocation_contract("c", {"vision"})};
  std::map<std::string, ContractStatus> statuses = {
      {"a", revocation_status(ContractPhase::kActive)},
      {"b", revocation_status(ContractPhase::kUnderReview)},
      {"c", revocation_status(ContractPhase::kApproved)}};
  EXPECT_EQ(revocation_namespaces(policy, statuses, "a"), std::vector<std::string>{"vision"})
      << "b still covers shared; c is not in force; vision is named once";
  statuses["b"] = revocation_status(ContractPhase::kRevoked);
  EXPECT_EQ(revocation_namespaces(policy, statuses, "a"),
            (std::vector<std::string>{"vision", "shared"}));
  statuses["c"] = revocation_status(ContractPhase::kActive);
  EXPECT_EQ(revocation_namespaces(policy, statuses, "a"), std::vector<std::string>{"shared"});
  EXPECT_TRUE(revocation_namespaces(policy, statuses, "nosuch").empty());
}

TEST(ContractRevocation, TheBindingsAreThoseOfTheDrainedNamespaces) {
  RbacPolicy rbac;
  for (const auto& [ns, name] : std::vector<std::pair<std::string, std::string>>{
           {"vision", "members"}, {"prod", "members"}, {"vision", "admins"}}) {
    RoleBinding binding;
    binding.meta.name = name;
    binding.meta.namespace_name = ns;
    rbac.role_bindings.push_back(binding);
  }
  using Bindings = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(revocation_bindings(rbac, {"vision"}),
            (Bindings{{"vision", "members"}, {"vision", "admins"}}));
  EXPECT_TRUE(revocation_bindings(rbac, {}).empty());
}

}  // namespace
}  // namespace allot
