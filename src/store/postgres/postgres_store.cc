#include "store/postgres/postgres_store.h"

#include <utility>

#include "store/batch_rules.h"
#include "store/postgres/pg_schema.h"

namespace allot {

Result<std::unique_ptr<PostgresStore>> PostgresStore::open(const std::string& conninfo,
                                                           int64_t leader_term) {
  auto opened = [&]() -> Result<std::unique_ptr<PostgresStore>> {
    ALLOT_ASSIGN_OR_RETURN(PgConnection write_db, PgConnection::connect(conninfo));
    ALLOT_RETURN_IF_ERROR(migrate_postgres_schema(write_db));
    ALLOT_ASSIGN_OR_RETURN(PgConnection read_db, PgConnection::connect(conninfo));
    return std::unique_ptr<PostgresStore>(new PostgresStore(
        PgBatchWriter(std::move(write_db), leader_term), PgStateReader(std::move(read_db))));
  }();
  if (!opened.ok()) {
    const Status cause = opened.status();
    return Status(cause.code(), "cannot open the PostgreSQL store: " + cause.message(),
                  cause.details());
  }
  return opened;
}

PostgresStore::PostgresStore(PgBatchWriter writer, PgStateReader reader)
    : reader_(std::move(reader)),
      writer_(std::move(writer)),
      committer_([this](const std::vector<GroupCommitter::Pending*>& group) {
        return commit_group(group);
      }) {}

PostgresStore::~PostgresStore() = default;

Result<StoredState> PostgresStore::load() {
  std::lock_guard lock(reader_mutex_);
  return reader_.load();
}

Result<std::vector<EventRecord>> PostgresStore::events(WorkloadId workload_id, uint64_t after) {
  std::lock_guard lock(reader_mutex_);
  return reader_.events(workload_id, after);
}

Status PostgresStore::commit(WriteBatch batch) {
  ALLOT_RETURN_IF_ERROR(validate_batch(batch));
  if (batch.empty()) return {};
  return committer_.commit(std::move(batch));
}

bool PostgresStore::commit_group(const std::vector<GroupCommitter::Pending*>& group) {
  if (Status begun = writer_.begin(); !begun.ok()) {
    GroupCommitter::fail_group(group, "the store could not start a transaction", begun);
    return false;
  }
  for (GroupCommitter::Pending* pending : group) {
    pending->status = writer_.apply(pending->batch);
    // A savepoint that could not be undone leaves nothing safe to commit.
    if (!writer_.in_transaction()) {
      writer_.rollback();
      GroupCommitter::fail_group(group, "the store lost its transaction", pending->status);
      return false;
    }
  }
  if (Status committed = writer_.commit(); !committed.ok()) {
    writer_.rollback();
    GroupCommitter::fail_group(group, "the store could not commit", committed);
    return false;
  }
  return true;
}

uint64_t PostgresStore::transactions_committed() const {
  return committer_.transactions_committed();
}

void PostgresStore::pause_writer() { committer_.pause(); }

void PostgresStore::resume_writer() { committer_.resume(); }

void PostgresStore::wait_until_queued(size_t count) { committer_.wait_until_queued(count); }

}  // namespace allot
