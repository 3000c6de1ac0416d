#include "service/audit/audit_outbox.h"

#include <algorithm>
#include <iterator>
#include <tuple>

#include "service/audit/audit_outbox_row.h"
#include "service/audit/audit_reading.h"

namespace allot::audit {
namespace {

// The request scope of this thread (the innermost one).
thread_local RequestScope* t_audit_outbox_scope = nullptr;

constexpr size_t kAuditOutboxPrunePerBatch = 256;

constexpr std::string_view kAuditOutboxRecoveredMessage =
    "recovered at start from the store's audit outbox: the change was committed, and allotd "
    "stopped before the answer was recorded";

ObjectKey audit_outbox_key(const std::string& audit_id) {
  return ObjectKey{std::string(kAuditOutboxKind), audit_id};
}

}  // namespace

RequestScope::RequestScope(AuditOutbox& outbox, governance::AuditEvent provisional)
    : outbox_(outbox), provisional_(std::move(provisional)), outer_(t_audit_outbox_scope) {
  if (provisional_.audit_id.empty())
    provisional_.audit_id = random_audit_id(provisional_.request_received);
  t_audit_outbox_scope = this;
}

RequestScope::~RequestScope() { t_audit_outbox_scope = outer_; }

OutboxAttachment AuditOutbox::attach(WriteBatch& batch) {
  OutboxAttachment attachment;
  RequestScope* scope = t_audit_outbox_scope;
  if (scope != nullptr && &scope->outbox_ == this && !scope->carried_) {
    batch.put_objects.push_back({std::string(kAuditOutboxKind), scope->provisional_.audit_id,
                                 outbox_row_document(log_.written(), scope->provisional_)});
    scope->carried_ = true;
    attachment.scope = scope;
  }
  const uint64_t covered = log_.checkpointed();
  std::lock_guard lock(mu_);
  while (!appended_.empty() && appended_.front().first <= covered &&
         attachment.pruned.size() < kAuditOutboxPrunePerBatch) {
    batch.delete_objects.push_back(audit_outbox_key(appended_.front().second));
    attachment.pruned.push_back(std::move(appended_.front()));
    appended_.pop_front();
  }
  return attachment;
}

void AuditOutbox::settle(OutboxAttachment attachment, const Status& outcome) {
  if (outcome.ok()) return;
  if (attachment.scope != nullptr) attachment.scope->carried_ = false;
  std::lock_guard lock(mu_);
  appended_.insert(appended_.begin(), std::make_move_iterator(attachment.pruned.begin()),
                   std::make_move_iterator(attachment.pruned.end()));
}

Status AuditOutbox::record(const RequestScope* scope, governance::AuditEvent event) {
  if (scope != nullptr) event.audit_id = scope->provisional_.audit_id;
  if (scope == nullptr || !scope->carried_) return log_.record(std::move(event));
  std::string audit_id = event.audit_id;
  ALLOT_ASSIGN_OR_RETURN(const uint64_t sequence, log_.append_committed(std::move(event)));
  std::lock_guard lock(mu_);
  appended_.emplace_back(sequence, std::move(audit_id));
  return {};
}

Status AuditOutbox::recover(const std::vector<ObjectRecord>& rows, Store& store) {
  if (rows.empty()) return {};
  std::vector<OutboxRow> parsed;
  parsed.reserve(rows.size());
  for (const ObjectRecord& row : rows) {
    ALLOT_ASSIGN_OR_RETURN(OutboxRow one, parse_outbox_row(row.name, row.document));
    parsed.push_back(std::move(one));
  }
  std::sort(parsed.begin(), parsed.end(), [](const OutboxRow& a, const OutboxRow& b) {
    return std::tie(a.after_sequence, a.event.request_received, a.event.audit_id) <
           std::tie(b.after_sequence, b.event.request_received, b.event.audit_id);
  });
  ALLOT_ASSIGN_OR_RETURN(const auto in_log,
                         audit_ids_after(log_.options().dir, parsed.front().after_sequence));
  size_t appended = 0;
  WriteBatch deletes;
  for (OutboxRow& row : parsed) {
    deletes.delete_objects.push_back(audit_outbox_key(row.event.audit_id));
    if (in_log.contains(row.event.audit_id)) continue;
    row.event.stage = "RequestReceived";
    row.event.response_message = std::string(kAuditOutboxRecoveredMessage);
    ALLOT_RETURN_IF_ERROR(log_.record_async(std::move(row.event)));
    ++appended;
  }
  // Every row's record is now in the log; synced and covered before the rows go.
  ALLOT_RETURN_IF_ERROR(log_.checkpoint_if_due(true));
  ALLOT_RETURN_IF_ERROR(store.commit(std::move(deletes)));
  if (appended > 0) {
    logger_.warn("audit log: appended the records of committed requests that were not in it",
                 {{"records", std::to_string(appended)}});
  }
  return {};
}

size_t AuditOutbox::rows_to_prune() const {
  std::lock_guard lock(mu_);
  return appended_.size();
}

}  // namespace allot::audit
