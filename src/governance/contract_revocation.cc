#include "governance/contract_revocation.h"

#include <algorithm>
#include <utility>

namespace allot {
namespace {

bool revocation_in_force(const std::map<std::string, ContractStatus>& statuses,
                         const std::string& name) {
  const auto found = statuses.find(name);
  if (found == statuses.end()) return false;
  return found->second.phase == ContractPhase::kActive ||
         found->second.phase == ContractPhase::kUnderReview;
}

}  // namespace

std::vector<std::string> revocation_namespaces(
    const Policy& policy, const std::map<std::string, ContractStatus>& statuses,
    const std::string& contract) {
  const auto revoked = std::find_if(policy.contracts.begin(), policy.contracts.end(),
                                    [&](const Contract& c) { return c.meta.name == contract; });
  if (revoked == policy.contracts.end()) return {};
  std::vector<std::string> drained;
  for (const std::string& ns : revoked->spec.namespaces) {
    const bool kept =
        std::any_of(policy.contracts.begin(), policy.contracts.end(), [&](const Contract& other) {
          const auto& names = other.spec.namespaces;
          return other.meta.name != contract && revocation_in_force(statuses, other.meta.name) &&
                 std::find(names.begin(), names.end(), ns) != names.end();
        });
    if (!kept && std::find(drained.begin(), drained.end(), ns) == drained.end()) {
      drained.push_back(ns);
    }
  }
  return drained;
}

std::vector<std::pair<std::string, std::string>> revocation_bindings(
    const RbacPolicy& rbac, const std::vector<std::string>& namespaces) {
  std::vector<std::pair<std::string, std::string>> bindings;
  for (const RoleBinding& binding : rbac.role_bindings) {
    const std::string& ns = binding.meta.namespace_name;
    if (std::find(namespaces.begin(), namespaces.end(), ns) != namespaces.end()) {
      bindings.emplace_back(ns, binding.meta.name);
    }
  }
  return bindings;
}

}  // namespace allot
