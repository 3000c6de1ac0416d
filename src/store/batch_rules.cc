#include "store/batch_rules.h"

#include <string>

namespace allot {
namespace {
constexpr int64_t kMillion = 1'000'000;

// The audit outbox's sequences are in 1..kMaxWorkloadId (SQLite's integers).
Status validate_audit_outbox(const WriteBatch& batch) {
  if (batch.delete_audit_outbox_through > kMaxWorkloadId) {
    return invalid_argument(
        "an audit outbox sequence must be in 1.." + std::to_string(kMaxWorkloadId),
        "delete through " + std::to_string(batch.delete_audit_outbox_through));
  }
  for (const AuditOutboxRecord& row : batch.append_audit_outbox) {
    if (row.sequence == 0 || row.sequence > kMaxWorkloadId) {
      return invalid_argument(
          "an audit outbox sequence must be in 1.." + std::to_string(kMaxWorkloadId),
          "audit outbox row " + row.audit_id + " (sequence " + std::to_string(row.sequence) + ")");
    }
  }
  return {};
}

}  // namespace

Status validate_batch(const WriteBatch& batch) {
  for (const WorkloadRecord& workload : batch.put_workloads) {
    // The invalid id is the largest value: the upper bound refuses it too.
    if (workload.id.value() == 0 || workload.id.value() > kMaxWorkloadId) {
      return invalid_argument("a workload id must be in 1.." + std::to_string(kMaxWorkloadId),
                              "workload " + workload.namespace_name + "/" + workload.name +
                                  " (id " + std::to_string(workload.id.value()) + ")");
    }
  }
  // The `where` of an error is written only when there is one: a pass that
  // admits thousands of workloads validates as many allocations.
  for (const AllocationRecord& a : batch.put_allocations) {
    const auto where = [&a] {
      return "allocation of workload " + std::to_string(a.workload_id.value()) + " from " +
             std::to_string(a.start_ms);
    };
    if (a.workload_id.value() == 0 || a.workload_id.value() > kMaxWorkloadId) {
      return invalid_argument("a workload id must be in 1.." + std::to_string(kMaxWorkloadId),
                              where());
    }
    if (a.end_ms && *a.end_ms < a.start_ms) {
      return invalid_argument("an allocation cannot end before it starts", where());
    }
    if (a.own.any_negative() || a.borrowed.any_negative()) {
      return invalid_argument("an allocation's resources cannot be negative", where());
    }
  }
  for (const GpuUtilizationRecord& u : batch.put_gpu_utilization) {
    const auto where = [&u] {
      return "GPU utilisation of workload " + std::to_string(u.workload_id.value()) + " on " +
             u.gpu + " from " + std::to_string(u.start_ms);
    };
    if (u.workload_id.value() == 0 || u.workload_id.value() > kMaxWorkloadId) {
      return invalid_argument("a workload id must be in 1.." + std::to_string(kMaxWorkloadId),
                              where());
    }
    if (u.end_ms <= u.start_ms) {
      return invalid_argument("a GPU utilisation interval must end after it starts", where());
    }
    if (u.utilization_ppm < 0 || u.utilization_ppm > kMillion) {
      return invalid_argument("a GPU utilisation must be in 0..1,000,000 ppm", where());
    }
  }
  return validate_audit_outbox(batch);
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
