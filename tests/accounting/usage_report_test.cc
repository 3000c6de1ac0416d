// Usage reports on a scripted ledger, against hand-computed figures.
//
// The cluster: flavor h100 with 8 GPUs, 64 CPUs and 512 GiB over [0h, 10h),
// priced 2.00/GPU-h, 0.05/CPU-h, 0.01/GiB-h (version 1).
// - w1 (team a, user ana): own 4 GPU 16 CPU 128 GiB, borrowed 2 GPU 8 CPU
//   64 GiB, over [1h, 4h).
// - w2 (team b, user bo): own 2 GPU, from 0h, still open.
#include "accounting/usage_report.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

constexpr int64_t kReportGiB = int64_t{1} << 30;

Timestamp report_hour(int64_t h) { return Timestamp::from_millis(h * 3'600'000); }
Timestamp at_minute(int64_t m) { return Timestamp::from_millis(m * 60'000); }

AllocationInterval allocation(uint64_t id, std::string team, std::string user, ResourceVector own,
                              ResourceVector borrowed, Timestamp start,
                              std::optional<Timestamp> end) {
  return {WorkloadId(id),
          team + "/w" + std::to_string(id),
          TeamId(team),
          std::move(user),
          "h100",
          own,
          borrowed,
          start,
          end};
}

UsageLedger scenario() {
  UsageLedger ledger;
  ledger.allocations = {
      allocation(1, "a", "ana", {4, 16000, 128 * kReportGiB}, {2, 8000, 64 * kReportGiB},
                 report_hour(1), report_hour(4)),
      allocation(2, "b", "bo", {2, 0, 0}, {}, report_hour(0), std::nullopt),
  };
  ledger.capacity = {{"h100", {8, 64000, 512 * kReportGiB}, report_hour(0), std::nullopt}};
  ledger.nominal = {{TeamId("a"), "h100", {6, 48000, 384 * kReportGiB}},
                    {TeamId("b"), "h100", {2, 16000, 128 * kReportGiB}}};
  ledger.rates = RateCard::create({{1, "h100", report_hour(0), {2.0, 0.05, 0.01, "USD"}}}).value();
  return ledger;
}

UsageQuery query(std::vector<GroupKey> by, IdleMode idle = IdleMode::kSeparate) {
  return {report_hour(0), report_hour(10), std::move(by), idle, std::nullopt};
}

const UsageRow& row(const UsageReport& report, const std::vector<std::string>& keys) {
  for (const UsageRow& r : report.rows) {
    if (r.keys == keys) return r;
  }
  ADD_FAILURE() << "no row " << keys.front();
  static const UsageRow kNone;
  return kNone;
}

// own + borrowed + idle == capacity x time, per flavor, to the millisecond.
void expect_reconciles(const UsageReport& report) {
  for (const FlavorBalance& f : report.flavors) {
    ResourceTime left_idle = f.idle.sum().idle;
    EXPECT_EQ(f.allocated + f.shared_idle + left_idle, f.capacity) << f.flavor;
  }
}

TEST(UsageReport, SplitsOwnAndBorrowedHoursAndPricesThem) {
  auto report = build_usage_report(scenario(), query({GroupKey::kTeam}));
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  ASSERT_EQ(report->rows.size(), 2u);
  const PricedTime a = row(*report, {"a"}).figures.sum();
  EXPECT_DOUBLE_EQ(a.own.hours(Resource::kGpu), 12.0);
  EXPECT_DOUBLE_EQ(a.borrowed.hours(Resource::kGpu), 6.0);
  EXPECT_DOUBLE_EQ((a.own + a.borrowed).hours(Resource::kCpu), 72.0);
  EXPECT_DOUBLE_EQ((a.own + a.borrowed).hours(Resource::kMemory), 576.0);
  const Costs a_costs = row(*report, {"a"}).figures.costs(scenario().rates);
  EXPECT_NEAR(a_costs.own, 24 + 2.4 + 3.84, 1e-9);
  EXPECT_NEAR(a_costs.borrowed, 12 + 1.2 + 1.92, 1e-9);
  const PricedTime b = row(*report, {"b"}).figures.sum();
  EXPECT_DOUBLE_EQ(b.own.hours(Resource::kGpu), 20.0);  // open: counted up to `to`
  EXPECT_EQ(report->currency, "USD");
  ASSERT_EQ(report->rate_cards.size(), 1u);
  EXPECT_EQ(report->rate_cards[0].version, 1);
}

TEST(UsageReport, SeparateIdleIsCapacityMinusAllocatedPerFlavor) {
  auto report = build_usage_report(scenario(), query({GroupKey::kFlavor}));
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->flavors.size(), 1u);
  const PricedTime idle = report->flavors[0].idle.sum();
  EXPECT_DOUBLE_EQ(idle.idle.hours(Resource::kGpu), 80.0 - 18.0 - 20.0);
  EXPECT_DOUBLE_EQ(idle.idle.hours(Resource::kCpu), 640.0 - 72.0);
  EXPECT_DOUBLE_EQ(idle.idle.hours(Resource::kMemory), 5120.0 - 576.0);
  EXPECT_NEAR(report->flavors[0].idle.costs(scenario().rates).idle,
              42 * 2.0 + 568 * 0.05 + 4544 * 0.01, 1e-9);
  expect_reconciles(*report);
}

TEST(UsageReport, ShareEvenGivesEachTeamWithANominalQuotaAnEqualPart) {
  auto report = build_usage_report(scenario(), query({GroupKey::kTeam}, IdleMode::kShareEven));
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_DOUBLE_EQ(row(*report, {"a"}).figures.sum().idle.hours(Resource::kGpu), 21.0);
  EXPECT_DOUBLE_EQ(row(*report, {"b"}).figures.sum().idle.hours(Resource::kGpu), 21.0);
  EXPECT_TRUE(report->flavors[0].idle.sum().idle.is_zero());
  expect_reconciles(*report);
  EXPECT_DOUBLE_EQ(report->totals.sum().idle.hours(Resource::kGpu), 42.0);
}

TEST(UsageReport, ShareNominalSplitsIdleByNominalQuotaPerResource) {
  auto report = build_usage_report(scenario(), query({GroupKey::kTeam}, IdleMode::kShareNominal));
  ASSERT_TRUE(report.ok());
  EXPECT_DOUBLE_EQ(row(*report, {"a"}).figures.sum().idle.hours(Resource::kGpu), 31.5);
  EXPECT_DOUBLE_EQ(row(*report, {"b"}).figures.sum().idle.hours(Resource::kGpu), 10.5);
  EXPECT_DOUBLE_EQ(row(*report, {"a"}).figures.sum().idle.hours(Resource::kCpu), 568.0 * 0.75);
  expect_reconciles(*report);
}

TEST(UsageReport, SharedIdleNeedsRowsByTeamFlavorOrDay) {
  auto report = build_usage_report(scenario(), query({GroupKey::kUser}, IdleMode::kShareEven));
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().message().find("not 'user'"), std::string::npos);
  EXPECT_FALSE(build_usage_report(scenario(), query({GroupKey::kTeam, GroupKey::kTeam})).ok());
  UsageQuery empty = query({GroupKey::kTeam});
  empty.to = empty.from;
  EXPECT_FALSE(build_usage_report(scenario(), empty).ok());
}

