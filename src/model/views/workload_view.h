// Read models of workloads that the service's use cases return and api/
// encodes (docs/api.md): one workload with the scheduler's explanation, a
// page of stored workloads, a query, and a workload's events.
//
// Contract: plain values, no behaviour. A WorkloadPage holds the stored
// encodings themselves (shared, immutable), so that a listing of 10,000 is
// served without re-encoding or copying them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/workload_document.h"
#include "model/workload_sort.h"
#include "model/workload_status.h"

namespace allot {

// Why a waiting workload waits, in words and as the scheduler's verdicts.
struct PendingExplanationView {
  std::optional<std::string> reason;      // "Unschedulable", a PendingReason name
  std::optional<std::string> preemption;  // a PreemptionVerdict name
  std::string message;
  std::optional<int64_t> queue_position;
  std::optional<Timestamp> estimated_start;

  friend bool operator==(const PendingExplanationView&, const PendingExplanationView&) = default;
};

struct WorkloadView {
  WorkloadDocument doc;
  // Only for waiting workloads (Pending, Preempted).
  std::optional<PendingExplanationView> explanation;

  friend bool operator==(const WorkloadView&, const WorkloadView&) = default;
};

struct WorkloadQuery {
  std::string namespace_name;         // empty: all
  std::vector<WorkloadPhase> phases;  // empty: all
  std::string team;
  std::string user;            // status.submittedBy; empty: any
  std::string priority_class;  // spec.priorityClass; empty: any
  size_t limit = 500;
  WorkloadSort sort;  // the default: uid order
  // From the `continue` token: the last workload of the page before (its
  // uid, and its place in a sort other than the default).
  uint64_t after_uid = 0;
  WorkloadSortValue after_value;
};

// The stored encoding of a workload (api/workload_json.h): immutable once
// made, shared by the table and the pages that serve it.
using StoredWorkload = std::shared_ptr<const std::string>;

struct WorkloadPage {
  std::vector<StoredWorkload> items;
  std::string continue_token;  // empty on the last page
};

struct WorkloadEventView {
  uint64_t sequence = 0;
  Timestamp time;
  std::string type;
  std::string reason;
  std::string message;

  friend bool operator==(const WorkloadEventView&, const WorkloadEventView&) = default;
};

// Up to a chunk of a pod's log from an offset.
struct LogChunk {
  std::string data;
  int64_t next_offset = 0;
  std::string path;
};

}  // namespace allot
