// AuditEvent: one record of the audit log (docs/governance.md), shaped like a
// Kubernetes `audit.k8s.io/v1` Event at level Metadata, and its canonical
// JSON line.
//
// Contract: plain values. audit_line() writes one line (no newline) whose
// first two members are allot's `sequence` and `previousHash` (the hash
// chain, hash_chain.h), then the Kubernetes fields in a fixed order: the
// same record always gives the same bytes, which is what the chain hashes.
// Strings are escaped as JSON (RFC 8259); control characters as \u00XX, so
// a line never holds a newline. Timestamps are RFC 3339 UTC with
// microseconds ("2026-12-03T09:25:05.123000Z"), as Kubernetes writes them.
// Empty optional members (objectRef, message, annotations) are left out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/time.h"

namespace allot::governance {

struct AuditObjectRef {
  std::string resource;  // "workloads", "auditevents", ...
  std::string namespace_name;
  std::string name;
  std::string subresource;
  std::string api_group;

  friend bool operator==(const AuditObjectRef&, const AuditObjectRef&) = default;
};

struct AuditEvent {
  std::string audit_id;
  std::string stage = "ResponseComplete";
  std::string request_uri;
  std::string verb;  // RBAC verb ("create", "delete", ...) or the control plane's ("admit", ...)
  std::string username;
  std::vector<std::string> groups;
  std::vector<std::string> source_ips;
  std::optional<AuditObjectRef> object_ref;
  int response_code = 0;
  std::string response_message;  // the reason of a refusal, or what happened
  // The authorizer's answer (annotations "authorization.k8s.io/decision" and
  // "authorization.k8s.io/reason") and the RBAC rule that allowed it
  // ("allot.dev/rbac-rule": binding, role and rule); empty when none applies.
  std::string decision;  // "allow", "forbid" or ""
  std::string reason;
  std::string rbac_rule;
  Timestamp request_received;
  Timestamp stage_time;

  friend bool operator==(const AuditEvent&, const AuditEvent&) = default;
};

// A chained record: the event with its place in the chain.
struct AuditRecord {
  uint64_t sequence = 0;      // 1, 2, ...
  std::string previous_hash;  // lower-case hex SHA-256 of the previous line
  AuditEvent event;
};

std::string audit_line(const AuditRecord& record);

// audit_line() in its two parts: the header (`{"sequence":N,"previousHash":
// "..."`), which only the chain's writer knows, and the rest (the event, to
// the closing brace), which a caller may build before it takes its turn in
// the chain. audit_line() is the header followed by the body.
void append_audit_line_header(std::string& out, uint64_t sequence, std::string_view previous_hash);
void append_audit_line_body(std::string& out, const AuditEvent& event);

// RFC 3339 UTC with microseconds, as in the line.
std::string audit_time_text(Timestamp at);
// The same, appended to `out` (no quotes).
void append_audit_time(std::string& out, Timestamp at);

// Appends `text` as a JSON string (quotes included) to `out`: control
// characters escaped, and each byte that does not start well-formed UTF-8
// (base/utf8.h) replaced with U+FFFD, as api/json_writer.h does, so that a
// line or outbox row stays valid JSON whatever bytes a request URI holds.
void append_json_string(std::string& out, std::string_view text);

}  // namespace allot::governance
