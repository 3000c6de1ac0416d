// allot-report-bench: a usage report over 1,000,000 allocation records in a
// real SQLite store (issue 14's figure: <= 1 s). 1,000 teams x 4 flavors,
// 100,000 workloads of 10 one-hour admissions each, spread over the first two
// weeks of a month; a quarter of each interval borrowed. Times
// ReportService::usage() as GET /api/v1/reports/usage calls it (the ledger
// read from the store, priced by the rate cards), for the cluster admin,
// grouped by team, by flavor and day, and by workload; in wall time and in
// the process's CPU time, which other work on a shared machine inflates less.
//
//   allot-report-bench [records] [data dir]   (default 1000000, a temp dir)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "api/manifest_parser.h"
#include "base/clock.h"
#include "base/logger.h"
#include "bench/governed_cluster.h"
#include "service/control/control_plane.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::bench {
namespace {

constexpr int kReportTeams = 1000;  // bench_policy_yaml()
constexpr int kReportFlavors = 4;
constexpr int kAdmissionsPerWorkload = 10;
constexpr int64_t kHourMs = 3'600'000;
// 2027-01-01T00:00:00Z, and the bench's now: 2027-01-15T08:00:00Z.
constexpr int64_t kMonthStartMs = 1'798'761'600'000;
constexpr int64_t kNowMs = 1'800'000'000'000;

// Record `i`: workload i / 10, its (i % 10)th one-hour admission.
AllocationRecord report_record(int64_t i) {
  const int64_t workload = i / kAdmissionsPerWorkload;
  const int team = static_cast<int>(workload % kReportTeams);
  AllocationRecord r;
  r.workload_id = WorkloadId(workload + 1);
  r.start_ms = kMonthStartMs + (i * 37 % (14 * 24)) * kHourMs + workload % 1000;
  r.end_ms = r.start_ms + kHourMs;
  r.team = "team-" + std::to_string(team);
  r.user = "user-" + std::to_string(workload % 5000);
  r.workload_name = r.team + "/w-" + std::to_string(workload);
  r.flavor = "flavor-" + std::to_string(workload % kReportFlavors);
  r.own = ResourceVector(3, 12000, int64_t{96} << 30);
  r.borrowed = ResourceVector(1, 4000, int64_t{32} << 30);
  return r;
}

Status write_ledger(Store& store, int64_t records) {
  constexpr int64_t kPerBatch = 20'000;
  for (int64_t from = 0; from < records; from += kPerBatch) {
    WriteBatch batch;
    for (int64_t i = from; i < std::min(records, from + kPerBatch); ++i) {
      batch.put_allocations.push_back(report_record(i));
    }
    ALLOT_RETURN_IF_ERROR(store.commit(std::move(batch)));
  }
  return {};
}

int fail(const Status& status) {
  std::fprintf(stderr, "%s\n", status.to_string().c_str());
  return 1;
}

int run(int64_t records, const std::string& dir) {
  std::filesystem::create_directories(dir);
  Result<std::unique_ptr<SqliteStore>> store = SqliteStore::open(dir + "/allot.db");
  if (!store.ok()) return fail(store.status());
  const auto write_start = std::chrono::steady_clock::now();
  if (Status s = write_ledger(**store, records); !s.ok()) return fail(s);
  const double write_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - write_start).count();
  // allotd's startup read of the store: the open intervals among the records.
  const double load_cpu_start = process_cpu_ms();
  Result<StoredState> loaded = (*store)->load();
  if (!loaded.ok()) return fail(loaded.status());
  const double load_cpu_ms = process_cpu_ms() - load_cpu_start;
  IdleExecutor executor;
  NullLogger logger;
  ManualClock clock(Timestamp::from_millis(kMonthStartMs - kHourMs));
  ControlPlaneOptions options;
  options.run_loop_thread = false;
  ControlPlane plane(**store, executor, nullptr, clock, logger, options);
  if (Status s = plane.start(); !s.ok()) return fail(s);
  const Principal admin = Principal::anonymous_admin();
  Result<ParsedManifests> parsed = parse_manifests_with_documents(bench_policy_yaml({}));
  if (!parsed.ok()) return fail(parsed.status());
  if (auto applied = plane.policies().apply(admin, *parsed, false); !applied.ok()) {
    return fail(applied.status());
  }
  clock.advance(Duration::millis(kNowMs - clock.now().ms()));
  std::printf(
      "%lld allocation records written to SQLite in %.1f s; the store's load() at startup: "
      "%.1f ms CPU (%zu open)\n",
      static_cast<long long>(records), write_s, load_cpu_ms, loaded->open_allocations.size());
  const std::pair<const char*, std::vector<GroupKey>> groupings[] = {
      {"team", {GroupKey::kTeam}},
      {"flavor,day", {GroupKey::kFlavor, GroupKey::kDay}},
      {"workload", {GroupKey::kWorkload}}};
  for (const auto& [name, by] : groupings) {
    std::vector<double> seconds;
    std::vector<double> cpu;
    size_t rows = 0;
    for (int round = 0; round < 3; ++round) {
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = process_cpu_ms();
      Result<UsageReportResult> report =
          plane.reports().usage(admin, {Timestamp::from_millis(kMonthStartMs),
                                        Timestamp::from_millis(kNowMs), by, IdleMode::kSeparate});
      if (!report.ok()) return fail(report.status());
      cpu.push_back((process_cpu_ms() - cpu_start) / 1e3);
      seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      rows = report->report.rows.size();
    }
    std::sort(seconds.begin(), seconds.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf(
        "usage report by %s over %lld records: %zu rows, wall min %.3f s, max %.3f s; CPU min "
        "%.3f s, max %.3f s\n",
        name, static_cast<long long>(records), rows, seconds.front(), seconds.back(), cpu.front(),
        cpu.back());
  }
  return 0;
}

}  // namespace
}  // namespace allot::bench

int main(int argc, char** argv) {
  const int64_t records = argc > 1 ? std::max<int64_t>(1, std::atoll(argv[1])) : 1'000'000;
  const std::string dir = argc > 2 ? argv[2]
                                   : (std::filesystem::temp_directory_path() /
                                      ("allot-report-bench-" + std::to_string(::getpid())))
                                         .string();
  const int rc = allot::bench::run(records, dir);
  if (argc <= 2) std::filesystem::remove_all(dir);
  return rc;
}
