#include "service/audit/outbox_store.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace allot::audit {

Result<StoredState> OutboxStore::load() {
  ALLOT_ASSIGN_OR_RETURN(StoredState state, inner_.load());
  std::vector<ObjectRecord> rows;  // kept by an allotd before the outbox table
  const auto first_row = std::stable_partition(
      state.objects.begin(), state.objects.end(),
      [](const ObjectRecord& object) { return object.kind != kAuditOutboxKind; });
  rows.assign(std::make_move_iterator(first_row), std::make_move_iterator(state.objects.end()));
  state.objects.erase(first_row, state.objects.end());
  ALLOT_RETURN_IF_ERROR(
      outbox_.recover(state.audit_outbox, state.audit_outbox_floor, rows, inner_));
  state.audit_outbox.clear();
  return state;
}

Status OutboxStore::commit(WriteBatch batch) {
  OutboxAttachment attachment = outbox_.attach(batch);
  Status outcome = inner_.commit(std::move(batch));
  outbox_.settle(attachment, outcome);
  return outcome;
}

std::future<Status> OutboxStore::queue_commit(WriteBatch batch) {
  // A queued batch's failure ends allotd (audit_outbox.h): nothing to settle.
  (void)outbox_.attach(batch);
  return inner_.queue_commit(std::move(batch));
}

}  // namespace allot::audit
