// The Store contract (store.h), one suite run against every implementation:
// MemoryStore and SqliteStore (a real file in a fresh directory per test) in
// store_test, PostgresStore (a fresh database per test) in postgres_store_test.
#include "store/store_contract.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "model/ids.h"
#include "store/store_records.h"
#include "store/temp_directory.h"

namespace allot {
namespace {

using store_test::append_events;
using store_test::event_record;
using store_test::put_objects;
using store_test::put_workloads;
using store_test::StoreContract;
using store_test::workload_record;

TEST_P(StoreContract, EmptyStoreLoadsNothing) {
  const StoredState state = load();

  EXPECT_TRUE(state.objects.empty());
  EXPECT_TRUE(state.workloads.empty());
  EXPECT_EQ(state.max_workload_id, std::nullopt);
  EXPECT_TRUE(events(WorkloadId(1)).empty());
}

TEST_P(StoreContract, EmptyBatchCommitsAndChangesNothing) {
  EXPECT_TRUE(store().commit(WriteBatch()).ok());

  EXPECT_TRUE(load().workloads.empty());
}

TEST_P(StoreContract, ObjectsLoadInKindThenNameOrder) {
  commit_ok(
      put_objects({{"Team", "vision", "v"}, {"NodePool", "a100", "p"}, {"Team", "nlp", "n"}}));

  const std::vector<ObjectRecord> expected = {
      {"NodePool", "a100", "p"}, {"Team", "nlp", "n"}, {"Team", "vision", "v"}};
  EXPECT_EQ(load().objects, expected);
}

TEST_P(StoreContract, PutObjectReplacesTheDocumentOfItsKindAndName) {
  commit_ok(put_objects({{"Team", "nlp", "old"}, {"Cohort", "nlp", "cohort"}}));
  commit_ok(put_objects({{"Team", "nlp", "new"}}));

  const std::vector<ObjectRecord> expected = {{"Cohort", "nlp", "cohort"}, {"Team", "nlp", "new"}};
  EXPECT_EQ(load().objects, expected);
}

TEST_P(StoreContract, DeleteObjectRemovesOnlyThatObject) {
  commit_ok(put_objects({{"Team", "nlp", "n"}, {"Team", "vision", "v"}}));
  WriteBatch batch;
  batch.delete_objects = {{"Team", "nlp"}, {"Team", "never-existed"}};
  commit_ok(std::move(batch));

  const std::vector<ObjectRecord> expected = {{"Team", "vision", "v"}};
  EXPECT_EQ(load().objects, expected);
}

TEST_P(StoreContract, DocumentsKeepEveryByte) {
  const std::string binary("a\0b\xff\xfe\n\"'", 8);
  commit_ok(put_objects({{"Blob", "binary", binary}, {"Blob", "empty", ""}}));

  const std::vector<ObjectRecord> expected = {{"Blob", "binary", binary}, {"Blob", "empty", ""}};
  EXPECT_EQ(load().objects, expected);
}

TEST_P(StoreContract, WorkloadsLoadInIdOrderWithEveryField) {
  commit_ok(
      put_workloads({workload_record(WorkloadId(30), "nlp", "c", WorkloadPhase::kRunning),
                     workload_record(WorkloadId(10), "nlp", "a", WorkloadPhase::kPreempted)}));
  commit_ok(
      put_workloads({workload_record(WorkloadId(20), "vision", "b", WorkloadPhase::kCancelled)}));

  const std::vector<WorkloadRecord> expected = {
      workload_record(WorkloadId(10), "nlp", "a", WorkloadPhase::kPreempted),
      workload_record(WorkloadId(20), "vision", "b", WorkloadPhase::kCancelled),
      workload_record(WorkloadId(30), "nlp", "c", WorkloadPhase::kRunning)};
  EXPECT_EQ(load().workloads, expected);
}

TEST_P(StoreContract, PutWorkloadReplacesByIdAndARenameFreesTheOldName) {
  commit_ok(put_workloads({workload_record(WorkloadId(1), "nlp", "old-name")}));
  WorkloadRecord renamed =
      workload_record(WorkloadId(1), "nlp", "new-name", WorkloadPhase::kAdmitted);
  renamed.document = "admitted";
  commit_ok(put_workloads({renamed}));
  commit_ok(put_workloads({workload_record(WorkloadId(2), "nlp", "old-name")}));

  const std::vector<WorkloadRecord> expected = {renamed,
                                                workload_record(WorkloadId(2), "nlp", "old-name")};
  EXPECT_EQ(load().workloads, expected);
}

TEST_P(StoreContract, SameNameInAnotherNamespaceIsAnotherWorkload) {
  commit_ok(put_workloads({workload_record(WorkloadId(1), "nlp", "train"),
                           workload_record(WorkloadId(2), "cv", "train")}));

  EXPECT_EQ(ids(load()), (std::vector<WorkloadId>{WorkloadId(1), WorkloadId(2)}));
}

TEST_P(StoreContract, DeleteWorkloadRemovesItAndItsEventsOnly) {
  commit_ok(put_workloads(
      {workload_record(WorkloadId(1), "nlp", "a"), workload_record(WorkloadId(2), "nlp", "b")}));
  commit_ok(append_events(
      {event_record(WorkloadId(1), "Queued"), event_record(WorkloadId(2), "Queued")}));
  WriteBatch batch;
  batch.delete_workloads = {WorkloadId(1), WorkloadId(99)};
  commit_ok(std::move(batch));

  EXPECT_EQ(ids(load()), (std::vector<WorkloadId>{WorkloadId(2)}));
  EXPECT_TRUE(events(WorkloadId(1)).empty());
  EXPECT_EQ(reasons(events(WorkloadId(2))), (std::vector<std::string>{"Queued"}));
}

TEST_P(StoreContract, NameOfAnotherIdFailsTheWholeBatch) {
  commit_ok(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  WriteBatch batch = put_workloads({workload_record(WorkloadId(2), "nlp", "eval"),
                                    workload_record(WorkloadId(3), "nlp", "train")});
  batch.put_objects = {{"Team", "nlp", "n"}};
  batch.events = {event_record(WorkloadId(2), "Queued")};

  const Status status = store().commit(std::move(batch));

  EXPECT_EQ(status.code(), ErrorCode::kAlreadyExists) << status.to_string();
  EXPECT_NE(status.message().find("nlp/train"), std::string::npos) << status.to_string();
  const StoredState state = load();
  EXPECT_TRUE(state.objects.empty());
  EXPECT_EQ(ids(state), (std::vector<WorkloadId>{WorkloadId(1)}));
  EXPECT_EQ(state.max_workload_id, WorkloadId(1));
  EXPECT_TRUE(events(WorkloadId(2)).empty());
}

TEST_P(StoreContract, TwoIdsWithOneNameInOneBatchAreRefused) {
  const Status status =
      store().commit(put_workloads({workload_record(WorkloadId(1), "nlp", "train"),
                                    workload_record(WorkloadId(2), "nlp", "train")}));

  EXPECT_EQ(status.code(), ErrorCode::kAlreadyExists);
  EXPECT_TRUE(load().workloads.empty());
  EXPECT_EQ(load().max_workload_id, std::nullopt);
}

TEST_P(StoreContract, StoreStaysUsableAfterARefusedBatch) {
  commit_ok(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  ASSERT_FALSE(
      store().commit(put_workloads({workload_record(WorkloadId(2), "nlp", "train")})).ok());

  commit_ok(put_workloads({workload_record(WorkloadId(3), "nlp", "eval")}));

  EXPECT_EQ(ids(load()), (std::vector<WorkloadId>{WorkloadId(1), WorkloadId(3)}));
}

TEST_P(StoreContract, ABatchMayFreeANameAndGiveItToAnotherId) {
  commit_ok(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  WriteBatch batch = put_workloads({workload_record(WorkloadId(2), "nlp", "train")});
  batch.delete_workloads = {WorkloadId(1)};

  commit_ok(std::move(batch));

  EXPECT_EQ(load().workloads,
            (std::vector<WorkloadRecord>{workload_record(WorkloadId(2), "nlp", "train")}));
}

// A caller that orders its batches (allotd's control plane) queues them and
// waits later: they apply in the order queued, each with its own outcome.
TEST_P(StoreContract, QueuedBatchesApplyInQueueOrderEachWithItsOutcome) {
  std::future<Status> first =
      store().queue_commit(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  WriteBatch free_name;
  free_name.delete_workloads = {WorkloadId(1)};
  std::future<Status> second = store().queue_commit(std::move(free_name));
  std::future<Status> third =
      store().queue_commit(put_workloads({workload_record(WorkloadId(2), "nlp", "train")}));
  std::future<Status> taken =
      store().queue_commit(put_workloads({workload_record(WorkloadId(3), "nlp", "train")}));

  EXPECT_TRUE(first.get().ok());
  EXPECT_TRUE(second.get().ok());
  EXPECT_TRUE(third.get().ok());
  EXPECT_EQ(taken.get().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(load().workloads,
            (std::vector<WorkloadRecord>{workload_record(WorkloadId(2), "nlp", "train")}));
}

TEST_P(StoreContract, WorkloadIdsOutOfRangeAreInvalid) {
  const Status zero =
      store().commit(put_workloads({workload_record(WorkloadId(0), "nlp", "zero")}));
  // The largest value is also WorkloadId::invalid().
  const Status huge =
      store().commit(put_workloads({workload_record(WorkloadId(~uint64_t{0}), "nlp", "huge")}));

  EXPECT_EQ(zero.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(huge.code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(load().workloads.empty());
}

TEST_P(StoreContract, EventsComeInCommitOrderWithGrowingSequences) {
  commit_ok(put_workloads(
      {workload_record(WorkloadId(1), "nlp", "a"), workload_record(WorkloadId(2), "nlp", "b")}));
  commit_ok(append_events(
      {event_record(WorkloadId(1), "Queued", 5), event_record(WorkloadId(2), "Queued", 6)}));
  commit_ok(append_events({event_record(WorkloadId(1), "Admitted", 7)}));
  commit_ok(append_events({event_record(WorkloadId(1), "Running", 8)}));

  const std::vector<EventRecord> all = events(WorkloadId(1));

  ASSERT_EQ(reasons(all), (std::vector<std::string>{"Queued", "Admitted", "Running"}));
  EXPECT_LT(all[0].sequence, events(WorkloadId(2))[0].sequence);
  EXPECT_LT(events(WorkloadId(2))[0].sequence, all[1].sequence);
  EXPECT_LT(all[1].sequence, all[2].sequence);
  EventRecord expected = event_record(WorkloadId(1), "Admitted", 7);
  expected.sequence = all[1].sequence;
  EXPECT_EQ(all[1], expected);
}

TEST_P(StoreContract, EventsAfterASequenceSkipThoseUpToIt) {
  commit_ok(append_events(
      {event_record(WorkloadId(1), "Queued"), event_record(WorkloadId(1), "Admitted")}));
  commit_ok(append_events({event_record(WorkloadId(1), "Running")}));
  const std::vector<EventRecord> all = events(WorkloadId(1));
  ASSERT_EQ(all.size(), 3u);

  EXPECT_EQ(reasons(events(WorkloadId(1), all[0].sequence)),
            (std::vector<std::string>{"Admitted", "Running"}));
  EXPECT_EQ(reasons(events(WorkloadId(1), all[2].sequence)), std::vector<std::string>());
  EXPECT_EQ(reasons(events(WorkloadId(1), ~uint64_t{0})), std::vector<std::string>());
  EXPECT_TRUE(events(WorkloadId(42)).empty());
}

TEST_P(StoreContract, SequencesAreNotReusedAfterTheNewestEventIsDeleted) {
  commit_ok(append_events(
      {event_record(WorkloadId(1), "Queued"), event_record(WorkloadId(2), "Queued")}));
  const uint64_t deleted_sequence = events(WorkloadId(2))[0].sequence;
  WriteBatch batch;
  batch.delete_workloads = {WorkloadId(2)};
  commit_ok(std::move(batch));

  commit_ok(append_events({event_record(WorkloadId(3), "Queued")}));

  EXPECT_GT(events(WorkloadId(3))[0].sequence, deleted_sequence);
}

TEST_P(StoreContract, MaxWorkloadIdRemembersDeletedIds) {
  commit_ok(put_workloads(
      {workload_record(WorkloadId(7), "nlp", "a"), workload_record(WorkloadId(3), "nlp", "b")}));
  WriteBatch batch;
  batch.delete_workloads = {WorkloadId(7), WorkloadId(3)};
  commit_ok(std::move(batch));
  commit_ok(put_workloads({workload_record(WorkloadId(5), "nlp", "c")}));

  const StoredState state = load();

  EXPECT_EQ(ids(state), (std::vector<WorkloadId>{WorkloadId(5)}));
  EXPECT_EQ(state.max_workload_id, WorkloadId(7));
}

TEST_P(StoreContract, ConcurrentCommitsAreAllVisibleWithUniqueSequences) {
  constexpr uint64_t kThreads = 16;
  constexpr uint64_t kBatches = 200;
  std::atomic<int> failures = 0;
  std::vector<std::thread> threads;
  for (uint64_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (uint64_t i = 0; i < kBatches; ++i) {
        const WorkloadId id(t * kBatches + i + 1);
        WriteBatch batch = put_workloads(
            {workload_record(id, "ns-" + std::to_string(t), "w-" + std::to_string(i))});
        batch.events = {event_record(id, "Queued")};
        if (!store().commit(std::move(batch)).ok()) ++failures;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  EXPECT_EQ(failures, 0);
  const StoredState state = load();
  ASSERT_EQ(state.workloads.size(), kThreads * kBatches);
  EXPECT_EQ(state.workloads.back().id, WorkloadId(kThreads * kBatches));
  EXPECT_EQ(state.max_workload_id, WorkloadId(kThreads * kBatches));
  std::set<uint64_t> sequences;
  for (uint64_t t = 0; t < kThreads; ++t) {
    uint64_t previous = 0;  // one thread's commits are ordered: so are their sequences
    for (uint64_t i = 0; i < kBatches; ++i) {
      const std::vector<EventRecord> found = events(WorkloadId(t * kBatches + i + 1));
      ASSERT_EQ(found.size(), 1u);
      EXPECT_GT(found[0].sequence, previous);
      previous = found[0].sequence;
      sequences.insert(found[0].sequence);
    }
  }
  EXPECT_EQ(sequences.size(), kThreads * kBatches);
}

AllocationRecord allocation(uint64_t id, int64_t start, std::optional<int64_t> end) {
  return {WorkloadId(id),
          start,
          end,
          "vision",
          "ana@x.org",
          "vision/train-" + std::to_string(id),
          "h100",
          ResourceVector(4, 16000, int64_t{1} << 40),
          ResourceVector(2, 500, 0)};
}

std::vector<AllocationRecord> allocations_ok(Store& store, int64_t from, int64_t to) {
  Result<std::vector<AllocationRecord>> found = store.allocations(from, to);
  EXPECT_TRUE(found.ok()) << found.status().to_string();
  return found.ok() ? std::move(found).value() : std::vector<AllocationRecord>();
}

TEST_P(StoreContract, AllocationsOpenLoadWithEveryFieldAndAPutClosesThem) {
  WriteBatch open;
  open.put_allocations = {allocation(2, 100, std::nullopt), allocation(1, 50, std::nullopt)};
  commit_ok(std::move(open));
  EXPECT_EQ(load().open_allocations,
            (std::vector<AllocationRecord>{allocation(1, 50, std::nullopt),
                                           allocation(2, 100, std::nullopt)}));
  WriteBatch close;
  close.put_allocations = {allocation(1, 50, 70)};
  commit_ok(std::move(close));
  EXPECT_EQ(load().open_allocations,
            (std::vector<AllocationRecord>{allocation(2, 100, std::nullopt)}));
  EXPECT_EQ(
      allocations_ok(store(), 0, 1000),
      (std::vector<AllocationRecord>{allocation(1, 50, 70), allocation(2, 100, std::nullopt)}));
}

TEST_P(StoreContract, AllocationsAreThoseOverlappingTheHalfOpenRange) {
  WriteBatch batch;
  batch.put_allocations = {allocation(1, 0, 10), allocation(2, 10, 20),
                           allocation(3, 20, std::nullopt), allocation(4, 5, 5)};
  commit_ok(std::move(batch));
  const auto ids = [](const std::vector<AllocationRecord>& found) {
    std::vector<uint64_t> out;
    for (const AllocationRecord& a : found) out.push_back(a.workload_id.value());
    return out;
  };
  EXPECT_EQ(ids(allocations_ok(store(), 10, 20)), (std::vector<uint64_t>{2}));
  EXPECT_EQ(ids(allocations_ok(store(), 9, 21)), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(ids(allocations_ok(store(), 1000, 2000)), (std::vector<uint64_t>{3}));
}

TEST_P(StoreContract, AllocationsOutliveTheirWorkloadAndCommitWithTheBatch) {
  commit_ok(put_workloads({workload_record(WorkloadId(7), "vision", "train")}));
  WriteBatch both =
      put_workloads({workload_record(WorkloadId(8), "vision", "train")});  // name taken
  both.put_allocations = {allocation(8, 5, std::nullopt)};
  EXPECT_EQ(store().commit(std::move(both)).code(), ErrorCode::kAlreadyExists);
  EXPECT_TRUE(load().open_allocations.empty());  // nothing of a refused batch
  WriteBatch admitted;
  admitted.put_allocations = {allocation(7, 5, 9)};
  commit_ok(std::move(admitted));
  WriteBatch deleted;
  deleted.delete_workloads = {WorkloadId(7)};
  commit_ok(std::move(deleted));
  EXPECT_EQ(allocations_ok(store(), 0, 100).size(), 1u);
}

TEST_P(StoreContract, AllocationsThatEndBeforeTheyStartAreInvalid) {
  WriteBatch batch;
  batch.put_allocations = {allocation(1, 10, 5)};
  EXPECT_EQ(store().commit(std::move(batch)).code(), ErrorCode::kInvalidArgument);
  WriteBatch zero;
  zero.put_allocations = {allocation(0, 10, std::nullopt)};
  EXPECT_EQ(store().commit(std::move(zero)).code(), ErrorCode::kInvalidArgument);
}

GpuUtilizationRecord utilization(uint64_t id, const std::string& gpu, int64_t start, int64_t end,
                                 int64_t ppm) {
  return {WorkloadId(id), gpu, start, end, ppm};
}

std::vector<GpuUtilizationRecord> utilization_ok(Store& store, int64_t from, int64_t to) {
  Result<std::vector<GpuUtilizationRecord>> found = store.gpu_utilization(from, to);
  EXPECT_TRUE(found.ok()) << found.status().to_string();
  return found.ok() ? std::move(found).value() : std::vector<GpuUtilizationRecord>();
}

TEST_P(StoreContract, GpuUtilizationKeepsEveryFieldAndIsThatOverlappingTheHalfOpenRange) {
  WriteBatch batch;
  batch.put_gpu_utilization = {utilization(2, "n1/0", 10, 20, 250000),
                               utilization(1, "n1/1", 0, 10, 1000000),
                               utilization(1, "n1/0", 0, 10, 0)};
  commit_ok(std::move(batch));
  EXPECT_EQ(utilization_ok(store(), 0, 100),
            (std::vector<GpuUtilizationRecord>{utilization(1, "n1/0", 0, 10, 0),
                                               utilization(1, "n1/1", 0, 10, 1000000),
                                               utilization(2, "n1/0", 10, 20, 250000)}));
  EXPECT_EQ(utilization_ok(store(), 10, 11),
            (std::vector<GpuUtilizationRecord>{utilization(2, "n1/0", 10, 20, 250000)}));
  EXPECT_TRUE(utilization_ok(store(), 20, 30).empty());
  WriteBatch replace;  // same key: replaced, not added
  replace.put_gpu_utilization = {utilization(2, "n1/0", 10, 15, 500000)};
  commit_ok(std::move(replace));
  EXPECT_EQ(utilization_ok(store(), 10, 11),
            (std::vector<GpuUtilizationRecord>{utilization(2, "n1/0", 10, 15, 500000)}));
}

TEST_P(StoreContract, GpuUtilizationThatIsEmptyOrOutOfRangeIsInvalid) {
  for (const GpuUtilizationRecord& bad :
       {utilization(1, "n1/0", 10, 10, 0), utilization(1, "n1/0", 10, 20, 1000001),
        utilization(1, "n1/0", 10, 20, -1), utilization(0, "n1/0", 10, 20, 0)}) {
    WriteBatch batch;
    batch.put_gpu_utilization = {bad};
    EXPECT_EQ(store().commit(std::move(batch)).code(), ErrorCode::kInvalidArgument);
  }
  EXPECT_TRUE(utilization_ok(store(), 0, 100).empty());
}

AuditOutboxRecord outbox_row(uint64_t sequence, const std::string& audit_id) {
  return {sequence, audit_id, std::string("{\"a\":\"") + audit_id + std::string("\0\xff\"}", 4),
          WorkloadId()};
}

// The audit outbox: rows load in sequence order whatever the order they were
// appended in; one ranged delete takes every row up to its bound (those
// appended in other batches too) and no other; in one batch the delete
// applies before the appends.
TEST_P(StoreContract, AuditOutboxLoadsBySequenceAndARangedDeleteTakesThoseUpToIt) {
  WriteBatch first;
  first.append_audit_outbox = {outbox_row(3, "c"), outbox_row(1, "a")};
  commit_ok(std::move(first));
  WriteBatch second;
  second.append_audit_outbox = {outbox_row(2, "b"), outbox_row(5, "e")};
  commit_ok(std::move(second));
  EXPECT_EQ(load().audit_outbox,
            (std::vector<AuditOutboxRecord>{outbox_row(1, "a"), outbox_row(2, "b"),
                                            outbox_row(3, "c"), outbox_row(5, "e")}));
  WriteBatch prune;
  prune.delete_audit_outbox_through = 3;
  commit_ok(std::move(prune));
  EXPECT_EQ(load().audit_outbox, (std::vector<AuditOutboxRecord>{outbox_row(5, "e")}));
  WriteBatch both;  // the delete first: the row appended at its bound stays
  both.delete_audit_outbox_through = 6;
  both.append_audit_outbox = {outbox_row(6, "f"), outbox_row(7, "g")};
  commit_ok(std::move(both));
  EXPECT_EQ(load().audit_outbox,
            (std::vector<AuditOutboxRecord>{outbox_row(6, "f"), outbox_row(7, "g")}));
  WriteBatch again;  // a delete below every row deletes nothing
  again.delete_audit_outbox_through = 5;
  commit_ok(std::move(again));
  EXPECT_EQ(load().audit_outbox.size(), 2u);
}

// An outbox row and a ranged delete commit with their batch or not at all.
TEST_P(StoreContract, AuditOutboxRowsAndDeletesCommitWithTheirBatch) {
  commit_ok(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  WriteBatch rows;
  rows.append_audit_outbox = {outbox_row(1, "a")};
  commit_ok(std::move(rows));
  WriteBatch refused = put_workloads({workload_record(WorkloadId(2), "nlp", "train")});
  refused.delete_audit_outbox_through = 1;
  refused.append_audit_outbox = {outbox_row(2, "b")};
  EXPECT_EQ(store().commit(std::move(refused)).code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(load().audit_outbox, (std::vector<AuditOutboxRecord>{outbox_row(1, "a")}));
}

AuditOutboxRecord riding_row(uint64_t sequence, const std::string& audit_id, uint64_t workload) {
  AuditOutboxRecord row = outbox_row(sequence, audit_id);
  row.with_workload = WorkloadId(workload);
  return row;
}

// A row may name a workload its batch puts (SQLite keeps it in that
// workload's row): it is a row like the others. It loads without the name,
// stays while its workload changes, carries a later row or is deleted, and
// leaves only by a ranged delete; the workload loads as it was put.
TEST_P(StoreContract, AuditOutboxRowsNamingAWorkloadAreRowsLikeTheOthers) {
  WriteBatch first = put_workloads({workload_record(WorkloadId(1), "nlp", "a")});
  first.append_audit_outbox = {riding_row(1, "a", 1)};
  commit_ok(std::move(first));
  WriteBatch second = put_workloads({workload_record(WorkloadId(2), "nlp", "b")});
  // Two naming one workload, and one naming a workload the batch does not put.
  second.append_audit_outbox = {riding_row(2, "b", 2), riding_row(3, "c", 2),
                                riding_row(4, "d", 7)};
  commit_ok(std::move(second));
  WorkloadRecord changed = workload_record(WorkloadId(1), "nlp", "a", WorkloadPhase::kRunning);
  changed.document = "{\"changed\":true}";
  commit_ok(put_workloads({changed}));
  WriteBatch carries = put_workloads({changed});
  carries.append_audit_outbox = {riding_row(5, "e", 1)};
  commit_ok(std::move(carries));
  WriteBatch removed;
  removed.delete_workloads = {WorkloadId(2)};
  commit_ok(std::move(removed));
  EXPECT_EQ(load().audit_outbox, (std::vector<AuditOutboxRecord>{
                                     outbox_row(1, "a"), outbox_row(2, "b"), outbox_row(3, "c"),
                                     outbox_row(4, "d"), outbox_row(5, "e")}));
  WriteBatch prune;
  prune.delete_audit_outbox_through = 3;
  commit_ok(std::move(prune));
  commit_ok(put_workloads({changed}));
  EXPECT_EQ(load().audit_outbox,
            (std::vector<AuditOutboxRecord>{outbox_row(4, "d"), outbox_row(5, "e")}));
  WriteBatch rest;
  rest.delete_audit_outbox_through = 5;
  commit_ok(std::move(rest));
  EXPECT_TRUE(load().audit_outbox.empty());
  commit_ok(put_workloads({changed}));
  const StoredState state = load();
  EXPECT_TRUE(state.audit_outbox.empty());
  EXPECT_EQ(state.workloads, std::vector<WorkloadRecord>{changed});
}

// A row naming a workload, appended at its batch's own ranged delete, stays
// (the delete applies first); a refused batch's row is not stored.
TEST_P(StoreContract, AuditOutboxRowNamingAWorkloadAtItsBatchsDeleteStays) {
  WriteBatch both = put_workloads({workload_record(WorkloadId(1), "nlp", "a")});
  both.delete_audit_outbox_through = 6;
  both.append_audit_outbox = {riding_row(6, "f", 1)};
  commit_ok(std::move(both));
  WriteBatch refused = put_workloads({workload_record(WorkloadId(2), "nlp", "a")});
  refused.append_audit_outbox = {riding_row(7, "g", 2)};
  EXPECT_EQ(store().commit(std::move(refused)).code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(load().audit_outbox, std::vector<AuditOutboxRecord>{outbox_row(6, "f")});
}

// The floor is the highest ranged delete ever committed: new rows go above it.
TEST_P(StoreContract, AuditOutboxFloorIsTheHighestRangedDelete) {
  EXPECT_EQ(load().audit_outbox_floor, 0u);
  WriteBatch high;
  high.delete_audit_outbox_through = 5;
  commit_ok(std::move(high));
  WriteBatch low;
  low.delete_audit_outbox_through = 3;
  commit_ok(std::move(low));
  EXPECT_EQ(load().audit_outbox_floor, 5u);
}

TEST_P(StoreContract, AuditOutboxSequencesOutOfRangeAreInvalid) {
  constexpr uint64_t kTooLarge = uint64_t{1} << 63U;
  for (const uint64_t bad : {uint64_t{0}, kTooLarge}) {
    WriteBatch batch;
    batch.append_audit_outbox = {outbox_row(bad, "a")};
    EXPECT_EQ(store().commit(std::move(batch)).code(), ErrorCode::kInvalidArgument) << bad;
  }
  WriteBatch range;
  range.delete_audit_outbox_through = kTooLarge;
  EXPECT_EQ(store().commit(std::move(range)).code(), ErrorCode::kInvalidArgument);
  EXPECT_TRUE(load().audit_outbox.empty());
}

}  // namespace
}  // namespace allot
