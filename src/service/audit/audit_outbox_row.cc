#include "service/audit/audit_outbox_row.h"

#include <stdexcept>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot::audit {
namespace {

// The row's document is written by hand (governance::append_json_string), not
// through nlohmann::json: one is written per audited request, on its path.
// Format 2 (the header's contract): the fields by position.
constexpr int kRowFormat = 2;
constexpr std::string_view kDefaultStage = "ResponseComplete";

// Where `reason` ends with the RBAC rule as the authorizer writes it
// (": BINDING grants ROLE (RULE)", the rule being "BINDING grants ROLE:
// RULE"): the position in `rule` of the ": " that splits it; npos if not.
size_t rule_split_in_reason(std::string_view reason, std::string_view rule) {
  const size_t tail_size = rule.size() + 3;  // ": " + head + " (" + rest + ")"
  if (reason.size() < tail_size) return std::string_view::npos;
  const std::string_view tail = reason.substr(reason.size() - tail_size);
  if (!tail.starts_with(": ") || !tail.ends_with(')')) return std::string_view::npos;
  for (size_t at = rule.find(": "); at != std::string_view::npos; at = rule.find(": ", at + 1)) {
    if (tail.substr(2, at) == rule.substr(0, at) && tail.substr(2 + at, 2) == " (" &&
        tail.substr(4 + at, rule.size() - at - 2) == rule.substr(at + 2)) {
      return at;
    }
  }
  return std::string_view::npos;
}

// The reason: a string, or [its text before the rule, the rule's split].
void append_row_reason(std::string& out, const governance::AuditEvent& event) {
  const size_t split = rule_split_in_reason(event.reason, event.rbac_rule);
  if (split == std::string_view::npos) {
    governance::append_json_string(out, event.reason);
    return;
  }
  out += '[';
  const size_t prefix_size = event.reason.size() - event.rbac_rule.size() - 3;
  governance::append_json_string(out, std::string_view(event.reason).substr(0, prefix_size));
  out += ',';
  out += std::to_string(split);
  out += ']';
}

std::string reason_of(const nlohmann::json& json, const std::string& rule) {
  if (json.is_string()) return json.get<std::string>();
  const std::string prefix = json.at(0).get<std::string>();
  const size_t split = json.at(1).get<size_t>();
  if (split + 2 > rule.size() || rule.compare(split, 2, ": ") != 0) {
    throw std::out_of_range("the reason's split is not in the RBAC rule");
  }
  return prefix + ": " + rule.substr(0, split) + " (" + rule.substr(split + 2) + ")";
}

void append_row_strings(std::string& out, const std::vector<std::string>& items) {
  out += ",[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    governance::append_json_string(out, items[i]);
  }
  out += ']';
}

void append_row_string(std::string& out, std::string_view value) {
  out += ',';
  governance::append_json_string(out, value);
}

void append_row_object_ref(std::string& out, const governance::AuditObjectRef& ref) {
  out += ",[";
  governance::append_json_string(out, ref.resource);
  append_row_string(out, ref.namespace_name);
  append_row_string(out, ref.name);
  append_row_string(out, ref.subresource);
  append_row_string(out, ref.api_group);
  out += ']';
}

// The positions of format 2's fields.
enum RowField : size_t {
  kFormat,
  kAfterSequence,
  kStage,
  kRequestUri,
  kVerb,
  kUsername,
  kGroups,
  kSourceIps,
  kResponseCode,
  kResponseMessage,
  kDecision,
  kReason,
  kRbacRule,
  kReceivedMs,
  kStageAfterMs,
  kObjectRef,  // absent: no object
};

