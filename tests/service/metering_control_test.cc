// Metering through the control plane on a manual clock (issue 14): the
// ledger is written with the admission, the preemption, the node failure and
// the restart that cause it, and the usage report reconciles to the second
// with hand-computed figures; with metering off nothing of it is stored.
//
// The cluster (kTwoTeamPolicy): flavor gpu on 2 nodes of 8 GPUs, 64 CPUs and
// 256 GiB; teams prod and research with 8 GPUs nominal each in one cohort.
#include <array>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

constexpr int64_t kHourMs = 3'600'000;

std::string priced_policy(double gpu_hour) {
  std::string policy = kTwoTeamPolicy;
  const std::string flavor = "metadata: {name: gpu}\n";
  policy.replace(
      policy.find(flavor), flavor.size(),
      flavor + "spec: {price: {currency: EUR, gpuHour: " + std::to_string(gpu_hour) + "}}\n");
  return policy;
}

std::string research_viewer_binding() {
  return "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: "
         "viewers, namespace: research}\nsubjects: [{kind: User, name: rita}]\nroleRef: {apiGroup: "
         "rbac.authorization.k8s.io, kind: ClusterRole, name: team-viewer}\n";
}

class MeteringControl : public ControlPlaneTest {
 protected:
  Timestamp at(int64_t ms) const { return start_ + Duration::millis(ms); }

  UsageReport report(UsageReportRequest request,
                     const Principal& caller = Principal::anonymous_admin()) {
    Result<UsageReportResult> result = plane_->reports().usage(caller, request);
    EXPECT_TRUE(result.ok()) << result.status().to_string();
    if (!result.ok()) return {};
    rates_ = result->rates;
    return result->report;
  }

  const UsageRow* row(const UsageReport& report, const std::string& key) {
    for (const UsageRow& r : report.rows) {
      if (r.keys.front() == key) return &r;
    }
    ADD_FAILURE() << "no row " << key;
    return nullptr;
  }

  // allocated + idle == capacity x time, to the millisecond, per flavor.
  static void expect_reconciles(const UsageReport& report) {
    ASSERT_FALSE(report.flavors.empty());
    for (const FlavorBalance& f : report.flavors) {
      EXPECT_EQ(f.allocated + f.shared_idle + f.idle.sum().idle, f.capacity) << f.flavor;
    }
  }

  bool holds(const std::string& ns, const std::string& name) {
    const std::string now = phase(ns, name);
    return now == "Admitted" || now == "Running";
  }

  Timestamp start_ = clock_.now();
  RateCard rates_;
};

