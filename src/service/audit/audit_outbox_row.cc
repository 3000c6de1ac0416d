#include "service/audit/audit_outbox_row.h"

#include <nlohmann/json.hpp>

namespace allot::audit {
namespace {

nlohmann::json outbox_object_ref_json(const governance::AuditObjectRef& ref) {
  return {{"resource", ref.resource},
          {"namespace", ref.namespace_name},
          {"name", ref.name},
          {"subresource", ref.subresource},
          {"apiGroup", ref.api_group}};
}

governance::AuditObjectRef outbox_object_ref_of(const nlohmann::json& json) {
  governance::AuditObjectRef ref;
  ref.resource = json.at("resource").get<std::string>();
  ref.namespace_name = json.at("namespace").get<std::string>();
  ref.name = json.at("name").get<std::string>();
  ref.subresource = json.at("subresource").get<std::string>();
  ref.api_group = json.at("apiGroup").get<std::string>();
  return ref;
}

governance::AuditEvent outbox_event_of(const nlohmann::json& json) {
  governance::AuditEvent event;
  event.audit_id = json.at("auditID").get<std::string>();
  event.stage = json.at("stage").get<std::string>();
  event.request_uri = json.at("requestURI").get<std::string>();
  event.verb = json.at("verb").get<std::string>();
  event.username = json.at("username").get<std::string>();
  event.groups = json.at("groups").get<std::vector<std::string>>();
  event.source_ips = json.at("sourceIPs").get<std::vector<std::string>>();
  if (json.contains("objectRef")) event.object_ref = outbox_object_ref_of(json.at("objectRef"));
  event.response_code = json.at("responseCode").get<int>();
  event.response_message = json.at("responseMessage").get<std::string>();
  event.decision = json.at("decision").get<std::string>();
  event.reason = json.at("reason").get<std::string>();
  event.rbac_rule = json.at("rbacRule").get<std::string>();
  event.request_received = Timestamp::from_millis(json.at("requestReceivedMs").get<int64_t>());
  event.stage_time = Timestamp::from_millis(json.at("stageTimeMs").get<int64_t>());
  return event;
}

}  // namespace

std::string outbox_row_document(const OutboxRow& row) {
  const governance::AuditEvent& event = row.event;
  nlohmann::json json = {{"afterSequence", row.after_sequence},
                         {"auditID", event.audit_id},
                         {"stage", event.stage},
                         {"requestURI", event.request_uri},
                         {"verb", event.verb},
                         {"username", event.username},
                         {"groups", event.groups},
                         {"sourceIPs", event.source_ips},
                         {"responseCode", event.response_code},
                         {"responseMessage", event.response_message},
                         {"decision", event.decision},
                         {"reason", event.reason},
                         {"rbacRule", event.rbac_rule},
                         {"requestReceivedMs", event.request_received.ms()},
                         {"stageTimeMs", event.stage_time.ms()}};
  if (event.object_ref) json["objectRef"] = outbox_object_ref_json(*event.object_ref);
  return json.dump();
}

Result<OutboxRow> parse_outbox_row(const std::string& name, const std::string& document) {
  const nlohmann::json json = nlohmann::json::parse(document, nullptr, false);
  const auto refused = [&name](const std::string& why) {
    return invalid_argument("stored AuditOutbox '" + name + "' " + why);
  };
  if (json.is_discarded() || !json.is_object()) return refused("is not a JSON object");
  OutboxRow row;
  try {
    row.after_sequence = json.at("afterSequence").get<uint64_t>();
    row.event = outbox_event_of(json);
  } catch (const nlohmann::json::exception& error) {
    return refused(std::string("is not an outbox row: ") + error.what());
  }
  if (row.event.audit_id != name) return refused("holds another record's auditID");
  return row;
}

}  // namespace allot::audit
