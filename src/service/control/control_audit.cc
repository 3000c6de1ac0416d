#include "service/control/control_audit.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace allot {
namespace {

std::string_view verb_of(std::string_view reason) {
  if (reason == "Admitted") return "admit";
  if (reason == "Preempted") return "preempt";
  if (reason == "Evicted") return "evict";
  return {};
}

}  // namespace

std::vector<governance::AuditEvent> control_audit_events(const WriteBatch& batch,
                                                         const WorkloadTable& workloads) {
  std::vector<governance::AuditEvent> out;
  for (const EventRecord& record : batch.events) {
    const std::string_view verb = verb_of(record.reason);
    if (verb.empty()) continue;
    governance::AuditEvent event;
    event.verb = std::string(verb);
    event.username = "system:allotd";
    event.groups = {"system:admins"};
    governance::AuditObjectRef ref{"workloads", "", "", "", "allot.dev"};
    if (const LiveWorkload* live = workloads.find(record.workload_id)) {
      ref.namespace_name = live->doc.workload.meta.namespace_name;
      ref.name = live->doc.workload.meta.name;
      event.request_uri = "/api/v1/namespaces/" + ref.namespace_name + "/workloads/" + ref.name;
    }
    event.object_ref = std::move(ref);
    event.response_code = 200;
    event.response_message = record.reason + ": " + record.message;
    event.request_received = Timestamp::from_millis(record.at_ms);
    event.stage_time = event.request_received;
    out.push_back(std::move(event));
  }
  return out;
}

governance::AuditEvent system_audit_event(const std::string& verb, const std::string& resource,
                                          const std::string& namespace_name,
                                          const std::string& name, const std::string& message,
                                          Timestamp now) {
  governance::AuditEvent event;
  event.verb = verb;
  event.username = "system:allotd";
  event.groups = {"system:admins"};
  event.object_ref = governance::AuditObjectRef{resource, namespace_name, name, "", "allot.dev"};
  event.request_uri = "/api/v1/" +
                      (namespace_name.empty() ? "" : "namespaces/" + namespace_name + "/") +
                      resource + "/" + name;
  event.response_code = 200;
  event.response_message = message;
  event.request_received = now;
  event.stage_time = now;
  return event;
}

std::vector<governance::AuditEvent> exception_expiry_events(const std::vector<std::string>& before,
                                                            const std::vector<std::string>& after,
                                                            Timestamp now) {
  std::vector<governance::AuditEvent> out;
  for (const std::string& name : before) {
    if (std::find(after.begin(), after.end(), name) != after.end()) continue;
    governance::AuditEvent event;
    event.verb = "expire";
    event.username = "system:allotd";
    event.groups = {"system:admins"};
    event.object_ref = governance::AuditObjectRef{"policyexceptions", "", name, "", "allot.dev"};
    event.request_uri = "/api/v1/policyexceptions/" + name;
    event.response_code = 200;
    event.response_message =
        "PolicyException " + name + " expired: the scheduler plans without it from this cycle";
    event.request_received = now;
    event.stage_time = now;
    out.push_back(std::move(event));
  }
  return out;
}

}  // namespace allot