governance::AuditEvent row_event_of(const nlohmann::json& row) {
  governance::AuditEvent event;
  const nlohmann::json& stage = row.at(kStage);
  event.stage = stage.is_null() ? std::string(kDefaultStage) : stage.get<std::string>();
  event.request_uri = row.at(kRequestUri).get<std::string>();
  event.verb = row.at(kVerb).get<std::string>();
  event.username = row.at(kUsername).get<std::string>();
  event.groups = row.at(kGroups).get<std::vector<std::string>>();
  event.source_ips = row.at(kSourceIps).get<std::vector<std::string>>();
  event.response_code = row.at(kResponseCode).get<int>();
  event.response_message = row.at(kResponseMessage).get<std::string>();
  event.decision = row.at(kDecision).get<std::string>();
  event.rbac_rule = row.at(kRbacRule).get<std::string>();
  event.reason = reason_of(row.at(kReason), event.rbac_rule);
  const int64_t received = row.at(kReceivedMs).get<int64_t>();
  event.request_received = Timestamp::from_millis(received);
  event.stage_time = Timestamp::from_millis(received + row.at(kStageAfterMs).get<int64_t>());
  if (row.size() > kObjectRef) {
    const nlohmann::json& ref = row.at(kObjectRef);
    event.object_ref = governance::AuditObjectRef{
        ref.at(0).get<std::string>(), ref.at(1).get<std::string>(), ref.at(2).get<std::string>(),
        ref.at(3).get<std::string>(), ref.at(4).get<std::string>()};
  }
  return event;
}

// A format 2 row; throws nlohmann::json::exception or std::out_of_range for
// one it did not write.
OutboxRow row_of(const std::string& name, const nlohmann::json& row) {
  if (row.size() != kObjectRef && row.size() != kObjectRef + 1) {
    throw std::out_of_range("holds " + std::to_string(row.size()) + " fields");
  }
  if (row.at(kFormat).get<int>() != kRowFormat) throw std::out_of_range("has another format");
  OutboxRow parsed;
  parsed.after_sequence = row.at(kAfterSequence).get<uint64_t>();
  parsed.event = row_event_of(row);
  parsed.event.audit_id = name;
  return parsed;
}

// Format 1 (an allotd before format 2): named members, the auditID among them.
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
  out.reserve(384);
  out += '[';
  out += std::to_string(kRowFormat);
  out += ',';
  out += std::to_string(after_sequence);
  if (event.stage == kDefaultStage) {
    out += ",null";
  } else {
    append_row_string(out, event.stage);
  }
  append_row_string(out, event.request_uri);
  append_row_string(out, event.verb);
  append_row_string(out, event.username);
  append_row_strings(out, event.groups);
  append_row_strings(out, event.source_ips);
  out += ',';
  out += std::to_string(event.response_code);
  append_row_string(out, event.response_message);
  append_row_string(out, event.decision);
  out += ',';
  append_row_reason(out, event);
  append_row_string(out, event.rbac_rule);
  out += ',';
  out += std::to_string(event.request_received.ms());
  out += ',';
  out += std::to_string(event.stage_time.ms() - event.request_received.ms());
  if (event.object_ref) append_row_object_ref(out, *event.object_ref);
  out += ']';
  return out;
}

Result<OutboxRow> parse_outbox_row(const std::string& name, const std::string& document) {
  const nlohmann::json json = nlohmann::json::parse(document, nullptr, false);
  const auto refused = [&name](const std::string& why) {
    return invalid_argument("stored AuditOutbox '" + name + "' " + why);
  };
  if (json.is_discarded() || !(json.is_array() || json.is_object())) {
    return refused("is not a JSON array or object");
  }
  OutboxRow row;
  try {
    if (json.is_array()) return row_of(name, json);  // format 2
    row.after_sequence = json.at("afterSequence").get<uint64_t>();
    row.event = outbox_event_of(json);
  } catch (const nlohmann::json::exception& error) {
    return refused(std::string("is not an outbox row: ") + error.what());
  } catch (const std::out_of_range& error) {
    return refused(std::string("is not an outbox row: ") + error.what());
  }
  if (row.event.audit_id != name) return refused("holds another record's auditID");
  return row;
}

}  // namespace allot::audit
