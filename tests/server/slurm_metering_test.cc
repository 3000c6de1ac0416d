// Metering of work on a real Slurm (issue 13, items 2 and 4): the capacity
// of the nodes read from Slurm counts in usage reports (workloads + idle =
// capacity x time), and Slurm's own accounting of allot's jobs (sacct) is
// reconciled into metering by explicit adjustments, so that each team's
// GPU-hours equal sacct's per account.
#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "accounting/backend_usage_comparison.h"
#include "api/rfc3339.h"
#include "backends/slurm/sreport_usage.h"
#include "slurm_allotd_fixture.h"

namespace allot::server_test {
namespace {

// GPU-seconds per account of `sacct -o Account,ElapsedRaw,AllocTRES` lines
// (ElapsedRaw x AllocTRES gres/gpu).
std::map<std::string, int64_t> gpu_seconds_per_account(const std::string& sacct_out) {
  std::map<std::string, int64_t> seconds;
  for (size_t at = 0; at < sacct_out.size();) {
    const size_t end = std::min(sacct_out.find('\n', at), sacct_out.size());
    const std::string line = sacct_out.substr(at, end - at);
    at = end + 1;
    const size_t bar = line.find('|');
    const size_t gpu = line.find("gres/gpu=");
    if (bar == std::string::npos || gpu == std::string::npos) continue;
    seconds[line.substr(0, bar)] +=
        std::stoll(line.substr(bar + 1)) * std::stoll(line.substr(gpu + 9));
  }
  return seconds;
}

// Item 4: Slurm's accounting of allot's jobs (sacct) reconciled into
// metering. allot's ledger counts from the admission and to the exit it
// observed; Slurm from the job's start to its end: the adjustments made from
// sacct bring each team's GPU-hours to sacct's GPU-seconds per account,
// exactly (sacct counts whole seconds).
TEST_F(SlurmAllotdTest, SacctIngestionMakesEachTeamsGpuHoursEqualSacctsToTheSecond) {
  const std::string from = format_rfc3339(wall_clock_now() - Duration::seconds(1));
  submit("sa-research", "two-gpus", {"sleep 2", 2, 1, "low"});
  submit("sa-prod", "one-gpu", {"sleep 3", 1, 1, "high"});
  const std::string names = job_name(wait_phase("sa-research", "two-gpus", "Succeeded")) + "," +
                            job_name(wait_phase("sa-prod", "one-gpu", "Succeeded"));
  // sacct's GPU-seconds per account (ElapsedRaw x AllocTRES gres/gpu).
  const auto sacct_gpu_seconds = [&] {
    return gpu_seconds_per_account(
        sh({"sacct", "-n", "-P", "-X", "-a", "-S", "now-1hours", "-E", "now", "-s", "CD",
            "--name=" + names, "-o", "Account,ElapsedRaw,AllocTRES"})
            .out);
  };
  const auto allot_gpu_seconds = [&] {
    std::map<std::string, double> seconds;
    const Reply reply =
        api_.get("/api/v1/reports/usage?from=" + from + "&to=2100-01-01T00:00:00Z&by=team");
    for (const auto& row : reply.json["rows"]) {
      seconds[row["team"].get<std::string>()] = row["gpuHours"].get<double>() * 3600;
    }
    return seconds;
  };
  std::map<std::string, int64_t> sacct;
  std::map<std::string, double> metered;
  const bool agreed = eventually(
      [&] {
        sacct = sacct_gpu_seconds();
        metered = allot_gpu_seconds();
        if (sacct.size() != 2 || metered.size() != 2) return false;
        for (const auto& [account, gpu_seconds] : sacct) {
          if (std::abs(metered[account] - static_cast<double>(gpu_seconds)) > 1e-6) return false;
        }
        return true;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(500));
  EXPECT_TRUE(agreed);
  ASSERT_EQ(sacct.size(), 2u);
  EXPECT_GE(sacct["sa-research"], 2 * 2);
  EXPECT_GE(sacct["sa-prod"], 3);
  for (const auto& [account, gpu_seconds] : sacct) {
    EXPECT_NEAR(metered[account], static_cast<double>(gpu_seconds), 1e-6) << account;
  }
  EXPECT_NE(allotd_.stderr_text().find("metering adjusted to the backend's accounting"),
            std::string::npos)
      << "the ledger's own figures differed (admission before Slurm's start)";
  // The adjustments are listed with the report, never folded in silently.
  const nlohmann::json listed =
      api_.get("/api/v1/reports/usage?from=" + from + "&to=2100-01-01T00:00:00Z&by=team")
          .json["backendAdjustments"];
  ASSERT_FALSE(listed.empty()) << listed;
  for (const auto& adjustment : listed) {
    EXPECT_TRUE(adjustment["workload"] == "sa-research/two-gpus" ||
                adjustment["workload"] == "sa-prod/one-gpu")
        << adjustment;
    EXPECT_NE(adjustment["gpus"].get<int64_t>(), 0) << adjustment;
  }
  const auto [code, table] =
      allot("report usage --by team --from " + from + " --to 2100-01-01T00:00:00Z");
  ASSERT_EQ(code, 0) << table;
  EXPECT_NE(table.find("adjusted to the backend's accounting: "), std::string::npos) << table;
}

// A job that ran while allotd was down (killed right after the admission,
// started again once Slurm recorded the job's end). The restart takes the
// ended job over as the interrupted run's: the workload succeeds and Slurm
// holds one job of it, never a second submission. The time is a
// missing-data period, where allot saw nothing, but sacct's record covers
// it: the team's GPU-hours are still sacct's seconds, counted apart from the
// flavor's balance (no capacity is counted there).
TEST_F(SlurmAllotdTest, AJobThatRanWhileAllotdWasDownIsTakenOverAndCountsAsSacctRecordedIt) {
  const std::string from = format_rfc3339(wall_clock_now() - Duration::seconds(1));
  submit("sa-prod", "through-the-gap", {"sleep 3", 1, 1, "high"});
  const nlohmann::json running = wait_phase("sa-prod", "through-the-gap", "Running");
  const std::string name = job_name(running);
  ASSERT_FALSE(running["status"]["backend"]["jobId"].get<std::string>().empty()) << running.dump();
  allotd_.kill();
  std::map<std::string, int64_t> sacct;
  ASSERT_TRUE(eventually(
      [&] {
        sacct = gpu_seconds_per_account(
            sh({"sacct", "-n", "-P", "-X", "-a", "-S", "now-1hours", "-E", "now", "-s", "CD",
                "--name=" + name, "-o", "Account,ElapsedRaw,AllocTRES"})
                .out);
        return sacct["sa-prod"] > 0;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(200)))
      << "Slurm ran the job to its end while allotd was down";
  const std::string before = jobs_of(running);
  ASSERT_EQ(allotd_.start_again(), "");

  const nlohmann::json done = wait_phase("sa-prod", "through-the-gap", "Succeeded");
  EXPECT_EQ(done["status"]["backend"]["jobId"], running["status"]["backend"]["jobId"])
      << done.dump();
  const std::string query =
      "/api/v1/reports/usage?from=" + from + "&to=2100-01-01T00:00:00Z&by=team";
  nlohmann::json report;
  const bool reconciled = eventually(
      [&] {
        report = api_.get(query).json;
        for (const auto& row : report["rows"]) {
          if (row["team"] == "sa-prod") {
            return std::abs(row["gpuHours"].get<double>() * 3600 -
                            static_cast<double>(sacct["sa-prod"])) < 1e-6;
          }
        }
        return false;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(500));
  EXPECT_TRUE(reconciled) << "sa-prod's GPU time is sacct's " << sacct["sa-prod"] << " s\n"
                          << report.dump();
  EXPECT_EQ(jobs_of(running), before) << "one job, never submitted again";
  ASSERT_FALSE(report["missingData"].empty()) << report.dump();
  double while_missing = 0;
  for (const auto& flavor : report["idle"]["flavors"]) {
    while_missing += flavor["backendWhileMissingGpuHours"].get<double>();
    EXPECT_NEAR(flavor["allocatedGpuHours"].get<double>() + flavor["idleGpuHours"].get<double>(),
                flavor["capacityGpuHours"].get<double>(), 1e-9)
        << flavor.dump();
  }
  EXPECT_GT(while_missing * 3600, 0.5) << "counted through the missing data\n" << report.dump();
  const auto [code, table] =
      allot("report usage --by team --from " + from + " --to 2100-01-01T00:00:00Z");
  ASSERT_EQ(code, 0) << table;
  EXPECT_NE(table.find("recorded by the backend while allotd was down h100: "), std::string::npos)
      << table;
}

// The policy with one more team whose account no other test uses (its name
// carries this process's id): sreport's figure for it is this test's work
// alone, though the fixture's Slurm serves every test of the run.
class SlurmBackendUsageTest : public SlurmAllotdTest {
 protected:
  std::string policy_text() override {
    return std::string(kSlurmPolicy) +
           "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: " + team() +
           "}\nspec:\n  cohort: sa-org\n  quota: [{flavor: h100, resources: {gpu: {nominal: "
           "8}}}]\n";
  }
  static std::string team() { return "sr-" + std::to_string(::getpid()); }
  // GPU-seconds of the completed jobs named `names` (sacct's, per account).
  int64_t sacct_gpu_seconds(const std::string& names) {
    std::map<std::string, int64_t> seconds;
    eventually(
        [&] {
          seconds = gpu_seconds_per_account(
              sh({"sacct", "-n", "-P", "-X", "-a", "-S", "now-1hours", "-E", "now", "-s", "CD",
                  "--name=" + names, "-o", "Account,ElapsedRaw,AllocTRES"})
                  .out);
          return seconds[team()] > 0;
        },
        std::chrono::seconds(30), std::chrono::milliseconds(200));
    return seconds[team()];
  }
};

// Item 4, reconciled against Slurm's own sreport: `allot report
// backend-usage` sets each team's metered GPU time beside `sreport cluster
// AccountUtilizationByUser` over the whole hours around the period. allot's
// figure is its reconciled ledger (sacct's seconds of its own jobs); Slurm's
// counts every job of the account, so a job submitted around allot shows as
// the difference. sreport reads slurmdbd's hourly rollups: the test rolls
// the open hours up (`sacctmgr rollup`), as slurmdbd does once an hour ends.
TEST_F(SlurmBackendUsageTest,
       EachTeamsGpuTimeIsSetBesideSreportsAndWorkAroundAllotIsTheDifference) {
  // A second before now: Slurm records its start in whole seconds, which may
  // fall before a start taken mid-second, and the report would clip it.
  const Timestamp start = wall_clock_now() - Duration::seconds(1);
  submit(team(), "metered", {"sleep 2", 2, 1, "low"});
  const std::string allots_job = job_name(wait_phase(team(), "metered", "Succeeded"));
  const std::string outside_job = "outside-allot-" + team();
  const slurm::CommandResult made =
      sh({"sbatch", "--parsable", "--job-name=" + outside_job, "--account=" + team(),
          "--partition=gpu", "--gres=gpu:h100:1", "--mem=100", "--output=/dev/null", "--wrap",
          "sleep 1"});
  ASSERT_TRUE(made.succeeded()) << made.err;
  const int64_t allots = sacct_gpu_seconds(allots_job);
  const int64_t outside = sacct_gpu_seconds(outside_job);
  ASSERT_GE(allots, 2 * 2);
  ASSERT_GE(outside, 1);
  ASSERT_TRUE(eventually(
      [&] {
        const Reply usage = api_.get("/api/v1/reports/usage?from=" + format_rfc3339(start) +
                                     "&to=2100-01-01T00:00:00Z&by=team");
        for (const auto& row : usage.json["rows"]) {
          if (row["team"] == team()) {
            return std::abs(row["gpuHours"].get<double>() * 3600 - static_cast<double>(allots)) <
                   1e-6;
          }
        }
        return false;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(500)))
      << "allot's ledger reconciled to sacct's seconds of its own job";

  const Timestamp end = wall_clock_now();
  const HourWindow hours = whole_hours_around(start, end).value();
  const slurm::CommandResult rolled =
      sh({"env", "TZ=UTC", "sacctmgr", "-i", "rollup", slurm::slurm_time_text(hours.from),
          slurm::slurm_time_text(hours.to)});
  ASSERT_TRUE(rolled.succeeded()) << rolled.said();

  const std::string period = "from=" + format_rfc3339(start) + "&to=" + format_rfc3339(end);
  const Reply reply = api_.get("/api/v1/reports/usage/backend?" + period);
  ASSERT_EQ(reply.status, 200) << reply.describe();
  EXPECT_EQ(reply.json["from"], format_rfc3339(hours.from));
  EXPECT_EQ(reply.json["to"], format_rfc3339(hours.to));
  EXPECT_TRUE(reply.json["hourOpen"].get<bool>()) << "the hour of `end` is still running";
  EXPECT_EQ(reply.json["source"], "sreport cluster AccountUtilizationByUser cluster=allot");
  nlohmann::json mine;
  for (const auto& row : reply.json["rows"]) {
    if (row["team"] == team()) mine = row;
  }
  ASSERT_TRUE(mine.is_object()) << reply.json.dump();
  EXPECT_EQ(mine["account"], team());
  EXPECT_NEAR(mine["allotGpuSeconds"].get<double>(), static_cast<double>(allots), 1e-6);
  EXPECT_EQ(mine["backendGpuSeconds"].get<int64_t>(), allots + outside) << reply.json.dump();
  EXPECT_NEAR(mine["differenceGpuSeconds"].get<double>(), -static_cast<double>(outside), 1e-6);

  const std::string flags = " --from " + format_rfc3339(start) + " --to " + format_rfc3339(end);
  const auto [code, table] = allot("report backend-usage" + flags);
  ASSERT_EQ(code, 0) << table;
  EXPECT_NE(table.find("sreport cluster AccountUtilizationByUser"), std::string::npos) << table;
  const std::string line = row_of(table, team());
  EXPECT_NE(line.find(std::to_string(allots) + ".0"), std::string::npos) << table;
  EXPECT_NE(line.find(std::to_string(allots + outside) + ".0"), std::string::npos) << table;
  EXPECT_NE(line.find("-" + std::to_string(outside) + ".0"), std::string::npos) << table;
  EXPECT_NE(table.find("the last hour is still open"), std::string::npos) << table;
  const auto [misuse, said] = allot("report backend-usage --by team" + flags);
  EXPECT_EQ(misuse, 2) << said;
  EXPECT_NE(said.find("--by, --idle and -o csv belong to `allot report usage`"), std::string::npos)
      << said;
}

// Metering's capacity counts Slurm's nodes (issue 13, item 2): over a window
// after they were read, each flavor's capacity is its Slurm nodes' GPUs x
// time (two nodes of 8 GPUs each), and a workload's GPU-hours plus idle
// equal it.
TEST_F(SlurmNodesFromSlurmTest, MeteringCountsSlurmsNodesSoWorkloadsPlusIdleEqualCapacity) {
  ASSERT_TRUE(eventually([&] { return api_.get("/api/v1/nodes").json["items"].size() == 4; },
                         std::chrono::seconds(30), std::chrono::milliseconds(200)));
  // On a whole second, reached before the submission: once sacct is
  // reconciled, the job starts at Slurm's whole-second start, which would
  // fall before a `from` taken mid-second.
  const Timestamp from = Timestamp::from_millis((wall_clock_now().ms() / 1000 + 1) * 1000);
  ASSERT_TRUE(eventually([&] { return wall_clock_now() >= from; }, std::chrono::seconds(2),
                         std::chrono::milliseconds(10)));
  submit("sa-research", "metered", {"sleep 2", 2, 1, "low"});
  wait_phase("sa-research", "metered", "Succeeded");
  const Timestamp to = wall_clock_now();
  const Reply reply = api_.get("/api/v1/reports/usage?from=" + format_rfc3339(from) +
                               "&to=" + format_rfc3339(to) + "&by=team,flavor");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  const double window_hours = static_cast<double>((to - from).ms()) / 3'600'000.0;
  ASSERT_EQ(reply.json["idle"]["flavors"].size(), 2u) << reply.json.dump();
  for (const auto& flavor : reply.json["idle"]["flavors"]) {
    EXPECT_NEAR(flavor["capacityGpuHours"].get<double>(), 16 * window_hours, 1e-9) << flavor.dump();
    EXPECT_NEAR(flavor["allocatedGpuHours"].get<double>() + flavor["idleGpuHours"].get<double>() +
                    flavor["sharedIdleGpuHours"].get<double>(),
                flavor["capacityGpuHours"].get<double>(), 1e-9)
        << flavor.dump();
  }
  ASSERT_EQ(reply.json["rows"].size(), 1u) << reply.json.dump();
  EXPECT_EQ(reply.json["rows"][0]["flavor"], "h100");
  // At least 2 GPUs x 2 s: the ledger's own figure is longer, sacct's
  // whole seconds may be exactly that.
  EXPECT_GE(reply.json["rows"][0]["gpuHours"].get<double>(), 2 * 2.0 / 3600 - 1e-12)
      << reply.json.dump();
}

}  // namespace
}  // namespace allot::server_test
