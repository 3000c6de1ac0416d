// SubmitMode::kAllocation against the real Slurm 22.05 (the ctest fixture
// `slurm`): a job asked as an allocation onto an idle node is RUNNING when
// its submission answers, allocated by slurmctld inside the request (its log
// says `_slurm_rpc_allocate_resources JobId=N NodeList=node`), where a batch
// job waits for the next scheduling pass; through the executor it runs under
// its team's account with the GPUs Slurm gave it and its exit status, a stop
// with grace sends SIGTERM first, and a new executor adopts the job (salloc
// outlives the executor that started it).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/slurm/salloc_process.h"
#include "backends/slurm/slurm_jobs.h"
#include "backends/slurm/slurm_transport.h"
#include "slurm_executor_fixture.h"

namespace allot::slurm {
namespace {

class SlurmAllocationTest : public SlurmExecutorTest {
 protected:
  void SetUp() override {
    SlurmExecutorTest::SetUp();
    submit_mode_ = SubmitMode::kAllocation;
  }

  // slurmctld's log (the fixture's DIR/log/slurmctld.log).
  static std::string controller_log() {
    const std::filesystem::path log =
        std::filesystem::path(executor_slurm_conf()).parent_path().parent_path() / "log" /
        "slurmctld.log";
    std::ifstream in(log);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string state_of(const std::string& job) {
    const Result<CommandResult> listed = runner_.run({"squeue", "-h", "-j", job, "-o", "%T"});
    return listed.ok() ? without_trailing_space(listed->out) : "(squeue failed)";
  }
};

TEST_F(SlurmAllocationTest, AnAllocatedJobIsRunningWhenItsSubmissionAnswers) {
  WorkloadLaunch l = launch(21, {"node2"}, "sleep 30");
  SubmitSettings settings{"texec-", "gpu", log_dir_};
  settings.mode = SubmitMode::kAllocation;
  const std::string script = log_dir_ + "/alloc.sh";
  const Submission s = submission_of(l, settings, script).value();
  std::ofstream(script) << s.script;
  CommandTransport transport(runner_);

  const auto asked = std::chrono::steady_clock::now();
  const Result<std::string> id = transport.submit(s, std::nullopt);
  const auto answered = std::chrono::steady_clock::now();

  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(state_of(*id), "RUNNING") << "started inside the request, not at a later pass";
  EXPECT_LT(answered - asked, std::chrono::seconds(5));
  EXPECT_NE(controller_log().find("_slurm_rpc_allocate_resources JobId=" + *id + " NodeList=node2"),
            std::string::npos)
      << "slurmctld allocated it in the submission's own RPC";
}

// The process the launcher names is the real salloc, setpriv's exec
// included (salloc_process.h: allotd signals it once its job ended), and a
// cancelled allocation's salloc normally ends by itself.
TEST_F(SlurmAllocationTest, TheLauncherNamesSallocItselfUnderSetpriv) {
  const WorkloadLaunch l = launch(25, {"node2"}, "sleep 30");
  SubmitSettings settings{"texec-", "gpu", log_dir_};
  settings.mode = SubmitMode::kAllocation;
  const JobOwner root{"root", 0, 0, "/root"};
  const Submission s = submission_of(l, settings, log_dir_ + "/unused", root).value();
  ASSERT_EQ(s.argv[5], "setpriv");

  const Result<AllocationAnswer> answer = CommandTransport(runner_).allocate(s);

  ASSERT_TRUE(answer.ok()) << answer.status().message();
  ASSERT_TRUE(answer->salloc.has_value());
  std::ifstream comm("/proc/" + std::to_string(answer->salloc->pid) + "/comm");
  std::string name;
  std::getline(comm, name);
  EXPECT_EQ(name, "salloc");
  EXPECT_EQ(running_process_start(answer->salloc->pid), answer->salloc->start);
  ASSERT_TRUE(runner_.run({"scancel", answer->job_id}).ok());
  for (int i = 0; i < 150 && running_process_start(answer->salloc->pid); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_FALSE(running_process_start(answer->salloc->pid).has_value())
      << "salloc outlived its cancelled allocation by 30 s";
}

TEST_F(SlurmAllocationTest, AGpuJobRunsUnderItsTeamsAccountWithItsExitStatus) {
  executor_ = make(events_);
  const WorkloadLaunch l = launch(22, {"node2"},
                                  "echo CVD=$CUDA_VISIBLE_DEVICES ACC=$SLURM_JOB_ACCOUNT "
                                  "NODE=$SLURMD_NODENAME TEAM=$ALLOT_TEAM; exit 3");

  executor_->launch(l);
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].exit_code, 3);
  EXPECT_FALSE(exits[0].stopped);
  EXPECT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u) << "kRunning before kExited";
  EXPECT_EQ(log_of({l.workload, 0}), "CVD=0 ACC=texec-vision NODE=node2 TEAM=texec-vision\n");
  EXPECT_EQ(executor_->submitted(), 1);
}

TEST_F(SlurmAllocationTest, AGangIsOneAllocationOverTwoNodesWithOneTaskEach) {
  executor_ = make(events_);
  const WorkloadLaunch l =
      launch(23, {"node1", "node2"}, "echo rank=$SLURM_PROCID node=$SLURMD_NODENAME");

  executor_->launch(l);
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 2);

  ASSERT_EQ(exits.size(), 2u);
  EXPECT_TRUE(exits[0].succeeded() && exits[1].succeeded());
  EXPECT_EQ(log_of({l.workload, 0}), "rank=0 node=node1\n");
  EXPECT_EQ(log_of({l.workload, 1}), "rank=1 node=node2\n");
}

TEST_F(SlurmAllocationTest, AStopWithGraceSendsTermFirstAndTheJobIsAdoptedByANewExecutor) {
  executor_ = make(events_);
  const WorkloadLaunch l = launch(24, {"node1"},
                                  "trap 'echo got TERM; exit 0' TERM; echo trap set; "
                                  "while :; do sleep 1; done");
  executor_->launch(l);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  ASSERT_NE(log_once_it_holds({l.workload, 0}, "trap set").find("trap set"), std::string::npos);
  const std::string job = executor_->slurm_view(l.workload)->job_id;
  executor_.reset();  // allotd went away; salloc and the job run on

  EventLog after;
  executor_ = make(after);
  executor_->launch(l);
  ASSERT_EQ(after.wait_for(PodPhase::kRunning, 1).size(), 1u);
  EXPECT_EQ(executor_->adopted(), 1);
  EXPECT_EQ(executor_->submitted(), 0);
  EXPECT_EQ(executor_->slurm_view(l.workload)->job_id, job);

  executor_->stop(l.workload, Duration::seconds(5));
  const std::vector<PodEvent> exits = after.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].stopped);
  EXPECT_NE(log_of({l.workload, 0}).find("got TERM"), std::string::npos)
      << "SIGTERM first, within the grace period";
}

}  // namespace
}  // namespace allot::slurm
