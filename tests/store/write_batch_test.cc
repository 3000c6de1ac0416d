// WriteBatch::upsert_workload and erase_workload: one record per workload per
// batch, the latest kept in the place of the first, also when put_workloads
// was changed directly between two upserts.

#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "store/store.h"
#include "store_records.h"

namespace allot::store_test {
namespace {

std::vector<std::string> documents_of(const WriteBatch& batch) {
  std::vector<std::string> documents;
  for (const WorkloadRecord& record : batch.put_workloads) documents.push_back(record.document);
  return documents;
}

WorkloadRecord record_with(uint64_t id, std::string document) {
  WorkloadRecord record = workload_record(WorkloadId(id), "ns", "w" + std::to_string(id));
  record.document = std::move(document);
  return record;
}

TEST(WriteBatchUpsert, ALaterRecordOfAWorkloadReplacesItsFirstInPlace) {
  WriteBatch batch;
  batch.upsert_workload(record_with(1, "a1"));
  batch.upsert_workload(record_with(2, "b1"));
  batch.upsert_workload(record_with(1, "a2"));
  batch.upsert_workload(record_with(3, "c1"));
  batch.upsert_workload(record_with(2, "b2"));
  EXPECT_EQ(documents_of(batch), (std::vector<std::string>{"a2", "b2", "c1"}));
}

TEST(WriteBatchUpsert, RecordsPutDirectlyOrErasedBetweenUpsertsAreSeen) {
  WriteBatch batch;
  batch.upsert_workload(record_with(1, "a1"));
  batch.upsert_workload(record_with(2, "b1"));
  batch.upsert_workload(record_with(3, "c1"));
  batch.put_workloads.push_back(record_with(4, "d1"));  // not through upsert_workload
  batch.upsert_workload(record_with(4, "d2"));
  batch.erase_workload(WorkloadId(1));  // the others move down a place
  batch.upsert_workload(record_with(3, "c2"));
  batch.upsert_workload(record_with(1, "a3"));
  EXPECT_EQ(documents_of(batch), (std::vector<std::string>{"b1", "c2", "d2", "a3"}));
}

TEST(WriteBatchUpsert, ThousandsOfWorkloadsKeepOneRecordEach) {
  WriteBatch batch;
  for (int round = 0; round < 3; ++round) {
    for (uint64_t id = 1; id <= 5000; ++id) {
      batch.upsert_workload(record_with(id, std::to_string(round)));
    }
  }
  ASSERT_EQ(batch.put_workloads.size(), 5000U);
  for (size_t slot = 0; slot < batch.put_workloads.size(); ++slot) {
    EXPECT_EQ(batch.put_workloads[slot].id, WorkloadId(slot + 1));
    EXPECT_EQ(batch.put_workloads[slot].document, "2");
  }
}

}  // namespace
}  // namespace allot::store_test
