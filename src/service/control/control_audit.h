// The control plane's own decisions as audit records (docs/governance.md):
// every admission, preemption and eviction a change stores becomes one
// record of user "system:allotd" with verb "admit", "preempt" or "evict" on
// the workload, at the event's time, its message as the response message.
//
// Contract: control_audit_events() is pure: the records of the events of
// `batch` (in order) whose reason is Admitted, Preempted or Evicted; the
// workload's namespace and name come from `workloads` (the state the change
// was made on). ControlAuditSink receives them (AuditLog::record_async in
// allotd: appended at once, made durable by the log's next sync).
// system_audit_event() and exception_expiry_events() are pure too: one record of verb "expire" on
// resource policyexceptions for each exception in force before (`before`)
// and not at `now` (`after`), as the admission loop stops applying it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "governance/audit_event.h"
#include "service/control/live_workload.h"
#include "store/store.h"

namespace allot {

using ControlAuditSink = std::function<void(governance::AuditEvent)>;

std::vector<governance::AuditEvent> control_audit_events(const WriteBatch& batch,
                                                         const WorkloadTable& workloads);

// One record of allotd's own governance acts (a revoked contract's bindings
// removed and its work drained, a review falling due): user system:allotd,
// `verb` on `resource` (namespace may be empty), `message` as the response
// message, at `now`.
governance::AuditEvent system_audit_event(const std::string& verb, const std::string& resource,
                                          const std::string& namespace_name,
                                          const std::string& name, const std::string& message,
                                          Timestamp now);

std::vector<governance::AuditEvent> exception_expiry_events(const std::vector<std::string>& before,
                                                            const std::vector<std::string>& after,
                                                            Timestamp now);

}  // namespace allot