TEST(UsageReport, ARateChangeMidPeriodPricesEachSideWithItsVersion) {
  UsageLedger ledger = scenario();
  ledger.rates = RateCard::create({{1, "h100", report_hour(0), {2.0, 0, 0, "USD"}},
                                   {2, "h100", report_hour(5), {3.0, 0, 0, "USD"}}})
                     .value();
  auto report = build_usage_report(ledger, query({GroupKey::kWorkload}));
  ASSERT_TRUE(report.ok());
  const UsageFigures& w2 = row(*report, {"b/w2"}).figures;
  ASSERT_EQ(w2.by_version.size(), 2u);
  EXPECT_DOUBLE_EQ(w2.by_version.at(1).own.hours(Resource::kGpu), 10.0);
  EXPECT_DOUBLE_EQ(w2.by_version.at(2).own.hours(Resource::kGpu), 10.0);
  EXPECT_NEAR(w2.costs(ledger.rates).own, 20.0 + 30.0, 1e-9);
  // w1 ran wholly under version 1.
  EXPECT_EQ(row(*report, {"a/w1"}).figures.by_version.size(), 1u);
  ASSERT_EQ(report->rate_cards.size(), 2u);
  EXPECT_EQ(report->rate_cards[1].from, report_hour(5));
  expect_reconciles(*report);
}

TEST(UsageReport, PreemptionMidPeriodEndsTheVictimsIntervalAndTheBeneficiaryStarts) {
  UsageLedger ledger = scenario();
  // w1 preempted at 2h30m; w3 (team b) admitted in its place at the same instant.
  ledger.allocations[0].end = at_minute(150);
  ledger.allocations.push_back(
      allocation(3, "b", "bo", {6, 0, 0}, {}, at_minute(150), at_minute(400)));
  auto report = build_usage_report(ledger, query({GroupKey::kTeam}));
  ASSERT_TRUE(report.ok());
  EXPECT_DOUBLE_EQ(row(*report, {"a"}).figures.sum().own.hours(Resource::kGpu), 4 * 1.5);
  EXPECT_DOUBLE_EQ(row(*report, {"a"}).figures.sum().borrowed.hours(Resource::kGpu), 2 * 1.5);
  EXPECT_DOUBLE_EQ(row(*report, {"b"}).figures.sum().own.hours(Resource::kGpu),
                   20.0 + 6 * (250.0 / 60.0));
  expect_reconciles(*report);
}

