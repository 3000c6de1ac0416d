#include "scenario_fixture.h"

#include <algorithm>
#include <memory>
#include <set>

#include <gtest/gtest.h>

#include "backends/sim/virtual_executor.h"
#include "model/node_inventory.h"

namespace allot::testing {
namespace {

constexpr size_t kMaxViolationsKept = 20;

template <typename T>
const T& find_named(const std::vector<T>& items, std::string_view name, std::string_view kind) {
  for (const T& item : items) {
    if (item.name == name) {
      return item;
    }
  }
  ADD_FAILURE() << "no " << kind << " named " << name;
  static const T kEmpty{};
  return kEmpty;
}

LoadedScenario from_bundle(Result<ManifestBundle> bundle) {
  LoadedScenario loaded;
  if (!bundle.ok()) {
    ADD_FAILURE() << bundle.status().to_string();
    return loaded;
  }
  if (!bundle->scenario) {
    ADD_FAILURE() << "no Scenario document";
    return loaded;
  }
  loaded.policy = bundle->policy;
  loaded.scenario = *bundle->scenario;
  return loaded;
}

}  // namespace

LoadedScenario parse_scenario(std::string_view yaml) {
  return from_bundle(parse_manifests(yaml, "test"));
}

LoadedScenario load_example(std::string_view name) {
  return from_bundle(load_manifest_file(std::string(ALLOT_SOURCE_DIR) + "/examples/scenarios/" +
                                        std::string(name) + ".yaml"));
}

const WorkloadRecord& record_of(const SimulationReport& report, std::string_view name) {
  return find_named(report.workloads, name, "workload");
}
const TeamMetrics& team_of(const SimulationReport& report, std::string_view name) {
  return find_named(report.teams, name, "team");
}
const ClassMetrics& class_of(const SimulationReport& report, std::string_view name) {
  return find_named(report.classes, name, "priority class");
}

PlanInvariants::PlanInvariants(const Policy& policy) : nodes_(expand_node_pools(policy)) {
  Result<CompiledPolicy> compiled = CompiledPolicy::compile(policy, nodes_);
  if (compiled.ok()) {
    plain_.emplace(std::make_shared<const CompiledPolicy>(std::move(compiled).value()));
  }
}

SimulationOptions virtual_options() {
  SimulationOptions options;
  options.executor = sim::virtual_executor_factory();
  return options;
}

void PlanInvariants::attach(SimulationOptions& options) {
  options.on_cycle = [this](const Snapshot& snapshot, const Plan& plan) { check(snapshot, plan); };
}

void PlanInvariants::violation(const Snapshot& snapshot, std::string what) {
  if (violations_.size() < kMaxViolationsKept) {
    violations_.push_back("at " + std::to_string(snapshot.now.secs()) + "s: " + std::move(what));
  }
}

void PlanInvariants::check(const Snapshot& snapshot, const Plan& plan) {
  ++cycles_;
  std::map<uint64_t, const PendingWorkload*> pending;
  for (const PendingWorkload& workload : snapshot.pending) {
    pending[workload.id.value()] = &workload;
  }
  std::vector<ResourceVector> used = held_capacity(snapshot, plan, pending);
  check_preemptions(snapshot, plan);
  check_plain_path(snapshot, plan);
  check_admissions(snapshot, plan, pending, used);
  for (size_t node = 0; node < nodes_.size(); ++node) {
    if (!used[node].fits_in(nodes_[node].capacity)) {
      violation(snapshot, "node " + nodes_[node].name + " over capacity: " +
                              used[node].to_string() + " > " + nodes_[node].capacity.to_string());
    }
  }
}

std::vector<ResourceVector> PlanInvariants::held_capacity(
    const Snapshot& snapshot, const Plan& plan,
    const std::map<uint64_t, const PendingWorkload*>& pending) {
  // Evicted workloads lost their node, and victims without a grace period
  // stop at once: both free what they held before the plan's admissions.
  std::set<uint64_t> evicted;
  for (const Eviction& eviction : plan.evictions) {
    evicted.insert(eviction.workload.value());
  }
  for (const Preemption& preemption : plan.preemptions) {
    if (preemption.grace_period.ms() <= 0) evicted.insert(preemption.victim.value());
  }
  std::vector<ResourceVector> used(nodes_.size());
  for (const AdmittedWorkload& workload : snapshot.admitted) {
    if (pending.contains(workload.id.value())) {
      violation(snapshot, "workload " + std::to_string(workload.id.value()) +
                              " is both pending and admitted");
    }
    if (evicted.contains(workload.id.value())) {
      continue;
    }
    for (size_t s = 0; s < workload.assignment.size() && s < workload.pod_sets.size(); ++s) {
      for (const PodPlacement& pod : workload.assignment[s].pods) {
        used[pod.node.value()] += workload.pod_sets[s].per_pod;
      }
    }
  }
  return used;
}

void PlanInvariants::check_preemptions(const Snapshot& snapshot, const Plan& plan) {
  std::map<uint64_t, const AdmittedWorkload*> admitted;
  for (const AdmittedWorkload& workload : snapshot.admitted) {
    admitted[workload.id.value()] = &workload;
  }
  std::set<uint64_t> victims;
  for (const Preemption& preemption : plan.preemptions) {
    auto it = admitted.find(preemption.victim.value());
    if (it == admitted.end() || it->second->terminating) {
      violation(snapshot, "victim " + std::to_string(preemption.victim.value()) +
                              " is not a running, non-terminating workload");
    }
    if (!victims.insert(preemption.victim.value()).second) {
      violation(snapshot, "victim " + std::to_string(preemption.victim.value()) + " chosen twice");
    }
  }
}

void PlanInvariants::check_plain_path(const Snapshot& snapshot, const Plan& plan) {
  if (!plain_) return;
  const Plan plain = plain_->plan(snapshot);
  const bool same_actions =
      std::equal(plan.admissions.begin(), plan.admissions.end(), plain.admissions.begin(),
                 plain.admissions.end(),
                 [](const Admission& a, const Admission& b) {
                   return a.workload == b.workload && a.flavor == b.flavor &&
                          a.assignment == b.assignment && a.usage == b.usage;
                 }) &&
      std::equal(plan.preemptions.begin(), plan.preemptions.end(), plain.preemptions.begin(),
                 plain.preemptions.end(),
                 [](const Preemption& a, const Preemption& b) {
                   return a.victim == b.victim && a.beneficiary == b.beneficiary;
                 }) &&
      std::equal(plan.reservations.begin(), plan.reservations.end(), plain.reservations.begin(),
                 plain.reservations.end(), [](const Reservation& a, const Reservation& b) {
                   return a.workload == b.workload && a.nodes == b.nodes &&
                          a.starts_at == b.starts_at;
                 });
  const bool same_explanations = std::equal(
      plan.explanations.begin(), plan.explanations.end(), plain.explanations.begin(),
      plain.explanations.end(), [](const PendingExplanation& a, const PendingExplanation& b) {
        return a.workload == b.workload && a.reason == b.reason && a.flavor == b.flavor &&
               a.queue_position == b.queue_position && a.estimated_start == b.estimated_start;
      });
  if (!same_actions || !same_explanations) {
    violation(snapshot, std::string("the plan differs from the plain path's (") +
                            (same_actions ? "explanations" : "actions") + ")");
  }
}

void PlanInvariants::check_admissions(const Snapshot& snapshot, const Plan& plan,
                                      const std::map<uint64_t, const PendingWorkload*>& pending,
                                      std::vector<ResourceVector>& used) {
  std::set<uint64_t> admissions;
  for (const Admission& admission : plan.admissions) {
    const uint64_t id = admission.workload.value();
    auto request = pending.find(id);
    if (request == pending.end() || !admissions.insert(id).second) {
      violation(snapshot, "admission of " + std::to_string(id) + " is not of a pending workload");
      continue;
    }
    const std::vector<PodSetRequest>& pod_sets = request->second->pod_sets;
    for (size_t s = 0; s < admission.assignment.size() && s < pod_sets.size(); ++s) {
      for (const PodPlacement& pod : admission.assignment[s].pods) {
        const size_t node = pod.node.value();
        if (!snapshot.nodes.empty() && !snapshot.nodes[node].schedulable()) {
          violation(snapshot, "admission of " + std::to_string(id) + " on unschedulable node " +
                                  nodes_[node].name);
        }
        used[node] += pod_sets[s].per_pod;
      }
    }
  }
}

}  // namespace allot::testing
