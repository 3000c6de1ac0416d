#include "store/postgres/postgres_store.h"

#include <utility>

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
        return GroupCommitter::write_in_one_transaction(writer_, group);
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

Result<std::vector<AllocationRecord>> PostgresStore::allocations(int64_t from_ms, int64_t to_ms) {
  std::lock_guard lock(reader_mutex_);
  return reader_.allocations(from_ms, to_ms);
}

Result<std::vector<GpuUtilizationRecord>> PostgresStore::gpu_utilization(int64_t from_ms,
                                                                         int64_t to_ms) {
  std::lock_guard lock(reader_mutex_);
  return reader_.gpu_utilization(from_ms, to_ms);
}

Status PostgresStore::commit(WriteBatch batch) { return committer_.commit(std::move(batch)); }

std::future<Status> PostgresStore::queue_commit(WriteBatch batch) {
  return committer_.queue(std::move(batch));
}

uint64_t PostgresStore::transactions_committed() const {
  return committer_.transactions_committed();
}

void PostgresStore::pause_writer() { committer_.pause(); }

void PostgresStore::resume_writer() { committer_.resume(); }

void PostgresStore::wait_until_queued(size_t count) { committer_.wait_until_queued(count); }

}  // namespace allot
