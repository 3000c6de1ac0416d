#include "service/audit/audit_outbox.h"

#include <algorithm>
#include <tuple>

#include "service/audit/audit_outbox_row.h"
#include "service/audit/audit_reading.h"

namespace allot::audit {
namespace {

// The request scope of this thread (the innermost one).
thread_local RequestScope* t_audit_outbox_scope = nullptr;

constexpr std::string_view kAuditOutboxRecoveredMessage =
    "recovered at start from the store's audit outbox: the change was committed, and allotd "
    "stopped before the answer was recorded";

}  // namespace

RequestScope::RequestScope(AuditOutbox& outbox, governance::AuditEvent provisional)
    : outbox_(outbox), provisional_(std::move(provisional)), outer_(t_audit_outbox_scope) {
  if (provisional_.audit_id.empty())
    provisional_.audit_id = outbox_.log().new_audit_id(provisional_.request_received);
  // Built here, before the request takes any lock for its change: attach()
  // runs under the control plane's exclusive lock and only moves it in.
  document_ = outbox_row_document(outbox_.log().written(), provisional_);
  t_audit_outbox_scope = this;
}

RequestScope::~RequestScope() { t_audit_outbox_scope = outer_; }

governance::AuditEvent RequestScope::take_provisional() {
  governance::AuditEvent event = std::move(provisional_);
  provisional_ = governance::AuditEvent{};
  provisional_.audit_id = event.audit_id;
  return event;
}

OutboxAttachment AuditOutbox::attach(WriteBatch& batch) {
  OutboxAttachment attachment;
  RequestScope* scope = t_audit_outbox_scope;
  if (scope != nullptr && &scope->outbox_ == this && !scope->carried_) {
    // A commit that failed took the document with its batch: built again.
    std::string document = scope->document_.empty()
                               ? outbox_row_document(log_.written(), scope->provisional_)
                               : std::move(scope->document_);
    scope->document_.clear();
    {
      std::lock_guard lock(mu_);
      if (rows_.empty()) first_row_ = next_row_;
      scope->row_ = next_row_++;
      rows_.push_back(kNotAppended);
    }
    // It may ride in the row of a workload the batch puts (store.h): the
    // commit then writes no page for it alone.
    const WorkloadId with_workload =
        batch.put_workloads.empty() ? WorkloadId() : batch.put_workloads.front().id;
    batch.append_audit_outbox.push_back(
        {scope->row_, scope->provisional_.audit_id, std::move(document), with_workload});
    scope->carried_ = true;
    attachment.scope = scope;
  }
  const uint64_t covered = log_.checkpointed();
  std::lock_guard lock(mu_);
  prune_into(batch, covered, attachment);
  return attachment;
}

void AuditOutbox::prune_into(WriteBatch& batch, uint64_t covered, OutboxAttachment& attachment) {
  // Rows leave the table from its start once covered (a detached one at
  // once); a row still waiting for its record stops the range below it.
  while (!rows_.empty() && rows_.front() <= covered) {
    covered_through_ = first_row_++;
    rows_.pop_front();
  }
  if (covered_through_ <= pruned_through_) return;
  batch.delete_audit_outbox_through = covered_through_;
  attachment.pruned_through = covered_through_;
  attachment.pruned_before = pruned_through_;
  pruned_through_ = covered_through_;
}

void AuditOutbox::settle(OutboxAttachment attachment, const Status& outcome) {
  if (outcome.ok()) return;
  std::lock_guard lock(mu_);
  if (attachment.scope != nullptr) {
    attachment.scope->carried_ = false;
    if (uint64_t* row = row_of(attachment.scope->row_)) *row = kDetached;
  }
  // The range is deleted again by a later batch (a delete that another batch
  // already made deletes nothing).
  if (attachment.pruned_through != 0) {
    pruned_through_ = std::min(pruned_through_, attachment.pruned_before);
  }
}

Status AuditOutbox::record(const RequestScope* scope, governance::AuditEvent event) {
  if (scope != nullptr) event.audit_id = scope->provisional_.audit_id;
  if (scope == nullptr || !scope->carried_) return log_.record(std::move(event));
  ALLOT_ASSIGN_OR_RETURN(const uint64_t sequence, log_.append_committed(std::move(event)));
  std::lock_guard lock(mu_);
  if (uint64_t* row = row_of(scope->row_)) *row = sequence;
  return {};
}

namespace {

Result<std::vector<OutboxRow>> parse_rows(const std::vector<AuditOutboxRecord>& rows,
                                          const std::vector<ObjectRecord>& legacy) {
  std::vector<OutboxRow> parsed;
  parsed.reserve(rows.size() + legacy.size());
  for (const AuditOutboxRecord& row : rows) {
    ALLOT_ASSIGN_OR_RETURN(OutboxRow one, parse_outbox_row(row.audit_id, row.document));
    parsed.push_back(std::move(one));
  }
  for (const ObjectRecord& row : legacy) {
    ALLOT_ASSIGN_OR_RETURN(OutboxRow one, parse_outbox_row(row.name, row.document));
    parsed.push_back(std::move(one));
  }
  std::sort(parsed.begin(), parsed.end(), [](const OutboxRow& a, const OutboxRow& b) {
    return std::tie(a.after_sequence, a.event.request_received, a.event.audit_id) <
           std::tie(b.after_sequence, b.event.request_received, b.event.audit_id);
  });
  return parsed;
}

}  // namespace

Status AuditOutbox::recover(const std::vector<AuditOutboxRecord>& rows, uint64_t floor,
                            const std::vector<ObjectRecord>& legacy, Store& store) {
  const uint64_t highest = rows.empty() ? 0 : rows.back().sequence;  // ordered by sequence
  {
    std::lock_guard lock(mu_);
    next_row_ = std::max({next_row_, highest + 1, floor + 1});
  }
  if (rows.empty() && legacy.empty()) return {};
  ALLOT_ASSIGN_OR_RETURN(std::vector<OutboxRow> parsed, parse_rows(rows, legacy));
  ALLOT_ASSIGN_OR_RETURN(const auto in_log,
                         audit_ids_after(log_.options().dir, parsed.front().after_sequence));
  size_t appended = 0;
  for (OutboxRow& row : parsed) {
    if (in_log.contains(row.event.audit_id)) continue;
    row.event.stage = "RequestReceived";
    row.event.response_message = std::string(kAuditOutboxRecoveredMessage);
    ALLOT_RETURN_IF_ERROR(log_.record_async(std::move(row.event)));
    ++appended;
  }
  // Every row's record is now in the log; synced and covered before the rows go.
  ALLOT_RETURN_IF_ERROR(log_.checkpoint_if_due(true));
  WriteBatch deletes;
  deletes.delete_audit_outbox_through = highest;
  for (const ObjectRecord& row : legacy) deletes.delete_objects.push_back({row.kind, row.name});
  ALLOT_RETURN_IF_ERROR(store.commit(std::move(deletes)));
  if (appended > 0) {
    logger_.warn("audit log: appended the records of committed requests that were not in it",
                 {{"records", std::to_string(appended)}});
  }
  return {};
}

uint64_t* AuditOutbox::row_of(uint64_t row) {
  if (row < first_row_ || row - first_row_ >= rows_.size()) return nullptr;
  return &rows_[row - first_row_];
}

size_t AuditOutbox::rows_to_prune() const {
  std::lock_guard lock(mu_);
  return static_cast<size_t>(
      std::count_if(rows_.begin(), rows_.end(), [](uint64_t row) { return row != kDetached; }));
}

}  // namespace allot::audit
