// allotd on the fixture's Slurm: a reclaim hands the reclaiming workload's
// job to Slurm behind its victim's (docs/slurm.md *Turnover* (c);
// scheduler/cycle_handovers.cc; executor.h's hand_over()), so that Slurm
// starts it at the scheduling pass the victim's end triggers, on the
// victim's node, as the one job of the workload. And a team's turnover
// (scheduler/cycle_turnovers.cc, allotd --slurm-turnover-handovers on): its
// next workload's job waits in Slurm behind its running one.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "slurm_allotd_fixture.h"

namespace allot::server_test {
namespace {

// sacct's "YYYY-MM-DDTHH:MM:SS" as seconds since the epoch (UTC; sacct runs with TZ unset: the
// same zone for both times compared).
int64_t seconds_of(const std::string& text) {
  std::tm tm{};
  if (::strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) return -1;
  return static_cast<int64_t>(::timegm(&tm));
}

// The victims ignore SIGTERM (`trap '' TERM`, inherited by sleep), so each
// stops only at a SIGKILL: allot's after the class's 2 s grace, or Slurm's
// KillWait (5 s, scripts/slurm.sh) after a cancel: a window in which the
// owner's job waits in Slurm behind it. The waits: 30 s for the owner to run
// covers KillWait, a poll (200 ms) and a cycle 5 x over.
TEST_F(SlurmAllotdTest, AReclaimHandsTheOwnersJobToSlurmBehindItsVictim) {
  ASSERT_LE(kill_wait(), Duration::seconds(5)) << "the waits below assume the tests' KillWait";
  submit("sa-research", "own", {"trap '' TERM; sleep 300", 8, 1, "low"});
  wait_phase("sa-research", "own", "Running");
  submit("sa-research", "borrower", {"trap '' TERM; sleep 300", 8, 1, "low"});
  const nlohmann::json borrowing = wait_phase("sa-research", "borrower", "Running");
  const std::string victim_node = node_of(borrowing);

  submit("sa-prod", "owner", {"echo owner-ran; sleep 300", 8, 1, "high"});
  const std::string owner_job = job_name(workload("sa-prod", "owner"));
  // Seen waiting in squeue while the victim stops (allot's KILL after the class's 2 s grace, the
  // victim ignoring TERM), or, when a loaded machine's polls miss that window, in Slurm's records:
  // a job held by a dependency becomes eligible when it is satisfied, after its submission
  // (sacct's whole seconds; a job submitted without one is eligible at its submission).
  std::string waiting;
  const bool seen_waiting =
      eventually(
          [&] {
            waiting = sh({"squeue", "-h", "-n", owner_job, "-o", "%T %r"}).out;
            return waiting == "PENDING Dependency\n" || waiting.starts_with("RUNNING");
          },
          std::chrono::seconds(10), std::chrono::milliseconds(50)) &&
      waiting == "PENDING Dependency\n";

  const nlohmann::json running = wait_phase("sa-prod", "owner", "Running");
  EXPECT_EQ(node_of(running), victim_node);
  EXPECT_EQ(wait_log("sa-prod", "owner", "owner-ran"), "owner-ran\n");
  const std::string owner_runs = jobs_once_recorded(running, "RUNNING");
  EXPECT_EQ(std::count(owner_runs.begin(), owner_runs.end(), '\n'), 1)
      << "one job: the one handed over, taken over at its launch: " << owner_runs;
  if (!seen_waiting) {
    const std::string held =
        sh({"sacct", "-n", "-X", "-P", "--name=" + owner_job, "-o", "Submit,Eligible"}).out;
    const size_t bar = held.find('|');
    ASSERT_NE(bar, std::string::npos) << held;
    EXPECT_LT(seconds_of(held.substr(0, bar)), seconds_of(held.substr(bar + 1)))
        << "the owner's job waits in Slurm behind its victim's (squeue showed " << waiting
        << "; sacct's submit|eligible: " << held << ")";
  }
  // Slurm started it once the victim's processes ended: at their SIGKILL, KillWait after the
  // cancel that sacct records as the victim's End (sacct's times: whole seconds).
  const std::string ended =
      sh({"sacct", "-n", "-X", "-P", "--name=" + job_name(borrowing), "-o", "End"}).out;
  const std::string started =
      sh({"sacct", "-n", "-X", "-P", "--name=" + owner_job, "-o", "Start"}).out;
  const int64_t victim_end = seconds_of(ended);
  const int64_t owner_start = seconds_of(started);
  ASSERT_GT(victim_end, 0) << ended;
  EXPECT_LE(owner_start - victim_end, kill_wait().ms() / 1000 + 2)  // + rounding, a pass
      << "victim ended " << ended << ", owner started " << started;
}

// allotd with --slurm-turnover-handovers on (the default since stop 48; named
// here so that the test keeps its meaning should the default change).
class SlurmTurnoverAllotdTest : public SlurmAllotdTest {
 protected:
  std::vector<std::string> allotd_flags() override {
    std::vector<std::string> flags = SlurmAllotdTest::allotd_flags();
    flags.insert(flags.end(), {"--slurm-turnover-handovers", "on"});
    return flags;
  }
};

// sa-prod holds node1; sa-research, at its nominal, runs `first` on node2 and
// queues `next`: the cluster is full and no other team is owed. `next` is
// promised first's capacity: its job waits in Slurm behind first's
// (--dependency=afterany), and Slurm starts it on node2 once first ends by
// itself, as the one job of the workload.
TEST_F(SlurmTurnoverAllotdTest, ATeamsNextJobWaitsInSlurmBehindItsRunningOne) {
  submit("sa-prod", "steady", {"sleep 300", 8, 1, "low"});
  wait_phase("sa-prod", "steady", "Running");
  submit("sa-research", "first", {"sleep 6", 8, 1, "low"});
  const nlohmann::json first = wait_phase("sa-research", "first", "Running");
  submit("sa-research", "next", {"echo next-ran; sleep 300", 8, 1, "low"});
  const std::string next_job = job_name(workload("sa-research", "next"));
  std::string waiting;
  EXPECT_TRUE(eventually(
      [&] {
        waiting = sh({"squeue", "-h", "-n", next_job, "-o", "%T %r %E"}).out;
        return waiting.starts_with("PENDING Dependency afterany:");
      },
      std::chrono::seconds(5), std::chrono::milliseconds(50)))
      << "next's job waits in Slurm behind first's while first runs; squeue: " << waiting;
  EXPECT_EQ(workload("sa-research", "next")["status"]["phase"], "Pending")
      << "allot admits it only once first has ended";

  const nlohmann::json running = wait_phase("sa-research", "next", "Running");
  EXPECT_EQ(node_of(running), node_of(first));
  EXPECT_EQ(wait_log("sa-research", "next", "next-ran"), "next-ran\n");
  const std::string next_runs = jobs_once_recorded(running, "RUNNING");
  EXPECT_EQ(std::count(next_runs.begin(), next_runs.end(), '\n'), 1)
      << "one job: the one handed over, taken over at its admission: " << next_runs;
  // Slurm started it at first's end (sacct's whole seconds), not after allot saw that end.
  const int64_t first_end =
      seconds_of(sh({"sacct", "-n", "-X", "-P", "--name=" + job_name(first), "-o", "End"}).out);
  const int64_t next_start =
      seconds_of(sh({"sacct", "-n", "-X", "-P", "--name=" + next_job, "-o", "Start"}).out);
  ASSERT_GT(first_end, 0);
  EXPECT_LE(next_start - first_end, 1)
      << "first ended at " << first_end << ", next started at " << next_start;
}

}  // namespace
}  // namespace allot::server_test
