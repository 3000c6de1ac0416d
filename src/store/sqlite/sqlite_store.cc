#include "store/sqlite/sqlite_store.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite/sqlite_connection.h"
#include "store/sqlite/sqlite_schema.h"

namespace allot {
namespace {

struct Connections {
  SqliteBatchWriter writer;
  SqliteStateReader reader;
};

Result<Connections> open_connections(const std::string& path, const SqliteStoreOptions& options) {
  ALLOT_ASSIGN_OR_RETURN(SqliteConnection write_db,
                         SqliteConnection::open(path, options.busy_timeout_ms));
  // Before anything writes: a newer database must stay untouched.
  ALLOT_RETURN_IF_ERROR(check_schema_version(write_db));
  ALLOT_RETURN_IF_ERROR(configure_sqlite_writer(write_db));
  ALLOT_RETURN_IF_ERROR(migrate_schema(write_db));
  ALLOT_ASSIGN_OR_RETURN(SqliteConnection read_db,
                         SqliteConnection::open(path, options.busy_timeout_ms));
  ALLOT_ASSIGN_OR_RETURN(SqliteBatchWriter writer, SqliteBatchWriter::create(std::move(write_db)));
  ALLOT_ASSIGN_OR_RETURN(SqliteStateReader reader, SqliteStateReader::create(std::move(read_db)));
  return Connections{std::move(writer), std::move(reader)};
}

Status errno_status(const std::string& what, int error) {
  return {ErrorCode::kUnavailable, what + ": " + std::strerror(error)};
}

// The database holds every team's secrets (workload environments): it and
// its -wal and -shm files are the owner's only, whatever the umask. SQLite
// creates -wal and -shm with the database file's mode, so making that file
// first (or closing an existing one) closes all three.
Status close_to_others(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return errno_status("open " + path, errno);
  const int changed = ::fchmod(fd, 0600);
  const int error = errno;
  ::close(fd);
  if (changed != 0) return errno_status("chmod 0600 " + path, error);
  for (const char* suffix : {"-wal", "-shm"}) {
    const std::string side = path + suffix;
    if (::chmod(side.c_str(), 0600) != 0 && errno != ENOENT) {
      return errno_status("chmod 0600 " + side, errno);
    }
  }
  return {};
}

}  // namespace

// WAL: readers do not block the writer, and a commit appends to one file.
// synchronous=FULL: every COMMIT fsyncs the WAL, so a returned commit survives
// a power loss (NORMAL would only survive a crash of the process).
// temp_store=MEMORY: a batch's SAVEPOINT journal (the pages it changes, kept
// to roll it back alone) stays in memory; by default SQLite spills it past 64
// KiB to a temporary file, written page by page in every transaction that
// has such a batch (docs/benchmarks.md, "Audit log (issue 15)", audit12).
Status configure_sqlite_writer(SqliteConnection& db) {
  ALLOT_ASSIGN_OR_RETURN(std::string mode, db.query_text("PRAGMA journal_mode=WAL"));
  if (mode != "wal") {
    return Status(ErrorCode::kUnavailable,
                  "the database cannot use WAL mode (journal_mode stays \"" + mode + "\")");
  }
  ALLOT_RETURN_IF_ERROR(db.execute("PRAGMA synchronous=FULL"));
  return db.execute("PRAGMA temp_store=MEMORY");
}

Result<std::unique_ptr<SqliteStore>> SqliteStore::open(const std::string& path) {
  return open(path, SqliteStoreOptions());
}

Result<std::unique_ptr<SqliteStore>> SqliteStore::open(const std::string& path,
                                                       const SqliteStoreOptions& options) {
  if (path.empty() || path == ":memory:") {
    return invalid_argument("the SQLite store needs a database file; use MemoryStore for memory",
                            path);
  }
  if (Status closed = close_to_others(path); !closed.ok()) {
    return Status(closed.code(), "cannot open the store " + path + ": " + closed.message());
  }
  Result<Connections> connections = open_connections(path, options);
  if (!connections.ok()) {
    const Status cause = connections.status();
    return Status(cause.code(), "cannot open the store " + path + ": " + cause.message(),
                  cause.details());
  }
  return std::unique_ptr<SqliteStore>(
      new SqliteStore(std::move(connections->writer), std::move(connections->reader)));
}

SqliteStore::SqliteStore(SqliteBatchWriter writer, SqliteStateReader reader)
    : reader_(std::move(reader)),
      writer_(std::move(writer)),
      committer_([this](const std::vector<GroupCommitter::Pending*>& group) {
        return GroupCommitter::write_in_one_transaction(writer_, group);
      }) {}

SqliteStore::~SqliteStore() = default;

Result<StoredState> SqliteStore::load() {
  std::lock_guard lock(reader_mutex_);
  return reader_.load();
}

Result<std::vector<EventRecord>> SqliteStore::events(WorkloadId workload_id, uint64_t after) {
  std::lock_guard lock(reader_mutex_);
  return reader_.events(workload_id, after);
}

Result<std::vector<AllocationRecord>> SqliteStore::allocations(int64_t from_ms, int64_t to_ms) {
  std::lock_guard lock(reader_mutex_);
  return reader_.allocations(from_ms, to_ms);
}

Result<std::vector<GpuUtilizationRecord>> SqliteStore::gpu_utilization(int64_t from_ms,
                                                                       int64_t to_ms) {
  std::lock_guard lock(reader_mutex_);
  return reader_.gpu_utilization(from_ms, to_ms);
}

Status SqliteStore::commit(WriteBatch batch) { return committer_.commit(std::move(batch)); }

std::future<Status> SqliteStore::queue_commit(WriteBatch batch) {
  return committer_.queue(std::move(batch));
}

uint64_t SqliteStore::transactions_committed() const { return committer_.transactions_committed(); }

void SqliteStore::pause_writer() { committer_.pause(); }

void SqliteStore::resume_writer() { committer_.resume(); }

void SqliteStore::wait_until_queued(size_t count) { committer_.wait_until_queued(count); }

}  // namespace allot
