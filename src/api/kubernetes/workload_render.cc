#include "api/kubernetes/workload_render.h"

#include <string>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_parts.h"

namespace allot {
namespace {

using nlohmann::json;

json resources_json(const ResourceVector& resources) {
  json amounts = json::object();
  for (Resource resource : kAllResources) {
    if (resources[resource] == 0) continue;
    amounts[std::string(kubernetes_resource_name(resource))] =
        quantity_json(resource, resources[resource]);
  }
  return {{"requests", amounts}, {"limits", amounts}};
}

json pod_template(const Workload& workload, const PodSet& pod_set, const std::string& image,
                  const PriorityClass* priority, std::string_view container, bool indexed) {
  json env = json::array();
  for (const auto& [name, value] : workload.spec.env)
    env.push_back({{"name", name}, {"value", value}});
  if (workload.spec.checkpoint && !workload.spec.checkpoint->env.empty()) {
    env.push_back(
        {{"name", workload.spec.checkpoint->env}, {"value", "/checkpoints/" + workload.meta.name}});
  }
  // allot's pod index, as an Indexed Job numbers its pods (a PyTorchJob sets RANK).
  if (indexed)
    env.push_back({{"name", "ALLOT_POD_INDEX"},
                   {"valueFrom",
                    {{"fieldRef",
                      {{"fieldPath",
                        "metadata.annotations['batch.kubernetes.io/job-completion-index']"}}}}}});
  json main = {
      {"name", container}, {"image", image}, {"resources", resources_json(pod_set.resources)}};
  if (!workload.spec.command.empty()) main["command"] = workload.spec.command;
  if (!env.empty()) main["env"] = env;
  json spec = {{"containers", json::array({main})},
               {"restartPolicy", "Never"},
               {"serviceAccountName", "allot-workload"}};
  if (priority != nullptr) {
    spec["terminationGracePeriodSeconds"] = priority->preemption_grace_period.ms() / 1000;
  }
  return {{"spec", spec}};
}

json replica_spec(int32_t replicas, json pod) {
  return {{"replicas", replicas}, {"restartPolicy", "Never"}, {"template", std::move(pod)}};
}

json job_spec(const Workload& workload, const std::string& image, const PriorityClass* priority) {
  const PodSet& pods = workload.spec.pod_sets.front();
  json job = {{"suspend", true},
              {"parallelism", pods.count},
              {"completions", pods.count},
              {"completionMode", "Indexed"},
              {"backoffLimit", 0},
              {"template", pod_template(workload, pods, image, priority, pods.name, true)}};
  if (workload.spec.max_runtime)
    job["activeDeadlineSeconds"] = workload.spec.max_runtime->ms() / 1000;
  return job;
}

Result<json> pytorch_spec(const Workload& workload, const std::string& image,
                          const PriorityClass* priority) {
  const WorkloadSpec& spec = workload.spec;
  const PodSet& first = spec.pod_sets.front();
  if (spec.pod_sets.size() == 2 && first.count != 1) {
    return invalid_argument("the Master pod set of a PyTorchJob has one pod",
                            "spec.podSets[0].count");
  }
  json replicas = {{"Master", replica_spec(1, pod_template(workload, first, image, priority,
                                                           "pytorch", false))}};
  const PodSet& workers = spec.pod_sets.back();
  const int32_t worker_count = spec.pod_sets.size() == 2 ? workers.count : first.count - 1;
  if (worker_count > 0) {
    replicas["Worker"] = replica_spec(
        worker_count, pod_template(workload, workers, image, priority, "pytorch", false));
  }
  json run_policy = {{"suspend", true}};
  if (spec.max_runtime) run_policy["activeDeadlineSeconds"] = spec.max_runtime->ms() / 1000;
  return json{{"pytorchReplicaSpecs", replicas}, {"runPolicy", run_policy}};
}

}  // namespace

Result<KubernetesObject> render_workload(const Workload& workload, const Policy& policy,
                                         const std::string& image,
                                         const KubernetesRenderOptions& options) {
  const Team* team = policy.find_team_by_namespace(workload.meta.namespace_name);
  if (team == nullptr) {
    return invalid_argument("no team owns namespace " + workload.meta.namespace_name,
                            "metadata.namespace");
  }
  const WorkloadSpec& spec = workload.spec;
  const PriorityClass* priority = policy.find_priority_class(spec.priority_class);
  const bool training = spec.kind == WorkloadKind::kTrainingJob;
  if (!training && spec.kind != WorkloadKind::kJob) {
    return invalid_argument("only a Job or a TrainingJob is rendered for Kubernetes", "spec.kind");
  }
  const size_t limit = training ? 2 : 1;
  if (spec.pod_sets.empty() || spec.pod_sets.size() > limit) {
    return invalid_argument(training ? "a PyTorchJob is one or two pod sets (Master, Worker)"
                                     : "a Job has one pod template: one pod set",
                            "spec.podSets");
  }
  KubernetesObject object =
      make_object(training ? "kubeflow.org/v1" : "batch/v1", training ? "PyTorchJob" : "Job",
                  team_namespace(*team, options.naming), workload.meta.name);
  json labels = {{kQueueNameLabel, local_queue_name(*team, options.naming)},
                 {kTeamLabel, team->meta.name}};
  if (!spec.priority_class.empty()) {
    labels[kPriorityClassLabel] = priority_class_name(spec.priority_class, options.naming);
  }
  object.manifest["metadata"]["labels"] = labels;
  const PodSet& first = spec.pod_sets.front();
  if (!training && first.min_count > 0 && first.min_count < first.count) {
    // Kueue's partial admission: the Job may start with fewer pods.
    object.manifest["metadata"]["annotations"] = {
        {"kueue.x-k8s.io/job-min-parallelism", std::to_string(first.min_count)}};
  }
  if (!training) {
    object.manifest["spec"] = job_spec(workload, image, priority);
    return object;
  }
  ALLOT_ASSIGN_OR_RETURN(object.manifest["spec"], pytorch_spec(workload, image, priority));
  return object;
}

}  // namespace allot
