#include "service/audit/audit_outbox_row.h"

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot::audit {
namespace {

// The row's document is written by hand (governance::append_json_string), not
// through nlohmann::json: one is written per audited request, on its path.
void append_outbox_member(std::string& out, std::string_view key, std::string_view value) {
  out += ',';
  governance::append_json_string(out, key);
  out += ':';
  governance::append_json_string(out, value);
}

void append_outbox_number(std::string& out, std::string_view key, int64_t value) {
  out += ',';
  governance::append_json_string(out, key);
  out += ':';
  out += std::to_string(value);
}

void append_outbox_strings(std::string& out, std::string_view key,
                           const std::vector<std::string>& items) {
  out += ',';
  governance::append_json_string(out, key);
  out += ":[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    governance::append_json_string(out, items[i]);
  }
  out += ']';
}

void append_outbox_object_ref(std::string& out, const governance::AuditObjectRef& ref) {
  out += R"(,"objectRef":{"resource":)";
  governance::append_json_string(out, ref.resource);
  append_outbox_member(out, "namespace", ref.namespace_name);
  append_outbox_member(out, "name", ref.name);
  append_outbox_member(out, "subresource", ref.subresource);
  append_outbox_member(out, "apiGroup", ref.api_group);
  out += '}';
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
  return outbox_row_document(row.after_sequence, row.event);
}

std::string outbox_row_document(uint64_t after_sequence, const governance::AuditEvent& event) {
  std::string out;
  out.reserve(768);
  out += R"({"afterSequence":)";
  out += std::to_string(after_sequence);
  append_outbox_member(out, "auditID", event.audit_id);
  append_outbox_member(out, "stage", event.stage);
  append_outbox_member(out, "requestURI", event.request_uri);
  append_outbox_member(out, "verb", event.verb);
  append_outbox_member(out, "username", event.username);
  append_outbox_strings(out, "groups", event.groups);
  append_outbox_strings(out, "sourceIPs", event.source_ips);
  append_outbox_number(out, "responseCode", event.response_code);
  append_outbox_member(out, "responseMessage", event.response_message);
  append_outbox_member(out, "decision", event.decision);
  append_outbox_member(out, "reason", event.reason);
  append_outbox_member(out, "rbacRule", event.rbac_rule);
  append_outbox_number(out, "requestReceivedMs", event.request_received.ms());
  append_outbox_number(out, "stageTimeMs", event.stage_time.ms());
  if (event.object_ref) append_outbox_object_ref(out, *event.object_ref);
  out += '}';
  return out;
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
