#include "store/batch_rules.h"

#include <string>

namespace allot {

Status validate_batch(const WriteBatch& batch) {
  for (const WorkloadRecord& workload : batch.put_workloads) {
    // The invalid id is the largest value: the upper bound refuses it too.
    if (workload.id.value() == 0 || workload.id.value() > kMaxWorkloadId) {
      return invalid_argument("a workload id must be in 1.." + std::to_string(kMaxWorkloadId),
                              "workload " + workload.namespace_name + "/" + workload.name +
                                  " (id " + std::to_string(workload.id.value()) + ")");
    }
  }
  return {};
}

Status workload_name_taken(const WorkloadRecord& workload) {
  return {ErrorCode::kAlreadyExists,
          "workload \"" + workload.namespace_name + "/" + workload.name +
              "\" already exists with another id",
          "workload id " + std::to_string(workload.id.value())};
}

}  // namespace allot
