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
  for (const AllocationRecord& a : batch.put_allocations) {
    const std::string where = "allocation of workload " + std::to_string(a.workload_id.value()) +
                              " from " + std::to_string(a.start_ms);
    if (a.workload_id.value() == 0 || a.workload_id.value() > kMaxWorkloadId) {
      return invalid_argument("a workload id must be in 1.." + std::to_string(kMaxWorkloadId),
                              where);
    }
    if (a.end_ms && *a.end_ms < a.start_ms) {
      return invalid_argument("an allocation cannot end before it starts", where);
    }
    if (a.own.any_negative() || a.borrowed.any_negative()) {
      return invalid_argument("an allocation's resources cannot be negative", where);
    }
  }
  return {};
}

bool overlaps(const AllocationRecord& allocation, int64_t from_ms, int64_t to_ms) {
  return allocation.start_ms < to_ms && (!allocation.end_ms || *allocation.end_ms > from_ms);
}

Status workload_name_taken(const WorkloadRecord& workload) {
  return {ErrorCode::kAlreadyExists,
          "workload \"" + workload.namespace_name + "/" + workload.name +
              "\" already exists with another id",
          "workload id " + std::to_string(workload.id.value())};
}

}  // namespace allot
