// allotd on the fixture's Slurm: a reclaim hands the reclaiming workload's
// job to Slurm behind its victim's (docs/slurm.md *Turnover* (c);
// scheduler/cycle_handovers.cc; executor.h's hand_over()), so that Slurm
// starts it at the scheduling pass the victim's end triggers, on the
// victim's node, as the one job of the workload.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <string>
#include <thread>

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

}  // namespace
}  // namespace allot::server_test
