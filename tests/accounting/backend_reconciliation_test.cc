// Reconciling the metering ledger with the backend's own accounting (Slurm's
// sacct): explicit signed adjustments, never a rewritten interval; a second
// run adds nothing; a report of ledger + adjustments counts what the backend
// ran, to the millisecond.
#include "accounting/backend_reconciliation.h"

#include <gtest/gtest.h>

#include "accounting/usage_report.h"

namespace allot {
namespace {

Timestamp recon_second(int64_t s) { return Timestamp::from_millis(s * 1000); }

AllocationInterval recon_interval(uint64_t workload, int64_t gpus, int64_t from,
                                  std::optional<int64_t> to) {
  std::optional<Timestamp> end;
  if (to) end = recon_second(*to);
  return {WorkloadId(workload),
          "team-a/w" + std::to_string(workload),
          TeamId("team-a"),
          "ana",
          "h100",
          {gpus, 0, 0},
          {},
          recon_second(from),
          end};
}

BackendJobRecord recon_job(uint64_t workload, const std::string& id, int64_t gpus, int64_t from,
                           int64_t to) {
  return {id, WorkloadId(workload), "team-a", recon_second(from), recon_second(to), gpus};
}

// The adjustments proper: the entries with GPUs (not the coverage entries).
std::vector<UsageAdjustment> differences(const std::vector<UsageAdjustment>& made) {
  std::vector<UsageAdjustment> out;
  for (const UsageAdjustment& a : made) {
    if (a.gpus != 0) out.push_back(a);
  }
  return out;
}

// The spans of the coverage entries (gpus 0) of `workload`.
std::vector<Period> coverage_of(const std::vector<UsageAdjustment>& made, uint64_t workload) {
  std::vector<Period> out;
  for (const UsageAdjustment& a : made) {
    if (a.gpus == 0 && a.workload == WorkloadId(workload)) out.push_back(a.span);
  }
  return out;
}

Period recon_span(int64_t from, int64_t to) { return {recon_second(from), recon_second(to)}; }

TEST(BackendReconciliation, ASlurmStartLaterThanAdmissionIsANegativeAdjustment) {
  const std::vector<AllocationInterval> ledger = {recon_interval(1, 2, 0, 100)};
  const std::vector<BackendJobRecord> jobs = {recon_job(1, "41", 2, 10, 100)};
  const std::vector<UsageAdjustment> all = reconcile_with_backend(ledger, {}, jobs);
  const std::vector<UsageAdjustment> made = differences(all);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].span, (Period{recon_second(0), recon_second(10)}));
  EXPECT_EQ(made[0].gpus, -2);
  EXPECT_EQ(made[0].team, TeamId("team-a"));
  EXPECT_EQ(made[0].job_ids, "41");
  EXPECT_EQ(ledger[0], recon_interval(1, 2, 0, 100)) << "the ledger is not rewritten";
  EXPECT_EQ(coverage_of(all, 1), std::vector<Period>{recon_span(0, 100)});

  EXPECT_TRUE(reconcile_with_backend(ledger, all, jobs).empty()) << "no second counted twice";
}

TEST(BackendReconciliation, AJobThatRanOnAfterTheLedgerClosedIsAPositiveAdjustment) {
  const std::vector<AllocationInterval> ledger = {recon_interval(1, 1, 0, 50)};
  const std::vector<BackendJobRecord> jobs = {recon_job(1, "7", 1, 0, 80)};
  const std::vector<UsageAdjustment> made = differences(reconcile_with_backend(ledger, {}, jobs));
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].span, (Period{recon_second(50), recon_second(80)}));
  EXPECT_EQ(made[0].gpus, 1);
}

// Agreeing records are only covered (once); an open allocation and work
// without jobs are left alone.
TEST(BackendReconciliation, AgreeingRecordsAreOnlyCoveredAndOpenOrJoblessWorkIsLeftAlone) {
  const std::vector<AllocationInterval> ledger = {recon_interval(1, 1, 0, 50),
                                                  recon_interval(2, 4, 0, std::nullopt),
                                                  recon_interval(3, 8, 0, 30)};
  const std::vector<BackendJobRecord> jobs = {recon_job(1, "1", 1, 0, 50),
                                              recon_job(2, "2", 4, 5, 60)};
  const std::vector<UsageAdjustment> made = reconcile_with_backend(ledger, {}, jobs);
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].workload, WorkloadId(1));
  EXPECT_EQ(made[0].gpus, 0);
  EXPECT_EQ(made[0].span, recon_span(0, 50));
  EXPECT_EQ(made[0].job_ids, "1");
  EXPECT_TRUE(reconcile_with_backend(ledger, made, jobs).empty());
}

TEST(BackendReconciliation, ARequeuedWorkloadsJobsAreComparedWithAllItsIntervals) {
  // Two runs: the first admitted at 0 started in Slurm at 3, ended at 20; the
  // second admitted at 40, ran 41-90 while the ledger closed at 70.
  const std::vector<AllocationInterval> ledger = {recon_interval(5, 2, 0, 20),
                                                  recon_interval(5, 2, 40, 70)};
  const std::vector<BackendJobRecord> jobs = {recon_job(5, "10", 2, 3, 20),
                                              recon_job(5, "11", 2, 41, 90)};
  const std::vector<UsageAdjustment> all = reconcile_with_backend(ledger, {}, jobs);
  EXPECT_EQ(coverage_of(all, 5), std::vector<Period>{recon_span(0, 90)});
  const std::vector<UsageAdjustment> made = differences(all);
  ASSERT_EQ(made.size(), 3u);
  EXPECT_EQ(made[0].span, (Period{recon_second(0), recon_second(3)}));
  EXPECT_EQ(made[0].gpus, -2);
  EXPECT_EQ(made[1].span, (Period{recon_second(40), recon_second(41)}));
  EXPECT_EQ(made[1].gpus, -2);
  EXPECT_EQ(made[2].span, (Period{recon_second(70), recon_second(90)}));
  EXPECT_EQ(made[2].gpus, 2);
  EXPECT_EQ(made[2].job_ids, "10,11");
}

