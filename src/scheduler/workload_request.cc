#include "scheduler/workload_request.h"

#include <algorithm>
#include <string>

namespace allot {
namespace {

std::string pod_set_field(size_t index, std::string_view field) {
  return "spec.podSets[" + std::to_string(index) + "]." + std::string(field);
}

// True when some node of `flavor` can hold one pod of `per_pod`.
bool some_node_holds(const CompiledPolicy& policy, FlavorIndex flavor,
                     const ResourceVector& per_pod) {
  return std::any_of(policy.nodes().begin(), policy.nodes().end(), [&](const CompiledNode& n) {
    return n.flavor == flavor && per_pod.fits_in(n.node.capacity);
  });
}

bool team_uses_flavor(const CompiledTeam& team, FlavorIndex flavor) {
  return std::find(team.flavor_order.begin(), team.flavor_order.end(), flavor) !=
         team.flavor_order.end();
}

Status check_priority_class(const CompiledPolicy& policy, const CompiledTeam& team,
                            const std::string& name, PriorityClassIndex* out) {
  if (name.empty()) {
    if (policy.priority_classes().empty()) {
      return invalid_argument("no priority class given and none is defined", "spec.priorityClass");
    }
    // The lowest-valued class is the default, as a cautious choice.
    auto lowest =
        std::min_element(policy.priority_classes().begin(), policy.priority_classes().end(),
                         [](const auto& a, const auto& b) { return a.value < b.value; });
    *out = PriorityClassIndex(static_cast<uint16_t>(lowest - policy.priority_classes().begin()));
  } else {
    *out = policy.priority_class_by_name(name);
    if (!out->valid()) {
      return not_found("unknown PriorityClass '" + name + "'", "spec.priorityClass");
    }
  }
  if (!team.allowed_classes.empty() &&
      std::find(team.allowed_classes.begin(), team.allowed_classes.end(), *out) ==
          team.allowed_classes.end()) {
    return Status(ErrorCode::kPermissionDenied,
                  "team '" + team.name + "' may not use PriorityClass '" +
                      policy.priority_class(*out).name + "'",
                  "spec.priorityClass");
  }
  return {};
}

Status convert_pod_set(const CompiledPolicy& policy, const CompiledTeam& team, const PodSet& in,
                       size_t index, PodSetRequest* out) {
  if (in.count < 1) {
    return invalid_argument("count must be at least 1", pod_set_field(index, "count"));
  }
  if (in.min_count < 0 || in.min_count > in.count) {
    return invalid_argument(
        "minCount must be between 1 and count (" + std::to_string(in.count) + ")",
        pod_set_field(index, "minCount"));
  }
  if (in.resources.any_negative()) {
    return invalid_argument("resources must not be negative", pod_set_field(index, "resources"));
  }
  out->count = in.count;
  out->min_count = in.effective_min_count();
  out->per_pod = in.resources;
  if (!in.flavor.empty()) {
    out->required_flavor = policy.flavor_by_name(in.flavor);
    if (!out->required_flavor.valid()) {
      return not_found("unknown ResourceFlavor '" + in.flavor + "'",
                       pod_set_field(index, "flavor"));
    }
    if (!team_uses_flavor(team, out->required_flavor)) {
      return failed_precondition(
          "team '" + team.name + "' has no quota in flavor '" + in.flavor + "'",
          pod_set_field(index, "flavor"));
    }
  }
  const bool fits_somewhere =
      std::any_of(team.flavor_order.begin(), team.flavor_order.end(), [&](FlavorIndex f) {
        return (!out->required_flavor.valid() || f == out->required_flavor) &&
               some_node_holds(policy, f, in.resources);
      });
  if (!fits_somewhere) {
    return failed_precondition(
        "one pod (" + in.resources.to_string() + ") is larger than every node the team can use",
        pod_set_field(index, "resources"));
  }
  return {};
}

// A Space is suspended after idleTimeoutSeconds without activity
// (docs/spaces.md): it needs one; no other kind is ever suspended, so none
// may declare one.
Status check_idle_timeout(const WorkloadSpec& spec) {
  const char* field = "spec.idleTimeoutSeconds";
  if (spec.kind == WorkloadKind::kSpace) {
    if (!spec.idle_timeout) {
      return invalid_argument("a Space needs idleTimeoutSeconds (how long it may be idle)", field);
    }
    if (spec.idle_timeout->ms() <= 0) {
      return invalid_argument("idleTimeoutSeconds must be positive", field);
    }
  } else if (spec.idle_timeout) {
    return invalid_argument(
        "idleTimeoutSeconds applies only to kind Space (only a Space is "
        "suspended when idle)",
        field);
  }
  return {};
}

}  // namespace

Result<PendingWorkload> make_pending_workload(const CompiledPolicy& policy,
                                              const Workload& workload, WorkloadId id,
                                              Timestamp queued_at) {
  PendingWorkload out;
  out.id = id;
  out.queued_at = queued_at;
  out.team = policy.team_by_namespace(workload.meta.namespace_name);
  if (!out.team.valid()) {
    return not_found("no team owns namespace '" + workload.meta.namespace_name + "'",
                     "metadata.namespace");
  }
  const CompiledTeam& team = policy.team(out.team);
  if (team.flavor_order.empty()) {
    return failed_precondition("team '" + team.name + "' has no quota in any flavor",
                               "metadata.namespace");
  }
  ALLOT_RETURN_IF_ERROR(
      check_priority_class(policy, team, workload.spec.priority_class, &out.priority_class));
  out.priority = policy.priority_class(out.priority_class).value;
  if (workload.spec.pod_sets.empty()) {
    return invalid_argument("a workload needs at least one pod set", "spec.podSets");
  }
  FlavorIndex pinned;
  for (size_t i = 0; i < workload.spec.pod_sets.size(); ++i) {
    PodSetRequest request;
    ALLOT_RETURN_IF_ERROR(convert_pod_set(policy, team, workload.spec.pod_sets[i], i, &request));
    if (request.required_flavor.valid()) {
      if (pinned.valid() && pinned != request.required_flavor) {
        return invalid_argument("pod sets of one workload must run on one flavor",
                                pod_set_field(i, "flavor"));
      }
      pinned = request.required_flavor;
    }
    out.pod_sets.push_back(request);
  }
  if (workload.spec.max_runtime.has_value()) {
    if (workload.spec.max_runtime->ms() <= 0) {
      return invalid_argument("maxRuntimeSeconds must be positive", "spec.maxRuntimeSeconds");
    }
    out.max_runtime = *workload.spec.max_runtime;
  }
  ALLOT_RETURN_IF_ERROR(check_idle_timeout(workload.spec));
  return out;
}

namespace {

bool same_team_requests(const CompiledTeam& a, const CompiledTeam& b) {
  return a.name == b.name && a.namespace_name == b.namespace_name &&
         a.flavor_order == b.flavor_order && a.allowed_classes == b.allowed_classes;
}

bool same_node_requests(const CompiledNode& a, const CompiledNode& b) {
  return a.flavor == b.flavor && a.node.capacity == b.node.capacity;
}

}  // namespace

bool same_workload_requests(const CompiledPolicy& a, const CompiledPolicy& b) {
  if (a.flavor_count() != b.flavor_count()) return false;
  for (int32_t f = 0; f < a.flavor_count(); ++f) {
    const FlavorIndex flavor(static_cast<uint16_t>(f));
    if (a.flavor_name(flavor) != b.flavor_name(flavor)) return false;
  }
  const auto same_class = [](const CompiledPriorityClass& x, const CompiledPriorityClass& y) {
    return x.name == y.name && x.value == y.value;
  };
  return std::equal(a.teams().begin(), a.teams().end(), b.teams().begin(), b.teams().end(),
                    same_team_requests) &&
         std::equal(a.priority_classes().begin(), a.priority_classes().end(),
                    b.priority_classes().begin(), b.priority_classes().end(), same_class) &&
         std::equal(a.nodes().begin(), a.nodes().end(), b.nodes().begin(), b.nodes().end(),
                    same_node_requests);
}

}  // namespace allot