TEST(UsageReport, MissingDataIsCountedNeitherAsUsageNorAsCapacity) {
  UsageLedger ledger = scenario();
  ledger.missing = {{report_hour(2), report_hour(3)}, {report_hour(9), report_hour(11)}};
  auto report = build_usage_report(ledger, query({GroupKey::kTeam}));
  ASSERT_TRUE(report.ok());
  EXPECT_DOUBLE_EQ(row(*report, {"a"}).figures.sum().own.hours(Resource::kGpu), 4 * 2.0);
  EXPECT_DOUBLE_EQ(row(*report, {"b"}).figures.sum().own.hours(Resource::kGpu), 2 * 8.0);
  EXPECT_DOUBLE_EQ(report->flavors[0].capacity.hours(Resource::kGpu), 8 * 8.0);
  ASSERT_EQ(report->missing.size(), 2u);
  EXPECT_EQ(report->missing[1], (Period{report_hour(9), report_hour(10)}));  // clipped to `to`
  expect_reconciles(*report);
}

TEST(UsageReport, DaysSplitAtUtcMidnight) {
  UsageLedger ledger = scenario();
  const Timestamp midnight = Timestamp::from_millis(1796256000000);  // 2026-12-03T00:00Z
  ledger.allocations = {allocation(1, "a", "ana", {1, 0, 0}, {}, midnight - Duration::hours(2),
                                   midnight + Duration::hours(3))};
  ledger.capacity = {{"h100", {8, 0, 0}, midnight - Duration::hours(4), std::nullopt}};
  ledger.rates = RateCard();
  UsageQuery q{midnight - Duration::hours(4),
               midnight + Duration::hours(4),
               {GroupKey::kDay, GroupKey::kTeam},
               IdleMode::kShareEven,
               std::nullopt};
  auto report = build_usage_report(ledger, q);
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  ASSERT_EQ(report->rows.size(), 4u);  // b has idle shares only
  const PricedTime before = row(*report, {"2026-12-02", "a"}).figures.sum();
  const PricedTime after = row(*report, {"2026-12-03", "a"}).figures.sum();
  EXPECT_DOUBLE_EQ(before.own.hours(Resource::kGpu), 2.0);
  EXPECT_DOUBLE_EQ(after.own.hours(Resource::kGpu), 3.0);
  // Idle per day shared among a and b: (32 - 2) / 2 and (32 - 3) / 2.
  EXPECT_DOUBLE_EQ(before.idle.hours(Resource::kGpu), 15.0);
  EXPECT_DOUBLE_EQ(row(*report, {"2026-12-03", "b"}).figures.sum().idle.hours(Resource::kGpu),
                   14.5);
  EXPECT_TRUE(report->currency.empty());  // unpriced
  expect_reconciles(*report);
}

TEST(UsageReport, ATeamScopedReportShowsOnlyThatTeamAndNoClusterIdle) {
  UsageQuery q = query({GroupKey::kFlavor}, IdleMode::kShareNominal);
  q.visible_teams = std::set<TeamId>{TeamId("b")};
  auto report = build_usage_report(scenario(), q);
  ASSERT_TRUE(report.ok());
  ASSERT_EQ(report->rows.size(), 1u);
  const PricedTime b = report->rows[0].figures.sum();
  EXPECT_DOUBLE_EQ(b.own.hours(Resource::kGpu), 20.0);  // nothing of team a's 18
  EXPECT_DOUBLE_EQ(b.borrowed.hours(Resource::kGpu), 0.0);
  EXPECT_DOUBLE_EQ(b.idle.hours(Resource::kGpu), 10.5);  // its share only
  EXPECT_TRUE(report->flavors.empty());
}