TEST(BackendReconciliation, AReportOfLedgerAndAdjustmentsCountsWhatTheBackendRan) {
  UsageLedger ledger;
  ledger.allocations = {recon_interval(1, 2, 0, 100), recon_interval(2, 1, 0, 50)};
  const std::vector<BackendJobRecord> jobs = {recon_job(1, "1", 2, 10, 100),
                                              recon_job(2, "2", 1, 0, 80)};
  ledger.adjustments = reconcile_with_backend(ledger.allocations, {}, jobs);
  ledger.capacity = {{"h100", {8, 0, 0}, recon_second(0), std::nullopt}};
  const UsageQuery query{
      recon_second(0), recon_second(3600), {GroupKey::kTeam}, IdleMode::kSeparate, std::nullopt};
  const Result<UsageReport> report = build_usage_report(ledger, query);
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  ASSERT_EQ(report->rows.size(), 1u);
  const ResourceTime used = report->rows[0].figures.sum().own;
  EXPECT_EQ(used[Resource::kGpu], WideInt{2 * 90'000 + 1 * 80'000}) << "sacct's GPU-ms";
  ASSERT_EQ(report->flavors.size(), 1u);
  const FlavorBalance& balance = report->flavors[0];
  EXPECT_EQ(balance.allocated[Resource::kGpu], used[Resource::kGpu]);
  EXPECT_EQ(balance.capacity, balance.allocated + balance.idle.sum().idle);
}

UsageQuery recon_whole_hour() {
  return {recon_second(0),
          recon_second(3600),
          {GroupKey::kWorkload},
          IdleMode::kSeparate,
          std::nullopt};
}

// allotd was down over [30, 100): workload 1's job ran 5-60 in Slurm (its
// interval, admitted at 0, closed at the restart); workload 2 ran on the
// local backend, which keeps no record. The backend's record counts through
// the missing data, in the rows and apart from the flavor's balance; the
// unrecorded work does not.
TEST(BackendReconciliation, AJobThatRanWhileAllotdWasDownCountsThroughTheMissingData) {
  UsageLedger ledger;
  ledger.allocations = {recon_interval(1, 2, 0, 100), recon_interval(2, 1, 0, 100)};
  ledger.missing = {recon_span(30, 100)};
  ledger.capacity = {{"h100", {8, 0, 0}, recon_second(0), std::nullopt}};
  ledger.adjustments =
      reconcile_with_backend(ledger.allocations, {}, {recon_job(1, "9", 2, 5, 60)});
  const Result<UsageReport> report = build_usage_report(ledger, recon_whole_hour());
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  ASSERT_EQ(report->rows.size(), 2u);
  EXPECT_EQ(report->rows[0].keys, std::vector<std::string>{"team-a/w1"});
  EXPECT_EQ(report->rows[0].figures.sum().own[Resource::kGpu], WideInt{2} * 55'000)
      << "sacct's 55 s, 30 of them while allotd was down";
  EXPECT_EQ(report->rows[1].figures.sum().own[Resource::kGpu], WideInt{1} * 30'000)
      << "no record covers the local work's missing data";

  ASSERT_EQ(report->flavors.size(), 1u);
  const FlavorBalance& balance = report->flavors[0];
  EXPECT_EQ(balance.allocated_while_missing[Resource::kGpu], WideInt{2} * 30'000);
  EXPECT_EQ(balance.allocated[Resource::kGpu], WideInt{2} * 25'000 + WideInt{1} * 30'000);
  EXPECT_EQ(balance.capacity[Resource::kGpu], WideInt{8} * (3600 - 70) * 1000);
  EXPECT_EQ(balance.capacity, balance.allocated + balance.idle.sum().idle);
  ASSERT_EQ(report->adjustments.size(), 2u) << "the coverage entry is not listed";
  for (const UsageAdjustment& a : report->adjustments) EXPECT_NE(a.gpus, 0);
}

// A workload's coverage spans only what was reconciled: its later run, not
// reconciled yet (still open), is not counted through missing data.
TEST(BackendReconciliation, ALaterRunNotYetReconciledIsNotCountedThroughMissingData) {
  UsageLedger ledger;
  ledger.allocations = {recon_interval(5, 1, 0, 20), recon_interval(5, 1, 40, std::nullopt)};
  ledger.adjustments =
      reconcile_with_backend({recon_interval(5, 1, 0, 20)}, {}, {recon_job(5, "10", 1, 2, 20)});
  ASSERT_EQ(coverage_of(ledger.adjustments, 5), std::vector<Period>{recon_span(0, 20)});
  ledger.missing = {recon_span(10, 15), recon_span(50, 90)};
  const Result<UsageReport> report = build_usage_report(ledger, recon_whole_hour());
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  ASSERT_EQ(report->rows.size(), 1u);
  const WideInt first_run = 18'000;                           // Slurm's 2-20, gap included
  const WideInt second_run = WideInt{3600 - 40 - 40} * 1000;  // 40 s of it in the gap
  EXPECT_EQ(report->rows[0].figures.sum().own[Resource::kGpu], first_run + second_run);
}

}  // namespace
}  // namespace allot