TEST_F(MeteringControl, OwnBorrowedARateChangeAndAPreemptionReconcileToTheSecond) {
  apply_policy(priced_policy(2));
  // research: 12 GPUs, 8 within its nominal, 4 borrowed from prod's idle quota.
  const uint64_t r1 = submit(workload_yaml("r1", "research", 6, 2), "research");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));

  clock_.advance(Duration::hours(1));
  apply_policy(priced_policy(3));  // rate card version 2 from 1h

  clock_.advance(Duration::hours(1));
  submit(workload_yaml("p1", "prod", 8, 1, "high"), "prod");  // reclaims its nominal
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "p1"), "Pending");
  clock_.advance(Duration::seconds(10));
  exit_pods(r1, 143, /*stopped=*/true);  // r1's pods stop 10 s into the grace period
  plane_->loop().run_once();
  ASSERT_EQ(phase("research", "r1"), "Preempted");  // requeued
  ASSERT_TRUE(holds("prod", "p1"));

  clock_.advance(Duration::hours(1) - Duration::seconds(10));
  const UsageReport usage =
      report({at(0), at(3 * kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  const double r1_hours = 2 + 10.0 / 3600;  // 0h .. 2h10s
  const double p1_hours = 1 - 10.0 / 3600;  // 2h10s .. 3h
  const PricedTime research = row(usage, "research")->figures.sum();
  EXPECT_DOUBLE_EQ(research.own.hours(Resource::kGpu), 8 * r1_hours);
  EXPECT_DOUBLE_EQ(research.borrowed.hours(Resource::kGpu), 4 * r1_hours);
  const Costs research_cost = row(usage, "research")->figures.costs(rates_);
  EXPECT_NEAR(research_cost.own + research_cost.borrowed, 12 * 1 * 2.0 + 12 * (r1_hours - 1) * 3.0,
              1e-9);
  EXPECT_NEAR(research_cost.borrowed, 4 * 1 * 2.0 + 4 * (r1_hours - 1) * 3.0, 1e-9);
  const PricedTime prod = row(usage, "prod")->figures.sum();
  EXPECT_DOUBLE_EQ(prod.own.hours(Resource::kGpu), 8 * p1_hours);
  EXPECT_DOUBLE_EQ(prod.borrowed.hours(Resource::kGpu), 0);
  ASSERT_EQ(usage.rate_cards.size(), 2u);
  EXPECT_EQ(usage.rate_cards[1].from, at(kHourMs));
  EXPECT_EQ(usage.currency, "EUR");
  ASSERT_EQ(usage.flavors.size(), 1u);
  EXPECT_DOUBLE_EQ(usage.flavors[0].capacity.hours(Resource::kGpu), 16 * 3);
  EXPECT_DOUBLE_EQ(usage.flavors[0].idle.sum().idle.hours(Resource::kGpu),
                   48 - 12 * r1_hours - 8 * p1_hours);
  expect_reconciles(usage);
  EXPECT_TRUE(usage.missing.empty());
}

TEST_F(MeteringControl, ARestartClosesTheOpenIntervalAndShowsTheDowntimeAsMissingData) {
  apply_policy(priced_policy(2));
  submit(workload_yaml("r1", "research", 8), "research");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  clock_.advance(Duration::minutes(30));
  plane_->loop().run_once();  // the last heartbeat: 30m
  clock_.advance(Duration::minutes(15));
  restart();  // allotd was down from 30m to 45m
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));  // requeued and admitted again at 45m
  clock_.advance(Duration::minutes(15));

  const UsageReport usage = report({at(0), at(kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  ASSERT_EQ(usage.missing.size(), 1u);
  EXPECT_EQ(usage.missing[0], (Period{at(30 * 60'000), at(45 * 60'000)}));
  // Counted: 0..30m and 45m..60m, nothing of the downtime, nothing twice.
  EXPECT_DOUBLE_EQ(row(usage, "research")->figures.sum().own.hours(Resource::kGpu), 8 * 0.75);
  EXPECT_DOUBLE_EQ(usage.flavors[0].capacity.hours(Resource::kGpu), 16 * 0.75);
  expect_reconciles(usage);
  // The interrupted run's interval was closed at the restart, not left open.
  const Result<StoredState> stored = store_.load();
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->open_allocations.size(), 1u);
  EXPECT_EQ(stored->open_allocations[0].start_ms, at(45 * 60'000).ms());
}

// The backend's own accounting (Slurm's sacct) says the job started 5 min
// after the admission and ended 10 min after allot saw the exit: explicit
// adjustments bring the report to the backend's figure; a second
// reconciliation adds nothing, nor does one after a restart (the adjustments
// are stored); the ledger's interval itself is unchanged.
TEST_F(MeteringControl, TheBackendsAccountingAdjustsTheLedgerOnceAndTheAdjustmentsAreStored) {
  apply_policy(priced_policy(2));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 8), "research");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  clock_.advance(Duration::minutes(30));
  exit_pods(r1, 0);
  clock_.advance(Duration::minutes(30));
  plane_->loop().run_once();  // the last heartbeat: 60m, the restart below at 60m
  executor_.accounted = {{"77", WorkloadId(r1), "research", at(5 * 60'000), at(40 * 60'000), 8}};

  const Result<size_t> made = plane_->reconcile_usage_with_backend();
  ASSERT_TRUE(made.ok()) << made.status().to_string();
  EXPECT_EQ(*made, 2u);  // -8 GPUs over [0, 5m), +8 over [30m, 40m)
  EXPECT_EQ(plane_->reconcile_usage_with_backend().value(), 0u);
  const UsageReportRequest request{at(0), at(kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate};
  const UsageReport usage = report(request);
  EXPECT_DOUBLE_EQ(row(usage, "research")->figures.sum().own.hours(Resource::kGpu), 8 * 35 / 60.0);
  expect_reconciles(usage);

  restart();
  EXPECT_EQ(plane_->reconcile_usage_with_backend().value(), 0u) << "no second counted twice";
  const UsageReport again = report(request);
  EXPECT_DOUBLE_EQ(row(again, "research")->figures.sum().own.hours(Resource::kGpu), 8 * 35 / 60.0);
  const Result<std::vector<AllocationRecord>> ledger = store_.allocations(0, at(kHourMs).ms());
  ASSERT_TRUE(ledger.ok());
  ASSERT_EQ(ledger->size(), 1u);
  EXPECT_EQ(ledger->front().start_ms, at(0).ms()) << "the ledger's interval is not rewritten";
  EXPECT_EQ(ledger->front().end_ms, at(30 * 60'000).ms());
}

TEST_F(MeteringControl, SharedIdleGoesToTheTeamsAndATeamViewerSeesOnlyItsTeam) {
  apply_policy(priced_policy(2) + research_viewer_binding());
  submit(workload_yaml("r1", "research", 4), "research");
  submit(workload_yaml("p1", "prod", 2), "prod");
  plane_->loop().run_once();
  clock_.advance(Duration::hours(2));

  const UsageReport even =
      report({at(0), at(2 * kHourMs), {GroupKey::kTeam}, IdleMode::kShareEven});
  // Idle: 32 - 8 - 4 = 20 GPU-hours, 10 each (both have 8 GPUs nominal).
  EXPECT_DOUBLE_EQ(row(even, "prod")->figures.sum().idle.hours(Resource::kGpu), 10);
  EXPECT_DOUBLE_EQ(row(even, "research")->figures.sum().idle.hours(Resource::kGpu), 10);
  expect_reconciles(even);

  const Principal rita = Principal::user("rita");
  const UsageReport mine =
      report({at(0), at(2 * kHourMs), {GroupKey::kTeam}, IdleMode::kShareNominal}, rita);
  ASSERT_EQ(mine.rows.size(), 1u);
  EXPECT_EQ(mine.rows[0].keys.front(), "research");
  EXPECT_DOUBLE_EQ(mine.rows[0].figures.sum().own.hours(Resource::kGpu), 8);
  EXPECT_DOUBLE_EQ(mine.rows[0].figures.sum().idle.hours(Resource::kGpu), 10);
  EXPECT_TRUE(mine.flavors.empty());  // the cluster's idle line is not a team's to see

  const Result<UsageReportResult> stranger = plane_->reports().usage(
      Principal::user("mallory"), {at(0), at(kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  EXPECT_EQ(stranger.status().code(), ErrorCode::kPermissionDenied);
}

TEST_F(MeteringControl, APeriodInTheFutureIsClippedToNowAndAnEmptyOneIsRefused) {
  apply_policy(priced_policy(2));
  submit(workload_yaml("r1", "research", 8), "research");
  plane_->loop().run_once();
  clock_.advance(Duration::hours(1));
  const UsageReport usage =
      report({at(0), at(10 * kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  EXPECT_EQ(usage.query.to, clock_.now());
  EXPECT_DOUBLE_EQ(row(usage, "research")->figures.sum().own.hours(Resource::kGpu), 8);
  const Result<UsageReportResult> future = plane_->reports().usage(
      Principal::anonymous_admin(),
      {at(2 * kHourMs), at(3 * kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  EXPECT_EQ(future.status().code(), ErrorCode::kInvalidArgument);
}

// Issue 13, item 4: each team's metered GPU time beside the backend's own
// report of its account (Slurm's sreport), over the whole hours around the
// period asked; accounts that are no team (allot's root, work outside allot)
// are no rows.
TEST_F(MeteringControl, TheBackendsGpuTimeIsSetBesideEachTeamsOverWholeHours) {
  apply_policy(priced_policy(2) + research_viewer_binding());
  const uint64_t r1 = submit(workload_yaml("r1", "research", 8), "research");
  submit(workload_yaml("p1", "prod", 2), "prod");
  plane_->loop().run_once();
  clock_.advance(Duration::minutes(30));
  exit_pods(r1, 0);
  clock_.advance(Duration::minutes(20));
  plane_->loop().run_once();
  executor_.account_usage_answer = {
      {"root", 20'533}, {"research", 8 * 1800 + 60}, {"prod", 2 * 3000 - 4}, {"outside", 77}};

  const Result<BackendUsageComparison> compared = plane_->reports().backend_usage(
      Principal::anonymous_admin(), at(10 * 60'000), at(50 * 60'000));
  ASSERT_TRUE(compared.ok()) << compared.status().to_string();
  ASSERT_EQ(executor_.account_usage_asks.size(), 1u);
  EXPECT_EQ(executor_.account_usage_asks[0].first, at(0)) << "the hour around `from`";
  EXPECT_EQ(executor_.account_usage_asks[0].second, at(kHourMs)) << "the hour around `to`";
  EXPECT_EQ(compared->window.from, at(0));
  EXPECT_EQ(compared->window.to, at(kHourMs));
  EXPECT_EQ(compared->counted_to, clock_.now());
  EXPECT_TRUE(compared->hour_open());
  EXPECT_EQ(compared->source, "test accounting");
  ASSERT_EQ(compared->rows.size(), 2u);
  EXPECT_EQ(compared->rows[0], (BackendUsageRow{TeamId("prod"), 2 * 3000 * 1000, 2 * 3000 - 4}));
  EXPECT_EQ(compared->rows[1],
            (BackendUsageRow{TeamId("research"), 8 * 1800 * 1000, 8 * 1800 + 60}));
  EXPECT_DOUBLE_EQ(compared->rows[0].difference_gpu_seconds(), 4);
  EXPECT_DOUBLE_EQ(compared->rows[1].difference_gpu_seconds(), -60);
  EXPECT_EQ(compared->totals.allot_gpu_ms, (6000 + 14'400) * 1000);
  EXPECT_EQ(compared->totals.backend_gpu_seconds, 5996 + 14'460);

  const Result<BackendUsageComparison> mine =
      plane_->reports().backend_usage(Principal::user("rita"), at(0), at(kHourMs));
  ASSERT_TRUE(mine.ok()) << mine.status().to_string();
  ASSERT_EQ(mine->rows.size(), 1u) << "a team's viewer sees its team's row alone";
  EXPECT_EQ(mine->rows[0].team, TeamId("research"));
  EXPECT_EQ(mine->totals.backend_gpu_seconds, 8 * 1800 + 60);
  EXPECT_EQ(executor_.account_usage_asks.back().second, at(kHourMs)) << "a whole hour stays";
}

TEST_F(MeteringControl, TheBackendUsageRefusesStrangersEmptyOrFuturePeriodsAndPassesBackendErrors) {
  apply_policy(priced_policy(2));
  clock_.advance(Duration::minutes(90));
  const auto compare = [&](const Principal& caller, int64_t from_ms, int64_t to_ms) {
    return plane_->reports().backend_usage(caller, at(from_ms), at(to_ms));
  };
  EXPECT_EQ(compare(Principal::user("mallory"), 0, kHourMs).status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(compare(Principal::anonymous_admin(), kHourMs, kHourMs).status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(compare(Principal::anonymous_admin(), 2 * kHourMs, 3 * kHourMs).status().code(),
            ErrorCode::kInvalidArgument)
      << "the period starts after now";
  EXPECT_TRUE(executor_.account_usage_asks.empty()) << "nothing asked of the backend";
  executor_.account_usage_error = Status(ErrorCode::kUnavailable, "sreport: connection refused");
  const Result<BackendUsageComparison> failed = compare(Principal::anonymous_admin(), 0, kHourMs);
  EXPECT_EQ(failed.status().code(), ErrorCode::kUnavailable);
  EXPECT_NE(failed.status().message().find("connection refused"), std::string::npos);
}

// A measured GPU (GpuUsageSample) of a workload's pod, read at `at`.
GpuUsageSample measured_gpu(uint64_t workload, const std::string& team, int32_t gpu,
                            double utilization, Timestamp at) {
  GpuUsageSample sample;
  sample.node = "n1";
  sample.gpu = gpu;
  sample.team = team;
  sample.workload = WorkloadId(workload);
  sample.pod = 0;
  sample.utilization = utilization;
  sample.at = at;
  return sample;
}

constexpr std::array kEveryGrouping = {GroupKey::kTeam,   GroupKey::kUser, GroupKey::kWorkload,
                                       GroupKey::kFlavor, GroupKey::kDay,  GroupKey::kProject};

TEST_F(MeteringControl, EfficiencyIsBusyOverMeasuredGpuTimeAndNotMeasuredWithoutSamples) {
  apply_policy(priced_policy(2));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 2), "research");
  submit(workload_yaml("p1", "prod", 1), "prod");  // never measured
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  // Every 10 s for a minute: GPU 0 at 50 %; GPU 1 at 100 % for 30 s, then 25 %.
  for (int step = 0; step <= 6; ++step) {
    const Timestamp now = at(step * 10'000);
    executor_.set_gpu_usage({measured_gpu(r1, "research", 0, 0.5, now),
                             measured_gpu(r1, "research", 1, step <= 3 ? 1.0 : 0.25, now)});
    plane_->loop().run_once();
    plane_->loop().run_once();  // the same reading again: nothing counted twice
    clock_.advance(Duration::seconds(10));
  }
  clock_.advance(Duration::minutes(10));  // no samples: nothing more measured
  // Measured: 2 GPUs x 60 s = 120 GPU-s; busy: 30 + 30 + 7.5 = 67.5 GPU-s.
  const UsageReport usage = report({at(0), at(kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  const Efficiency& research = row(usage, "research")->figures.efficiency;
  EXPECT_EQ(research.measured_gpu_ms, WideInt{120'000});
  EXPECT_EQ(research.busy_gpu_ppm_ms, WideInt{67'500} * 1'000'000);
  EXPECT_DOUBLE_EQ(research.measured_gpu_hours(), 120.0 / 3600);
  EXPECT_DOUBLE_EQ(research.gpu_utilization(), 67.5 / 120);
  EXPECT_FALSE(row(usage, "prod")->figures.efficiency.measured());  // not measured, not 0
  EXPECT_EQ(usage.totals.efficiency, research);
  for (GroupKey key : kEveryGrouping) {
    const UsageReport by = report({at(0), at(kHourMs), {key}, IdleMode::kSeparate});
    EXPECT_EQ(by.totals.efficiency, research) << group_key_name(key);
  }
  // A period that cuts the samples counts its part only: [0, 25 s).
  const UsageReport part = report({at(0), at(25'000), {GroupKey::kTeam}, IdleMode::kSeparate});
  EXPECT_EQ(row(part, "research")->figures.efficiency.measured_gpu_ms, WideInt{50'000});
  EXPECT_EQ(row(part, "research")->figures.efficiency.busy_gpu_ppm_ms,
            WideInt{12'500 + 25'000} * 1'000'000);
}

TEST_F(MeteringControl, EfficiencyAcrossARestartCountsNoSecondTwice) {
  apply_policy(priced_policy(2));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 1), "research");
  for (int step = 0; step <= 2; ++step) {  // 0 s (baseline), 10 s, 20 s: 20 GPU-s at 100 %
    executor_.set_gpu_usage({measured_gpu(r1, "research", 0, 1.0, at(step * 10'000))});
    plane_->loop().run_once();
    clock_.advance(Duration::seconds(10));
  }
  clock_.advance(Duration::minutes(15));
  restart();  // the new allotd reads the last reading (20 s) again first
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  const Timestamp back = clock_.now();
  for (int step = 1; step <= 2; ++step) {  // +10 s: after a gap, a baseline; +20 s: 10 s at 50 %
    clock_.advance(Duration::seconds(10));
    executor_.set_gpu_usage({measured_gpu(r1, "research", 0, 0.5, clock_.now())});
    plane_->loop().run_once();
  }
  const Result<std::vector<GpuUtilizationRecord>> stored =
      store_.gpu_utilization(at(0).ms(), clock_.now().ms());
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(*stored, (std::vector<GpuUtilizationRecord>{
                         {WorkloadId(r1), "n1/0", at(0).ms(), at(10'000).ms(), 1'000'000},
                         {WorkloadId(r1), "n1/0", at(10'000).ms(), at(20'000).ms(), 1'000'000},
                         {WorkloadId(r1), "n1/0", (back + Duration::seconds(10)).ms(),
                          (back + Duration::seconds(20)).ms(), 500'000}}));
  const UsageReport usage = report({at(0), clock_.now(), {GroupKey::kTeam}, IdleMode::kSeparate});
  ASSERT_EQ(usage.missing.size(), 1u);  // allotd was down
  const Efficiency& e = row(usage, "research")->figures.efficiency;
  EXPECT_EQ(e.measured_gpu_ms, WideInt{30'000});
  EXPECT_DOUBLE_EQ(e.gpu_utilization(), 25.0 / 30);
}

// A node failure mid-period (issue 14's tests): research's 4 GPUs run on a
// node that fails at 1 h; the workload is evicted and readmitted on the
// other node in the same pass. The ledger holds two intervals that meet at
// 1 h, neither second lost nor counted twice: 8 GPU-hours at 2 EUR over
// [0, 2 h), and workloads + idle = capacity x time.
TEST_F(MeteringControl, ANodeFailureMidPeriodClosesAndReopensTheIntervalToTheSecond) {
  apply_policy(priced_policy(2));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  const std::string node = executor_.launches.at(0).node;

  clock_.advance(Duration::hours(1));
  health_.unhealthy[node] = "disk full";
  plane_->loop().run_once();           // health check: the node fails, r1 is stopped
  exit_pods(r1, 0, /*stopped=*/true);  // requeued and readmitted in the same pass
  ASSERT_TRUE(holds("research", "r1"));
  ASSERT_EQ(executor_.launches.size(), 2u);
  EXPECT_NE(executor_.launches.at(1).node, node);

  clock_.advance(Duration::hours(1));
  const Result<std::vector<AllocationRecord>> ledger =
      store_.allocations(at(0).ms(), at(2 * kHourMs).ms());
  ASSERT_TRUE(ledger.ok());
  ASSERT_EQ(ledger->size(), 2u);
  EXPECT_EQ((*ledger)[0].start_ms, at(0).ms());
  EXPECT_EQ((*ledger)[0].end_ms, at(kHourMs).ms());
  EXPECT_EQ((*ledger)[1].start_ms, at(kHourMs).ms());
  EXPECT_FALSE((*ledger)[1].end_ms.has_value()) << "still running";
  const UsageReport usage =
      report({at(0), at(2 * kHourMs), {GroupKey::kTeam}, IdleMode::kSeparate});
  const PricedTime research = row(usage, "research")->figures.sum();
  EXPECT_DOUBLE_EQ(research.own.hours(Resource::kGpu), 8.0);
  EXPECT_DOUBLE_EQ(research.borrowed.hours(Resource::kGpu), 0.0);
  EXPECT_NEAR(row(usage, "research")->figures.costs(rates_).total(), 16.0, 1e-9);
  expect_reconciles(usage);
}

// allotd --metering off (the A/B of metering's cost only): the work is
// admitted and measured as ever, but no allocation or utilisation interval
// is stored; with it on (the other tests), both are.
TEST_F(MeteringControl, WithMeteringOffNothingOfTheLedgerIsStored) {
  metering_ = false;
  restart();
  apply_policy(priced_policy(2));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 1), "research");
  for (int step = 0; step <= 2; ++step) {
    executor_.set_gpu_usage({measured_gpu(r1, "research", 0, 1.0, at(step * 10'000))});
    plane_->loop().run_once();
    clock_.advance(Duration::seconds(10));
  }
  ASSERT_TRUE(holds("research", "r1"));
  exit_pods(r1, 0);
  plane_->loop().run_once();
  const Result<std::vector<AllocationRecord>> allocations =
      store_.allocations(at(0).ms(), clock_.now().ms() + 1);
  ASSERT_TRUE(allocations.ok());
  EXPECT_TRUE(allocations->empty());
  const Result<std::vector<GpuUtilizationRecord>> measured =
      store_.gpu_utilization(at(0).ms(), clock_.now().ms() + 1);
  ASSERT_TRUE(measured.ok());
  EXPECT_TRUE(measured->empty());
}

TEST_F(MeteringControl, EachTeamsQuotaIsAsItWasAtTheEndOfEachBucketAlsoAfterARestart) {
  apply_policy();  // at start_: prod and research 8 nominal, no borrowing limit
  clock_.advance(Duration::minutes(20));
  std::string changed = kTwoTeamPolicy;
  const std::string prod_quota = "{gpu: {nominal: 8}}";
  changed.replace(changed.find(prod_quota), prod_quota.size(),
                  "{gpu: {nominal: 6, borrowingLimit: 2}}");
  apply_policy(changed);
  clock_.advance(Duration::minutes(10));
  restart();  // read back from the stored TeamQuota objects
  const Result<TeamStatsView> stats =
      plane_->team_stats().stats(Principal::anonymous_admin(), parse_stats_range("1h").value());
  ASSERT_TRUE(stats.ok()) << stats.status().to_string();
  ASSERT_EQ(stats->from, start_ - Duration::minutes(30));
  for (const TeamStatsRow& row : stats->teams) {
    ASSERT_EQ(row.quota_series.size(), 60u) << row.team;
    // Bucket i ends at start_ + (i - 29) minutes: nothing recorded before start_.
    for (size_t i = 0; i < 60; ++i) {
      std::optional<TeamQuotaGpus> expected;
      if (i >= 29) expected = TeamQuotaGpus{8, std::nullopt};
      if (i >= 49 && row.team == "prod") expected = TeamQuotaGpus{6, 8};
      EXPECT_EQ(row.quota_series[i], expected) << row.team << " bucket " << i;
    }
  }
  // The quota now is the last bucket's.
  for (const TeamStatsRow& row : stats->teams) {
    EXPECT_EQ((TeamQuotaGpus{row.nominal_gpus, row.ceiling_gpus}), row.quota_series.back());
  }
}

}  // namespace
}  // namespace allot::testing