// The project dimension: contract "vision" holds namespace a (w1: 6 GPUs,
// 24 CPUs, 192 GiB over 3 h = 18 GPU-h, 72 CPU-h, 576 GiB-h, priced
// 36 + 3.6 + 5.76 = 45.36); w2 (namespace b) is in no contract: the row
// with an empty project (2 GPUs x 10 h = 20 GPU-h, 40.00).
TEST(UsageReport, ByProjectAttributesToTheContractHoldingTheNamespace) {
  UsageLedger ledger = scenario();
  ledger.projects = {{"a", "vision"}, {"x", "vision"}};
  auto report = build_usage_report(ledger, query({GroupKey::kProject}));
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  ASSERT_EQ(report->rows.size(), 2u);
  EXPECT_EQ(report->rows[0].keys, std::vector<std::string>{""});
  const PricedTime vision = row(*report, {"vision"}).figures.sum();
  EXPECT_DOUBLE_EQ(vision.own.hours(Resource::kGpu), 12.0);
  EXPECT_DOUBLE_EQ(vision.borrowed.hours(Resource::kGpu), 6.0);
  EXPECT_DOUBLE_EQ((vision.own + vision.borrowed).hours(Resource::kCpu), 72.0);
  EXPECT_DOUBLE_EQ((vision.own + vision.borrowed).hours(Resource::kMemory), 576.0);
  EXPECT_NEAR(row(*report, {"vision"}).figures.costs(ledger.rates).total(), 45.36, 1e-9);
  const PricedTime none = row(*report, {""}).figures.sum();
  EXPECT_DOUBLE_EQ(none.own.hours(Resource::kGpu), 20.0);
  EXPECT_NEAR(row(*report, {""}).figures.costs(ledger.rates).total(), 40.0, 1e-9);
  expect_reconciles(*report);

  auto by_team = build_usage_report(ledger, query({GroupKey::kProject, GroupKey::kTeam}));
  ASSERT_TRUE(by_team.ok());
  EXPECT_DOUBLE_EQ(row(*by_team, {"vision", "a"}).figures.sum().own.hours(Resource::kGpu), 12.0);
  EXPECT_DOUBLE_EQ(row(*by_team, {"", "b"}).figures.sum().own.hours(Resource::kGpu), 20.0);

  auto shared = build_usage_report(ledger, query({GroupKey::kProject}, IdleMode::kShareEven));
  ASSERT_FALSE(shared.ok());
  EXPECT_NE(shared.status().message().find("'project'"), std::string::npos);
}

// Efficiency: a's workload 1 has 2 GPUs measured from 1h to 4h, GPU 0 at
// 50 % throughout, GPU 1 at 100 % until 2h30m, then idle; b's workload 2 is
// not measured. Measured 6 GPU-h, busy 1.5 + 1.5 = 3 GPU-h: 0.5. Missing data
// from 2h to 3h removes 2 GPU-h measured and 1 busy.
TEST(UsageReport, EfficiencyIsBusyOverMeasuredHoursAndAbsentWithoutSamples) {
  UsageLedger ledger = scenario();
  ledger.utilization = {{WorkloadId(1), "n/0", report_hour(1), report_hour(4), 500'000},
                        {WorkloadId(1), "n/1", report_hour(1), at_minute(150), 1'000'000},
                        {WorkloadId(1), "n/1", at_minute(150), report_hour(4), 0},
                        {WorkloadId(9), "n/2", report_hour(1), report_hour(2), 1'000'000}};
  auto report = build_usage_report(ledger, query({GroupKey::kTeam}));
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  const Efficiency& a = row(*report, {"a"}).figures.efficiency;
  EXPECT_DOUBLE_EQ(a.measured_gpu_hours(), 6.0);
  EXPECT_DOUBLE_EQ(a.busy_gpu_hours(), 3.0);
  EXPECT_DOUBLE_EQ(a.gpu_utilization(), 0.5);
  EXPECT_FALSE(row(*report, {"b"}).figures.efficiency.measured());  // not measured, not 0
  EXPECT_EQ(report->totals.efficiency, a);  // workload 9 has no allocation: not counted

  ledger.missing = {{report_hour(2), report_hour(3)}};
  auto gapped = build_usage_report(ledger, query({GroupKey::kWorkload}));
  ASSERT_TRUE(gapped.ok());
  const Efficiency& w1 = row(*gapped, {"a/w1"}).figures.efficiency;
  EXPECT_DOUBLE_EQ(w1.measured_gpu_hours(), 4.0);
  EXPECT_DOUBLE_EQ(w1.busy_gpu_hours(), 2.0);  // GPU 0: 2 h x 0.5; GPU 1: 1 h x 1

  UsageQuery scoped = query({GroupKey::kTeam});
  scoped.visible_teams = std::set<TeamId>{TeamId("b")};
  auto b_only = build_usage_report(ledger, scoped);
  ASSERT_TRUE(b_only.ok());
  EXPECT_FALSE(b_only->totals.efficiency.measured());  // a's GPUs are not b's to see
}

TEST(UsageReport, ParsesGroupingsAndIdleModes) {
  EXPECT_EQ(parse_group_key("workload").value(), GroupKey::kWorkload);
  EXPECT_EQ(parse_idle_mode("share-nominal").value(), IdleMode::kShareNominal);
  EXPECT_EQ(parse_group_key("project").value(), GroupKey::kProject);
  EXPECT_FALSE(parse_group_key("tenant").ok());
  EXPECT_FALSE(parse_idle_mode("shared").ok());
}

}  // namespace
}  // namespace allot
