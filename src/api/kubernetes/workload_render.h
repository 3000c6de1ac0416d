// Workload rendering: one allot Workload as the Kubernetes object Kueue
// admits (`allot export kubernetes workload NAME`, docs/kubernetes.md).
//
// Contract: a Job (kind Job) becomes a batch/v1 Job of one pod set (its count
// as parallelism and completions, Indexed); a TrainingJob becomes a
// kubeflow.org/v1 PyTorchJob: one pod set of N pods is a Master and N-1
// Workers, two pod sets are Master (count 1) and Worker. Either carries the
// labels kueue.x-k8s.io/queue-name (the team's LocalQueue) and
// kueue.x-k8s.io/priority-class, is created suspended, and each container
// requests and is limited to the pod set's resources, runs `image` with the
// workload's command and env, the checkpoint variable (pointing under
// /checkpoints/<workload>) and the priority class's grace period as
// terminationGracePeriodSeconds; maxRuntimeSeconds is activeDeadlineSeconds.
// Other kinds, a Job of several pod sets, or a workload of no team are
// invalid_argument naming the field. Pure.
#pragma once

#include <string>

#include "api/kubernetes/kubernetes_render.h"
#include "base/result.h"
#include "model/policy.h"
#include "model/workload.h"

namespace allot {

Result<KubernetesObject> render_workload(const Workload& workload, const Policy& policy,
                                         const std::string& image,
                                         const KubernetesRenderOptions& options);

}  // namespace allot
