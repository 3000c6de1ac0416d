// What allotd's HTTP edge writes to the audit log (docs/governance.md), and
// when.
//
// Contract:
// - is_audited(): every request that can change state (any method but GET,
//   HEAD and OPTIONS: applies, submits, cancels, deletes, cordons, token
//   issues and rotations, SCIM writes), every login (POST /api/v1/sessions,
//   which needs no token; the end of the web dashboard's OIDC login, GET
//   /ui/oidc/callback, whatever its answer), and every request answered 401
//   or 403, whatever its method. Reads that succeed are not recorded.
// - audit_event_of() is the record: the caller (or, for a login, who logged
//   in: the session's subject, or the name a password login gave; for the
//   OIDC callback the subject of the session cookie it set, and its path
//   without the query, which holds the authorization code), the verb
//   and object read from the path (api/v1[/namespaces/NS]/RESOURCE[/NAME
//   [/SUBRESOURCE]]), the answer's code and, for a refusal, its message; the
//   authorizer's decision for that verb and object (`access.review`) with the
//   binding, role and rule that allowed it. Never a body, a token or a
//   password.
// - finish_audited() records it durably before the answer leaves: with an
//   outbox and a request scope whose row a commit carried, the row in the
//   store is the durable copy and the record is appended without a sync of
//   its own (AuditOutbox::record); otherwise it is synced (AuditLog::record).
//   With a scope, the final record is the scope's provisional one (moved out
//   of it, RequestScope::take_provisional, not copied) completed with the
//   answer's code and message (the caller and the authorizer's decision the
//   request ran under), except for logins and 401/403 answers,
//   whose record is built from the answer (audit_event_of).
//   If the audit log cannot record it, the answer becomes 503
//   `audit_unavailable` instead: no 2xx without its record.
#pragma once

#include <string>

#include "base/time.h"
#include "governance/audit_event.h"
#include "server/http/http_message.h"
#include "service/audit/audit_log.h"
#include "service/audit/audit_outbox.h"
#include "service/control/access_control.h"

namespace allot::server {

bool is_audited(const HttpRequest& request, const HttpResponse& response);

// The verb and object of a request, as RBAC names them.
struct RequestAttributes {
  std::string verb;
  governance::AuditObjectRef object;
};
RequestAttributes request_attributes(const HttpRequest& request);

governance::AuditEvent audit_event_of(const HttpRequest& request, const HttpResponse& response,
                                      const AccessControl* access, Timestamp received,
                                      Timestamp done);

// The record of a request before its answer (no response code): what a
// commit of the request carries (service/audit/audit_outbox.h).
governance::AuditEvent provisional_audit_event(const HttpRequest& request,
                                               const AccessControl* access, Timestamp received);

// Records the request when is_audited(); see above.
// `outbox` and `scope` may be null.
void finish_audited(audit::AuditLog& log, audit::AuditOutbox* outbox, audit::RequestScope* scope,
                    const AccessControl* access, const HttpRequest& request, HttpResponse& response,
                    Timestamp received);

}  // namespace allot::server
