#include "governance/contract_reviews.h"

#include <algorithm>
#include <utility>

#include "governance/contract_lifecycle.h"

namespace allot {
namespace {

bool review_active(const std::map<std::string, ContractStatus>& statuses, const std::string& name) {
  const auto found = statuses.find(name);
  return found != statuses.end() && found->second.phase == ContractPhase::kActive;
}

const Contract* review_contract(const Policy& policy, const std::string& name) {
  for (const Contract& contract : policy.contracts) {
    if (contract.meta.name == name) return &contract;
  }
  return nullptr;
}

std::vector<NodePool> review_pools(const Policy& policy, const std::string& cluster) {
  std::vector<NodePool> pools;
  for (const NodePool& pool : policy.node_pools) {
    if (pool.cluster == cluster) pools.push_back(pool);
  }
  std::sort(pools.begin(), pools.end(),
            [](const NodePool& a, const NodePool& b) { return a.meta.name < b.meta.name; });
  return pools;
}

// Why the contract's cluster changed between the two policies ("" if not).
std::string cluster_change(const Policy& before, const Policy& after, const std::string& name) {
  std::vector<std::string> why;
  if (review_pools(before, name) != review_pools(after, name)) {
    why.push_back("cluster " + name + "'s capacity changed");
  }
  const Cluster* was = before.find_cluster(name);
  const Cluster* is = after.find_cluster(name);
  if (was != nullptr && is != nullptr) {
    if (was->orchestrator_version != is->orchestrator_version) {
      why.push_back("cluster " + name + "'s orchestrator version changed from '" +
                    was->orchestrator_version + "' to '" + is->orchestrator_version + "'");
    }
    if (was->max_data_classification != is->max_data_classification) {
      why.push_back("cluster " + name + "'s maxDataClassification changed from '" +
                    was->max_data_classification + "' to '" + is->max_data_classification + "'");
    }
  }
  std::string text;
  for (const std::string& part : why) text += (text.empty() ? "" : "; ") + part;
  return text;
}

std::vector<std::string> organization_levels(const Policy& policy) {
  const Organization* org = policy.organization();
  return org == nullptr ? std::vector<std::string>() : org->data_classifications;
}

}  // namespace

std::vector<ReviewDue> interval_reviews_due(const Policy& policy,
                                            const std::map<std::string, ContractStatus>& statuses,
                                            Timestamp now) {
  std::vector<ReviewDue> due;
  for (const Contract& contract : policy.contracts) {
    if (!review_active(statuses, contract.meta.name)) continue;
    const std::optional<ReviewSchedule> schedule =
        review_schedule(contract.spec, statuses.at(contract.meta.name));
    if (!schedule || schedule->due > now) continue;
    due.push_back(
        {contract.meta.name,
         "the review interval of " + contract.spec.review_interval.to_string() + " has passed"});
  }
  return due;
}

std::vector<ReviewDue> event_reviews_due(const Policy& before, const Policy& after,
                                         const std::map<std::string, ContractStatus>& statuses) {
  std::vector<ReviewDue> due;
  const bool levels_changed = organization_levels(before) != organization_levels(after);
  for (const Contract& contract : after.contracts) {
    const std::string& name = contract.meta.name;
    const Contract* was = review_contract(before, name);
    if (was == nullptr || !review_active(statuses, name)) continue;
    std::vector<std::string> why;
    if (const std::optional<std::string> fields =
            reviewable_spec_change(was->spec, contract.spec)) {
      why.push_back("its spec changed (" + *fields + ")");
    }
    if (std::string cluster = cluster_change(before, after, contract.spec.cluster.name);
        !cluster.empty()) {
      why.push_back(std::move(cluster));
    }
    if (levels_changed) why.push_back("the Organization's data classifications changed");
    if (why.empty()) continue;
    std::string reason;
    for (const std::string& part : why) reason += (reason.empty() ? "" : "; ") + part;
    due.push_back({name, std::move(reason)});
  }
  return due;
}

std::vector<ReviewDue> coverage_reviews_due(const Policy& policy,
                                            const std::map<std::string, ContractStatus>& statuses,
                                            const std::vector<std::string>& signals_without_data) {
  std::vector<ReviewDue> due;
  for (const Contract& contract : policy.contracts) {
    if (!review_active(statuses, contract.meta.name)) continue;
    std::string reason;
    for (const std::string& signal : contract.spec.monitoring_signals) {
      if (std::find(signals_without_data.begin(), signals_without_data.end(), signal) ==
          signals_without_data.end()) {
        continue;
      }
      reason += (reason.empty() ? "monitoring coverage dropped: " : "; ") +
                ("signal " + signal + " has no data");
    }
    if (!reason.empty()) due.push_back({contract.meta.name, std::move(reason)});
  }
  return due;
}

std::optional<std::string> reviewable_spec_change(const ContractSpec& before,
                                                  const ContractSpec& after) {
  ContractSpec rest = after;
  std::string fields;
  const auto take = [&](const char* field, auto ContractSpec::*member) {
    if (rest.*member == before.*member) return;
    fields += (fields.empty() ? "" : ", ") + std::string(field);
    rest.*member = before.*member;
  };
  take("owners", &ContractSpec::owners);
  take("schedulingPolicyOwner", &ContractSpec::scheduling_policy_owner);
  take("exceptionOwner", &ContractSpec::exception_owner);
  take("projectRole", &ContractSpec::project_role);
  take("accessRole", &ContractSpec::access_role);
  take("dataClassification", &ContractSpec::data_classification);
  take("reviewWebhook", &ContractSpec::review_webhook);
  take("monitoringSignals", &ContractSpec::monitoring_signals);
  if (fields.empty() || !(rest == before)) return std::nullopt;
  return fields;
}

}  // namespace allot
