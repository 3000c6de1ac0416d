#include "service/study/unfit_jobs.h"

#include <algorithm>
#include <map>
#include <utility>

#include "model/node_inventory.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/team_ceiling.h"

namespace allot {
namespace {

struct FlavorRoom {
  int64_t total_gpus = 0;
  int64_t largest_node = 0;
};

std::vector<FlavorRoom> flavor_rooms(const CompiledPolicy& policy) {
  std::vector<FlavorRoom> rooms(static_cast<size_t>(policy.flavor_count()));
  for (const CompiledNode& node : policy.nodes()) {
    FlavorRoom& room = rooms[static_cast<size_t>(node.flavor.value())];
    room.total_gpus += node.node.capacity.gpu();
    room.largest_node = std::max(room.largest_node, node.node.capacity.gpu());
  }
  return rooms;
}

// How many GPUs of `flavor` the team may ever hold (kNoLimit when ungoverned).
int64_t team_gpu_ceiling(const std::vector<ResourceCeiling>& ceilings, FlavorIndex flavor) {
  for (const ResourceCeiling& ceiling : ceilings) {
    if (ceiling.flavor == flavor && ceiling.resource == Resource::kGpu) {
      return ceiling.amount;
    }
  }
  return kNoLimit;
}

// The job's fit over the team's flavors; nullopt when some flavor can hold it.
std::optional<UnfitJob> check_fit(const CompiledPolicy& policy, TeamIndex team, const PodSet& gang,
                                  const std::vector<FlavorRoom>& rooms) {
  const int64_t pod_gpus = gang.resources[Resource::kGpu];
  const int64_t gpus = pod_gpus * gang.count;
  const std::vector<ResourceCeiling> ceilings = team_ceiling(policy, team);
  UnfitJob unfit;
  unfit.gpus = gpus;
  for (const FlavorIndex flavor : policy.team(team).flavor_order) {
    const FlavorRoom& room = rooms[static_cast<size_t>(flavor.value())];
    const int64_t ceiling = team_gpu_ceiling(ceilings, flavor);
    const int64_t cluster = pod_gpus > room.largest_node ? 0 : room.total_gpus;
    if (gpus <= ceiling && gpus <= cluster) {
      return std::nullopt;
    }
    const int64_t limit = std::min(ceiling, cluster);
    if (limit >= unfit.limit) {
      unfit.limit = limit;
      unfit.reason = ceiling <= cluster ? UnfitReason::kTeamLimit : UnfitReason::kCluster;
    }
  }
  return unfit;
}

int32_t priority_value(const Policy& policy, const TraceJob& job, int32_t lowest) {
  if (!job.priority_class) {
    return lowest;
  }
  const PriorityClass* priority_class = policy.find_priority_class(*job.priority_class);
  return priority_class == nullptr ? lowest : priority_class->value;
}

// Lines of the jobs of `ns` after `job` (by submit time, then line) whose
// priority is not above its own.
std::vector<int64_t> blocked_by(const std::vector<TraceJob>& jobs, const TraceJob& job,
                                const std::vector<std::string>& namespaces, const std::string& ns,
                                const Policy& policy, int32_t lowest) {
  std::vector<int64_t> lines;
  const int32_t value = priority_value(policy, job, lowest);
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TraceJob& other = jobs[i];
    const bool later =
        other.submit > job.submit || (other.submit == job.submit && other.line > job.line);
    if (later && namespaces[i] == ns && priority_value(policy, other, lowest) <= value) {
      lines.push_back(other.line);
    }
  }
  return lines;
}

int32_t lowest_priority(const Policy& policy) {
  int32_t lowest = 0;
  for (size_t i = 0; i < policy.priority_classes.size(); ++i) {
    lowest = i == 0 ? policy.priority_classes[i].value
                    : std::min(lowest, policy.priority_classes[i].value);
  }
  return lowest;
}

}  // namespace

Result<std::vector<UnfitJob>> unfit_jobs(const std::vector<TraceJob>& jobs, const Policy& policy,
                                         const TraceArrivalOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(const CompiledPolicy compiled,
                         CompiledPolicy::compile(policy, expand_node_pools(policy)));
  const std::vector<FlavorRoom> rooms = flavor_rooms(compiled);
  const int32_t lowest = lowest_priority(policy);
  // "" for a job that trace_arrivals skips.
  std::vector<std::string> namespaces(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const TraceJob& job = jobs[i];
    std::string ns = team_namespace(job.team, options.namespace_prefix);
    if (job.gpus > 0 && job.duration > Duration() && compiled.team_by_namespace(ns).valid()) {
      namespaces[i] = std::move(ns);
    }
  }
  std::vector<UnfitJob> unfit;
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (namespaces[i].empty()) {
      continue;
    }
    const TeamIndex team = compiled.team_by_namespace(namespaces[i]);
    std::optional<UnfitJob> job =
        check_fit(compiled, team, trace_gang(jobs[i].gpus, options.gpus_per_node), rooms);
    if (!job) {
      continue;
    }
    job->line = jobs[i].line;
    job->namespace_name = namespaces[i];
    if (compiled.team(team).queueing == QueueingStrategy::kStrictFifo) {
      job->blocked_lines = blocked_by(jobs, jobs[i], namespaces, namespaces[i], policy, lowest);
    }
    unfit.push_back(std::move(*job));
  }
  return unfit;
}

}  // namespace allot
