// Workload transitions: every change of a live workload goes through here,
// so that the stored record, its encoding and its events stay in step.
//
// Contract: enter_phase() sets the phase, reason and message, stamps the
// times the phase implies, re-encodes the workload and appends its record and
// one event (type = the phase's name) to the batch. note() records an event
// that does not change the phase ("Normal"/"Warning"), re-encoding too.
#pragma once

#include <string>

#include "base/time.h"
#include "service/control/live_workload.h"
#include "store/store.h"

namespace allot {

void enter_phase(LiveWorkload& workload, WorkloadPhase phase, std::string reason,
                 std::string message, Timestamp now, WriteBatch& batch);

void note(LiveWorkload& workload, const char* type, std::string reason, std::string message,
          Timestamp now, WriteBatch& batch);

// Re-encodes `workload.stored` from its document (its stored stop taken from
// its run) and appends the record.
void store_record(LiveWorkload& workload, WriteBatch& batch);

// The record of a workload's current document (encodes it).
WorkloadRecord make_record(const LiveWorkload& workload);

}  // namespace allot
