#include "api/team_document.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/resource_fields.h"

namespace allot {
namespace {

constexpr EnumName<ReclaimPolicy> kReclaimNames[] = {
    {"Never", ReclaimPolicy::kNever},
    {"LowerPriority", ReclaimPolicy::kLowerPriority},
    {"Any", ReclaimPolicy::kAny},
};

constexpr EnumName<WithinTeamPolicy> kWithinTeamNames[] = {
    {"Never", WithinTeamPolicy::kNever},
    {"LowerPriority", WithinTeamPolicy::kLowerPriority},
};

constexpr EnumName<BorrowWithinCohortPolicy> kBorrowWithinCohortNames[] = {
    {"Never", BorrowWithinCohortPolicy::kNever},
    {"LowerPriority", BorrowWithinCohortPolicy::kLowerPriority},
};

constexpr EnumName<QueueingStrategy> kQueueingNames[] = {
    {"BestEffortFIFO", QueueingStrategy::kBestEffortFifo},
    {"StrictFIFO", QueueingStrategy::kStrictFifo},
};

// borrowWithinCohort: {policy, maxPriorityThreshold}, into `preemption`.
Status read_borrow_within_cohort(const Field& field, TeamPreemption& preemption) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ALLOT_RETURN_IF_ERROR(
      map.read_enum("policy", preemption.borrow_within_cohort, kBorrowWithinCohortNames));
  ALLOT_RETURN_IF_ERROR(map.read("maxPriorityThreshold", preemption.borrow_max_priority_threshold,
                                 int_decoder<int32_t>()));
  return map.finish();
}

Result<TeamPreemption> decode_preemption(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  TeamPreemption preemption;
  ALLOT_RETURN_IF_ERROR(
      map.read_enum("reclaimWithinCohort", preemption.reclaim_within_cohort, kReclaimNames));
  ALLOT_RETURN_IF_ERROR(map.read_enum("withinTeam", preemption.within_team, kWithinTeamNames));
  if (std::optional<Field> borrow = map.get("borrowWithinCohort")) {
    ALLOT_RETURN_IF_ERROR(read_borrow_within_cohort(*borrow, preemption));
  }
  ALLOT_RETURN_IF_ERROR(map.finish());
  return preemption;
}

Result<TeamOwners> decode_owners(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  TeamOwners owners;
  ALLOT_RETURN_IF_ERROR(map.read_string("business", owners.business));
  ALLOT_RETURN_IF_ERROR(map.read_string("operations", owners.operations));
  ALLOT_RETURN_IF_ERROR(map.read_string("cost", owners.cost));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return owners;
}

// A Kubernetes namespace name is a DNS-1123 label: at most 63 characters, no dots.
constexpr size_t kMaxNamespaceLength = 63;

// network: {egressNamespaces: [namespace...]}, sorted; a repeated one is an error.
Result<TeamNetwork> decode_network(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  TeamNetwork network;
  if (std::optional<Field> list = map.get("egressNamespaces")) {
    ALLOT_ASSIGN_OR_RETURN(std::vector<Field> entries, list->elements());
    for (const Field& entry : entries) {
      ALLOT_ASSIGN_OR_RETURN(std::string name, entry.as_name());
      if (name.size() > kMaxNamespaceLength || name.find('.') != std::string::npos) {
        return entry.error("'" + name + "' is not a namespace name: at most 63 lowercase " +
                           "letters, digits and '-'");
      }
      if (std::find(network.egress_namespaces.begin(), network.egress_namespaces.end(), name) !=
          network.egress_namespaces.end()) {
        return entry.error("namespace '" + name + "' is listed twice");
      }
      network.egress_namespaces.push_back(std::move(name));
    }
  }
  ALLOT_RETURN_IF_ERROR(map.finish());
  std::sort(network.egress_namespaces.begin(), network.egress_namespaces.end());
  return network;
}

}  // namespace

Result<Team> decode_team(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Team team;
  team.namespace_name = meta.name;
  team.meta = std::move(meta);
  ALLOT_RETURN_IF_ERROR(map.read_name("namespace", team.namespace_name));
  ALLOT_RETURN_IF_ERROR(map.read_string("cohort", team.cohort));
  ALLOT_RETURN_IF_ERROR(map.read_number("fairShareWeight", team.fair_share_weight, 0));
  ALLOT_RETURN_IF_ERROR(map.read("quota", team.quota, decode_quota));
  ALLOT_RETURN_IF_ERROR(map.read("preemption", team.preemption, decode_preemption));
  ALLOT_RETURN_IF_ERROR(map.read_enum("queueingStrategy", team.queueing, kQueueingNames));
  ALLOT_RETURN_IF_ERROR(
      map.read_string_list("allowedPriorityClasses", team.allowed_priority_classes));
  ALLOT_RETURN_IF_ERROR(map.read("owners", team.owners, decode_owners));
  ALLOT_RETURN_IF_ERROR(map.read("network", team.network, decode_network));
  ALLOT_RETURN_IF_ERROR(map.read_string_map("storage", team.storage));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return team;
}

}  // namespace allot
