// WorkloadActivity (service/control/workload_activity.h), the index behind
// /top/workloads and /top/stats' waits: kept change by change it gives each
// (namespace, team)'s pending and running per bucket, a requeue pending
// again from its run's end, a deleted workload taken back out of the past,
// the waits of first admissions in a range, and the holders now.
#include "service/control/workload_activity.h"

#include <gtest/gtest.h>

#include "service/control/live_workload.h"

namespace allot {
namespace {

Timestamp wa_at(int64_t minute) { return Timestamp::from_millis(minute * 60'000); }

LiveWorkload wa_workload(int64_t id, const std::string& ns, Timestamp created) {
  LiveWorkload live;
  live.doc.uid = WorkloadId(id);
  live.doc.workload.meta.namespace_name = ns;
  live.doc.workload.meta.name = "w" + std::to_string(id);
  live.doc.status.team = ns;
  live.doc.status.created_at = created;
  return live;
}

AllocationRecord wa_run(int64_t id, Timestamp start, std::optional<Timestamp> end) {
  AllocationRecord record;
  record.workload_id = WorkloadId(id);
  record.start_ms = start.ms();
  if (end) record.end_ms = end->ms();
  return record;
}

struct WaSeries {
  std::vector<double> pending;
  std::vector<double> running;
};

WaSeries wa_series(const WorkloadActivity& activity, const std::string& ns) {
  WaSeries series;
  activity.add_series(
      [&ns](const std::string& n, const std::string&) { return ns.empty() || n == ns; }, wa_at(0),
      Duration::minutes(1), 6, series.pending, series.running);
  return series;
}

TEST(WorkloadActivity, ARequeueIsPendingAgainAndADeleteIsTakenBackOutOfThePast) {
  WorkloadActivity activity;
  LiveWorkload a = wa_workload(1, "research", wa_at(0));
  activity.track(a);
  // Admitted at minute 1, preempted (quota released) at 3, waiting since.
  a.doc.status.phase = WorkloadPhase::kAdmitted;
  a.doc.status.first_admitted_at = wa_at(1);
  activity.note_run(wa_run(1, wa_at(1), std::nullopt));
  activity.track(a);
  EXPECT_EQ(activity.holding().count(WorkloadId(1)), 1u);
  a.doc.status.phase = WorkloadPhase::kPreempted;
  activity.note_run(wa_run(1, wa_at(1), wa_at(3)));
  activity.track(a);
  EXPECT_TRUE(activity.holding().empty());
  LiveWorkload b = wa_workload(2, "prod", wa_at(2));
  activity.track(b);

  const WaSeries research = wa_series(activity, "research");
  EXPECT_EQ(research.pending, (std::vector<double>{1, 0, 0, 1, 1, 1}));
  EXPECT_EQ(research.running, (std::vector<double>{0, 1, 1, 0, 0, 0}));
  EXPECT_EQ(wa_series(activity, "").pending, (std::vector<double>{1, 0, 1, 2, 2, 2}));
  EXPECT_EQ(activity.waits("research", wa_at(0), wa_at(5)), (std::vector<double>{60.0}));
  EXPECT_TRUE(activity.waits("research", wa_at(2), wa_at(5)).empty());
  EXPECT_TRUE(activity.waits("prod", wa_at(0), wa_at(5)).empty());

  activity.erase(WorkloadId(1));
  EXPECT_EQ(wa_series(activity, "research").pending, (std::vector<double>(6, 0.0)));
  EXPECT_EQ(wa_series(activity, "research").running, (std::vector<double>(6, 0.0)));
  EXPECT_EQ(wa_series(activity, "").pending, (std::vector<double>{0, 0, 1, 1, 1, 1}));
  EXPECT_TRUE(activity.waits("research", wa_at(0), wa_at(5)).empty());
}

TEST(WorkloadActivity, ABatchAndARebuildFromTheLedgerAgree) {
  WorkloadTable table;
  LiveWorkload a = wa_workload(1, "research", wa_at(0));
  a.doc.status.phase = WorkloadPhase::kSucceeded;
  a.doc.status.first_admitted_at = wa_at(1);
  a.doc.status.finished_at = wa_at(4);
  table.insert(a);
  WorkloadActivity live;
  WriteBatch batch;
  batch.put_workloads.push_back({WorkloadId(1), "research", "w1", "research", a.phase(), "{}"});
  batch.put_allocations.push_back(wa_run(1, wa_at(1), wa_at(2)));
  batch.put_allocations.push_back(wa_run(1, wa_at(3), wa_at(4)));
  live.track_batch(batch, table);
  WorkloadActivity rebuilt;
  rebuilt.rebuild(table, batch.put_allocations);
  const WaSeries from_batch = wa_series(live, "research");
  EXPECT_EQ(from_batch.pending, (std::vector<double>{1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(from_batch.running, (std::vector<double>{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(wa_series(rebuilt, "research").pending, from_batch.pending);
  EXPECT_EQ(wa_series(rebuilt, "research").running, from_batch.running);
  // Without the ledger (metering off) the first admission stands for one run.
  WorkloadActivity unmetered;
  unmetered.rebuild(table, {});
  EXPECT_EQ(wa_series(unmetered, "research").running, (std::vector<double>{0, 1, 1, 1, 0, 0}));
}

// A batch's allocations need not come with their workloads' records, nor in
// id order: each is noted (a workload not tracked yet is tracked first), an
// unknown one is ignored, one no longer in the table but tracked is
// refreshed, and each workload is tracked once after.
TEST(WorkloadActivity, ABatchNotesRunsInAnyOrderWithoutTheirRecords) {
  WorkloadTable table;
  LiveWorkload a = wa_workload(1, "research", wa_at(0));
  a.doc.status.phase = WorkloadPhase::kSucceeded;
  a.doc.status.first_admitted_at = wa_at(1);
  a.doc.status.finished_at = wa_at(4);
  table.insert(a);
  LiveWorkload b = wa_workload(2, "prod", wa_at(0));
  b.doc.status.phase = WorkloadPhase::kAdmitted;
  b.doc.status.first_admitted_at = wa_at(2);
  table.insert(b);
  WorkloadActivity live;
  live.track(wa_workload(2, "prod", wa_at(0)));   // pending when last tracked
  live.track(wa_workload(3, "batch", wa_at(0)));  // tracked, not in the table (any more)
  WriteBatch batch;
  batch.put_allocations.push_back(wa_run(3, wa_at(1), wa_at(3)));
  batch.put_allocations.push_back(wa_run(2, wa_at(2), std::nullopt));
  batch.put_allocations.push_back(wa_run(9, wa_at(1), wa_at(5)));  // no such workload
  batch.put_allocations.push_back(wa_run(1, wa_at(3), wa_at(4)));
  batch.put_allocations.push_back(wa_run(1, wa_at(1), std::nullopt));
  batch.put_allocations.push_back(wa_run(1, wa_at(1), wa_at(2)));  // closes the one above
  live.track_batch(batch, table);
  EXPECT_EQ(live.holding(), (std::set<WorkloadId>{WorkloadId(2)}));
  EXPECT_EQ(wa_series(live, "research").pending, (std::vector<double>{1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(wa_series(live, "research").running, (std::vector<double>{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(wa_series(live, "prod").pending, (std::vector<double>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(wa_series(live, "prod").running, (std::vector<double>{0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(wa_series(live, "batch").running, (std::vector<double>{0, 1, 1, 0, 0, 0}));
  EXPECT_EQ(wa_series(live, "batch").pending, (std::vector<double>{1, 0, 0, 1, 1, 1}));
  WorkloadActivity rebuilt;
  rebuilt.rebuild(table, {wa_run(1, wa_at(1), wa_at(2)), wa_run(1, wa_at(3), wa_at(4)),
                          wa_run(2, wa_at(2), std::nullopt)});
  for (const std::string ns : {"research", "prod"}) {
    EXPECT_EQ(wa_series(rebuilt, ns).pending, wa_series(live, ns).pending) << ns;
    EXPECT_EQ(wa_series(rebuilt, ns).running, wa_series(live, ns).running) << ns;
  }
  EXPECT_EQ(live.waits("research", wa_at(0), wa_at(5)), (std::vector<double>{60.0}));
}

}  // namespace
}  // namespace allot
