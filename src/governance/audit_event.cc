#include "governance/audit_event.h"

#include <array>
#include <string_view>

#include "base/utf8.h"

namespace allot::governance {
namespace {

void append_digits(std::string& out, int64_t value, int width) {
  const size_t start = out.size();
  out.append(static_cast<size_t>(width), '0');
  for (int i = width - 1; i >= 0 && value > 0; --i) {
    out[start + static_cast<size_t>(i)] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
}

// Days since 1970-01-01 to the civil date (H. Hinnant's algorithm).
void civil_from_days(int64_t days, int64_t& year, int64_t& month, int64_t& day) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const int64_t doe = days - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  day = doy - (153 * mp + 2) / 5 + 1;
  month = mp < 10 ? mp + 3 : mp - 9;
  year = yoe + era * 400 + (month <= 2 ? 1 : 0);
}

void append_string_array(std::string& out, const std::vector<std::string>& items) {
  out += '[';
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    append_json_string(out, items[i]);
  }
  out += ']';
}

void append_member(std::string& out, std::string_view key, std::string_view value) {
  out += ',';
  append_json_string(out, key);
  out += ':';
  append_json_string(out, value);
}

void append_object_ref(std::string& out, const AuditObjectRef& ref) {
  out += ",\"objectRef\":{";
  append_json_string(out, "resource");
  out += ':';
  append_json_string(out, ref.resource);
  if (!ref.namespace_name.empty()) append_member(out, "namespace", ref.namespace_name);
  if (!ref.name.empty()) append_member(out, "name", ref.name);
  if (!ref.subresource.empty()) append_member(out, "subresource", ref.subresource);
  if (!ref.api_group.empty()) append_member(out, "apiGroup", ref.api_group);
  out += '}';
}

void append_annotations(std::string& out, const AuditEvent& event) {
  if (event.decision.empty() && event.reason.empty() && event.rbac_rule.empty()) return;
  out += ",\"annotations\":{";
  bool first = true;
  const auto member = [&](std::string_view key, std::string_view value) {
    if (value.empty()) return;
    if (!first) out += ',';
    first = false;
    append_json_string(out, key);
    out += ':';
    append_json_string(out, value);
  };
  member("allot.dev/rbac-rule", event.rbac_rule);
  member("authorization.k8s.io/decision", event.decision);
  member("authorization.k8s.io/reason", event.reason);
  out += '}';
}

// The bytes append_json_string() cannot copy as they are: control
// characters, '"', '\\', DEL and every byte >= 0x80 (checked as UTF-8). One
// look-up a byte rather than four comparisons.
constexpr std::array<bool, 256> kNeedsCare = [] {
  std::array<bool, 256> care{};
  for (size_t byte = 0; byte < care.size(); ++byte) {
    care[byte] = byte < 0x20 || byte >= 0x7f || byte == '"' || byte == '\\';
  }
  return care;
}();

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  // Runs of bytes that need nothing are appended whole (one record holds
  // about 800 bytes of strings: a byte at a time was a call per byte).
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;  // where the run of bytes copied as they are starts
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (!kNeedsCare[byte]) {
      ++i;
      continue;
    }
    size_t length = 1;
    if (byte >= 0x80) {
      length = utf8_sequence_length(text, i);
      if (length > 0) {
        i += length;  // well-formed UTF-8: copied as it is
        continue;
      }
      length = 1;
    }
    out.append(text.substr(run, i - run));
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte >= 0x80) {
      out += kUtf8Replacement;  // not UTF-8: the line stays valid JSON
    } else {
      out += "\\u00";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    }
    i += length;
    run = i;
  }
  out.append(text.substr(run));
  out += '"';
}

void append_audit_time(std::string& out, Timestamp at) {
  const int64_t ms = at.ms();
  const int64_t days = (ms >= 0 ? ms : ms - 86'399'999) / 86'400'000;
  const int64_t in_day = ms - days * 86'400'000;
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  civil_from_days(days, year, month, day);
  append_digits(out, year, 4);
  out += '-';
  append_digits(out, month, 2);
  out += '-';
  append_digits(out, day, 2);
  out += 'T';
  append_digits(out, in_day / 3'600'000, 2);
  out += ':';
  append_digits(out, in_day / 60'000 % 60, 2);
  out += ':';
  append_digits(out, in_day / 1000 % 60, 2);
  out += '.';
  append_digits(out, in_day % 1000 * 1000, 6);
  out += 'Z';
}

std::string audit_time_text(Timestamp at) {
  std::string out;
  out.reserve(27);
  append_audit_time(out, at);
  return out;
}

std::string audit_line(const AuditRecord& record) {
  std::string out;
  out.reserve(1024);
  append_audit_line_header(out, record.sequence, record.previous_hash);
  append_audit_line_body(out, record.event);
  return out;
}

void append_audit_line_header(std::string& out, uint64_t sequence, std::string_view previous_hash) {
  out += "{\"sequence\":";
  out += std::to_string(sequence);
  out += ",\"previousHash\":";
  append_json_string(out, previous_hash);
}

void append_audit_line_body(std::string& out, const AuditEvent& event) {
  out += R"(,"apiVersion":"audit.k8s.io/v1","kind":"Event","level":"Metadata")";
  append_member(out, "auditID", event.audit_id);
  append_member(out, "stage", event.stage);
  append_member(out, "requestURI", event.request_uri);
  append_member(out, "verb", event.verb);
  out += ",\"user\":{\"username\":";
  append_json_string(out, event.username);
  out += ",\"groups\":";
  append_string_array(out, event.groups);
  out += "},\"sourceIPs\":";
  append_string_array(out, event.source_ips);
  if (event.object_ref) append_object_ref(out, *event.object_ref);
  out += ",\"responseStatus\":{\"code\":";
  out += std::to_string(event.response_code);
  if (!event.response_message.empty()) append_member(out, "message", event.response_message);
  out += '}';
  // The times need no escaping: written in place, no string of their own.
  out += ",\"requestReceivedTimestamp\":\"";
  append_audit_time(out, event.request_received);
  out += "\",\"stageTimestamp\":\"";
  append_audit_time(out, event.stage_time);
  out += '"';
  append_annotations(out, event);
  out += '}';
}

}  // namespace allot::governance
