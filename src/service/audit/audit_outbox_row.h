// The document of an audit outbox row (audit_outbox.h): a request's audit
// record, as it was when the request's change was committed, and the chain's
// last sequence at that moment.
//
// Contract: outbox_row_document() and parse_outbox_row() are inverses for
// every AuditEvent (timestamps in milliseconds). The document is written in
// format 2: a JSON array of the record's fields by position, led by the
// version 2, without member names, without the auditID (the row's name holds
// it) and without the authorizer's reason where it repeats the RBAC rule
// (docs/governance.md, "The outbox row"). parse_outbox_row() also reads the
// format 1 documents an allotd before format 2 wrote (a JSON object with
// named members, the auditID among them). It returns kInvalidArgument,
// naming the row, for a document it did not write.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "governance/audit_event.h"

namespace allot::audit {

struct OutboxRow {
  // Records with a sequence <= after_sequence were in the log before the
  // row's commit, so the row's own record, if written, comes after them.
  uint64_t after_sequence = 0;
  governance::AuditEvent event;  // event.audit_id is the row's name
};

std::string outbox_row_document(const OutboxRow& row);
// The same, without a copy of the event.
std::string outbox_row_document(uint64_t after_sequence, const governance::AuditEvent& event);
Result<OutboxRow> parse_outbox_row(const std::string& name, const std::string& document);

}  // namespace allot::audit
