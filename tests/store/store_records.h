// Small builders of store records for the store tests.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "model/ids.h"
#include "store/store.h"

namespace allot {

// Ids in test listings and failures as their number, not gtest's dump of the bytes.
inline void PrintTo(const WorkloadId& id, std::ostream* out) {
  if (id.valid()) {
    *out << "WorkloadId(" << id.value() << ")";
  } else {
    *out << "WorkloadId::invalid()";
  }
}

}  // namespace allot

namespace allot::store_test {

inline WorkloadRecord workload_record(WorkloadId id, std::string namespace_name, std::string name,
                                      WorkloadPhase phase = WorkloadPhase::kPending) {
  WorkloadRecord record;
  record.id = id;
  record.team = "team-" + namespace_name;
  record.namespace_name = std::move(namespace_name);
  record.name = std::move(name);
  record.phase = phase;
  record.document = "{\"id\":" + std::to_string(id.value()) + "}";
  return record;
}

inline EventRecord event_record(WorkloadId workload_id, std::string reason, int64_t at_ms = 0) {
  EventRecord event;
  event.workload_id = workload_id;
  event.at_ms = at_ms;
  event.type = "Normal";
  event.message = "because " + reason;
  event.reason = std::move(reason);
  return event;
}

inline WriteBatch put_workloads(std::vector<WorkloadRecord> workloads) {
  WriteBatch batch;
  batch.put_workloads = std::move(workloads);
  return batch;
}

inline WriteBatch put_objects(std::vector<ObjectRecord> objects) {
  WriteBatch batch;
  batch.put_objects = std::move(objects);
  return batch;
}

inline WriteBatch append_events(std::vector<EventRecord> events) {
  WriteBatch batch;
  batch.events = std::move(events);
  return batch;
}

}  // namespace allot::store_test
