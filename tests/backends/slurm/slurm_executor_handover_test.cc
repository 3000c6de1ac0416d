// The Slurm executor's handover (executor.h's hand_over(), docs/slurm.md
// *Turnover* (c)) against the real Slurm of the ctest fixture `slurm`: a
// workload handed over while its victim runs waits in Slurm behind the
// victim's job (--dependency=afterany), pinned to its node, with nothing
// reported; Slurm starts it when the victim ends; its launch takes the job
// over instead of submitting another. Withdrawn, stopped or launched
// elsewhere, the handed-over job is cancelled; a new executor adopts it.
#include <string>
#include <vector>

#include "slurm_executor_fixture.h"

namespace allot::slurm {
namespace {

class SlurmHandoverTest : public SlurmExecutorTest {
 protected:
  // squeue's "STATE REASON" of the workload's job ("" when it lists none).
  std::string queued_as(WorkloadId workload) {
    const Result<CommandResult> listed =
        runner_.run({"squeue", "-h", "-n", job_name_of("texec-", workload), "-o", "%T %r"});
    return listed.ok() ? listed->out : "";
  }
  // squeue's states of the workload's jobs, ended ones included (for MinJobAge,
  // 30 s: sacct leaves out a job that never became eligible), once one of them
  // is `state`, or after 30 s.
  std::string listed_once(WorkloadId workload, const std::string& state) {
    std::string states;
    for (int i = 0; i < 150; ++i) {
      const Result<CommandResult> listed = runner_.run(
          {"squeue", "-h", "-t", "all", "-n", job_name_of("texec-", workload), "-o", "%T"});
      states = listed.ok() ? listed->out : "";
      if (states.find(state) != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return states;
  }
  std::string queued_once(WorkloadId workload, const std::string& prefix) {
    std::string now = queued_as(workload);
    for (int i = 0; i < 150 && !now.starts_with(prefix); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      now = queued_as(workload);
    }
    return now;
  }
  // A victim: every GPU of `node`, running until stopped.
  WorkloadLaunch victim(uint64_t id, const std::string& node) {
    WorkloadLaunch l = launch(id, {node}, "sleep 300");
    l.pods[0].resources = ResourceVector(8, 1000, int64_t{64} << 20);
    return l;
  }
};

TEST_F(SlurmHandoverTest, AHandedOverJobWaitsForItsVictimAndItsLaunchTakesItOver) {
  executor_ = make(events_);
  const WorkloadLaunch j = victim(21, "node1");
  WorkloadLaunch w = launch(22, {"node1"}, "echo handed-over-ran; sleep 300");
  w.pods[0].resources = ResourceVector(8, 1000, int64_t{64} << 20);
  EXPECT_FALSE(executor_->hand_over(w, {j.workload})) << "no job of the victim here yet";
  EXPECT_EQ(executor_->submitted(), 0);

  executor_->launch(j);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  ASSERT_TRUE(executor_->hand_over(w, {j.workload}));
  EXPECT_EQ(queued_once(w.workload, "PENDING Dependency"), "PENDING Dependency\n");

  executor_->stop(j.workload, Duration());
  ASSERT_EQ(events_.wait_for(PodPhase::kExited, 1).size(), 1u);
  // Slurm starts it on its own at the pass the victim's end triggers, before
  // allot launches it; the executor reports nothing of it meanwhile.
  EXPECT_EQ(queued_once(w.workload, "RUNNING"), "RUNNING None\n");
  executor_->poll_once();
  EXPECT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u) << "only the victim's";

  executor_->launch(w);
  const std::vector<PodEvent> running = events_.wait_for(PodPhase::kRunning, 2);
  ASSERT_EQ(running.size(), 2u);
  EXPECT_EQ(running[1].pod.workload, w.workload);
  EXPECT_EQ(executor_->submitted(), 2) << "the victim's and the handover's; none at the launch";
  EXPECT_EQ(executor_->slurm_view(w.workload)->nodes, "node1");
  EXPECT_NE(log_once_it_holds({w.workload, 0}, "handed-over-ran").find("handed-over-ran"),
            std::string::npos);
}

TEST_F(SlurmHandoverTest, AWithdrawnOrStoppedHandoverIsCancelledAndNothingIsReported) {
  executor_ = make(events_);
  const WorkloadLaunch j = victim(23, "node2");
  const WorkloadLaunch w = launch(24, {"node2"}, "sleep 300");
  const WorkloadLaunch v = launch(25, {"node2"}, "sleep 300");
  executor_->launch(j);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  ASSERT_TRUE(executor_->hand_over(w, {j.workload}));
  ASSERT_TRUE(executor_->hand_over(v, {j.workload}));

  executor_->withdraw(w.workload);
  executor_->stop(v.workload, Duration::seconds(5));

  EXPECT_NE(listed_once(w.workload, "CANCELLED").find("CANCELLED"), std::string::npos);
  EXPECT_NE(listed_once(v.workload, "CANCELLED").find("CANCELLED"), std::string::npos);
  executor_->poll_once();
  executor_->stop(j.workload, Duration());
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].pod.workload, j.workload) << "nothing of the withdrawn handovers";
  EXPECT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
}

TEST_F(SlurmHandoverTest, ALaunchOnOtherNodesWithdrawsTheHandoverAndSubmitsAfresh) {
  executor_ = make(events_);
  const WorkloadLaunch j = victim(26, "node1");
  WorkloadLaunch w = launch(27, {"node1"}, "sleep 300");
  executor_->launch(j);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  ASSERT_TRUE(executor_->hand_over(w, {j.workload}));
  EXPECT_EQ(executor_->submitted(), 2);
  EXPECT_EQ(queued_once(w.workload, "PENDING"), "PENDING Dependency\n");

  w.pods[0].node = NodeId("node2");  // admitted elsewhere after all
  executor_->launch(w);

  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 2).size(), 2u) << "runs while the victim runs";
  EXPECT_EQ(executor_->slurm_view(w.workload)->nodes, "node2");
  EXPECT_EQ(executor_->submitted(), 3);
  EXPECT_NE(listed_once(w.workload, "CANCELLED").find("CANCELLED"), std::string::npos)
      << "the handed-over job";
}

TEST_F(SlurmHandoverTest, ANewExecutorAdoptsAHandedOverJobAtItsLaunch) {
  executor_ = make(events_);
  const WorkloadLaunch j = victim(28, "node2");
  const WorkloadLaunch w = launch(29, {"node2"}, "sleep 300");
  executor_->launch(j);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  ASSERT_TRUE(executor_->hand_over(w, {j.workload}));
  executor_.reset();  // allotd went away; both jobs stay in Slurm

  EventLog after;
  executor_ = make(after);
  executor_->launch(j);
  ASSERT_EQ(after.wait_for(PodPhase::kRunning, 1).size(), 1u);
  executor_->stop(j.workload, Duration());
  ASSERT_EQ(after.wait_for(PodPhase::kExited, 1).size(), 1u);
  executor_->launch(w);

  const std::vector<PodEvent> running = after.wait_for(PodPhase::kRunning, 2);
  ASSERT_EQ(running.size(), 2u);
  EXPECT_EQ(running[1].pod.workload, w.workload);
  EXPECT_EQ(executor_->adopted(), 2);
  EXPECT_EQ(executor_->submitted(), 0);
}

}  // namespace
}  // namespace allot::slurm
