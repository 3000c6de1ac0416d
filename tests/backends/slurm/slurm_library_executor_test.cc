// The Slurm executor through libslurm (library_transport.h), the commands
// and slurmrestd, against the real Slurm of the ctest fixture `slurm`: a job
// submitted through the library asks Slurm what the same job's sbatch asks
// (scontrol's fields) and runs with the environment sbatch's job gets (a
// gang's tasks and a batch script); the job list is squeue's. Through each
// way: a GPU job runs under its team's account on its node; a gang is one job
// over two nodes; a stop with grace sends SIGTERM first; a new executor adopts
// the job of the one before; a job Slurm refuses is a launch error in Slurm's
// words.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/slurm/library_transport.h"
#include "slurm_executor_fixture.h"

namespace allot::slurm {
namespace {

class SlurmLibraryTest : public SlurmExecutorTest {
 protected:
  std::shared_ptr<LibraryTransport> library() {
    const std::string conf = executor_slurm_conf();
    Result<std::unique_ptr<LibraryTransport>> made =
        LibraryTransport::make({conf, slurm_environment(conf)});
    EXPECT_TRUE(made.ok()) << made.status().message();
    return made.ok() ? std::shared_ptr<LibraryTransport>(std::move(*made)) : nullptr;
  }

  // `launch` as the executor would submit it, its script written where sbatch reads it.
  Submission submission(const WorkloadLaunch& l, const std::optional<JobOwner>& owner) {
    const std::string script = log_dir_ + "/" + std::to_string(l.workload.value()) + ".sbatch";
    Submission s = submission_of(l, {"texec-", "gpu", log_dir_}, script, owner).value();
    std::ofstream(script) << s.script;
    return s;
  }

  // `text` with the workload's id written "W".
  static std::string with_w(std::string text, WorkloadId workload) {
    const std::string id = std::to_string(workload.value());
    for (size_t at = text.find(id); at != std::string::npos; at = text.find(id)) {
      text.replace(at, id.size(), "W");
    }
    return text;
  }

  // scontrol's fields of `job` ("Key" -> "value"), with `workload` written "W".
  std::map<std::string, std::string> job_fields(const std::string& job, WorkloadId workload) {
    const Result<CommandResult> shown = runner_.run({"scontrol", "show", "job", "-o", job});
    std::map<std::string, std::string> fields;
    if (!shown.ok() || !shown->succeeded()) return fields;
    std::istringstream words(shown->out);
    for (std::string word; words >> word;) {
      const size_t eq = word.find('=');
      if (eq == std::string::npos) continue;
      fields[word.substr(0, eq)] = with_w(word.substr(eq + 1), workload);
    }
    return fields;
  }

  static WorkloadLaunch on_a100(WorkloadLaunch l) {
    l.flavor = "a100";  // node3-4's GPUs
    return l;
  }

  // The jobs of `ids` in a list, by id.
  static std::map<std::string, SlurmJob> jobs_of(const std::vector<SlurmJob>& jobs,
                                                 const std::vector<std::string>& ids) {
    std::map<std::string, SlurmJob> out;
    for (const SlurmJob& job : jobs) {
      if (std::find(ids.begin(), ids.end(), job.id) != ids.end()) out[job.id] = job;
    }
    return out;
  }

  // Waits up to 60 s until every job of `ids` is in a final state.
  void wait_until_ended(SlurmTransport& transport, const std::vector<std::string>& ids) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      const Result<std::vector<SlurmJob>> listed = transport.list_jobs();
      const std::map<std::string, SlurmJob> jobs =
          listed.ok() ? jobs_of(*listed, ids) : std::map<std::string, SlurmJob>{};
      if (jobs.size() == ids.size() && std::all_of(jobs.begin(), jobs.end(), [](const auto& job) {
            return is_final_job_state(job.second.state);
          })) {
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  // The job's environment as it printed it, without what names one job: its
  // id, times, the GPUs it was given, its srun's ports; `workload` written "W".
  static std::string job_environment(const std::string& log, WorkloadId workload) {
    static const std::set<std::string> kOneJobs = {
        "SLURM_JOB_ID",         "SLURM_JOBID",          "SLURM_TASK_PID",
        "SLURM_JOB_START_TIME", "SLURM_JOB_END_TIME",   "ALLOT_WORKLOAD",
        "ALLOT_WORKLOAD_NAME",  "CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL",
        "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK",     "SLURM_JOB_GPUS",
        "SLURM_STEP_GPUS",      "SLURM_SRUN_COMM_PORT", "SLURM_STEP_LAUNCHER_PORT"};
    std::istringstream lines(log);
    std::string out;
    for (std::string line; std::getline(lines, line);) {
      if (kOneJobs.contains(line.substr(0, line.find('=')))) continue;
      out += with_w(line, workload) + "\n";
    }
    return out;
  }
};

TEST_F(SlurmLibraryTest, AJobThroughLibslurmAsksSlurmWhatItsSbatchAsksAndGetsItsEnvironment) {
  const std::shared_ptr<LibraryTransport> lib = library();
  ASSERT_NE(lib, nullptr);
  CommandTransport commands(runner_);
  const JobOwner root{"root", 0, 0, "/root"};
  const std::string command = "env | LC_ALL=C sort; sleep 3";
  WorkloadLaunch by_sbatch = launch(31, {"node1", "node2"}, command);
  WorkloadLaunch by_library = launch(32, {"node1", "node2"}, command);
  by_sbatch.max_runtime = by_library.max_runtime = Duration::seconds(300);
  by_sbatch.priority_class = by_library.priority_class = "normal";

  const Result<std::string> sbatch_job = commands.submit(submission(by_sbatch, root), root);
  const Result<std::string> library_job = lib->submit(submission(by_library, root), root);
  ASSERT_TRUE(sbatch_job.ok()) << sbatch_job.status().message();
  ASSERT_TRUE(library_job.ok()) << library_job.status().message();
  // Read once both ended (slurmctld keeps them for MinJobAge): scontrol says
  // some fields otherwise while a job pends ("NumNodes=2-2") than once it ran.
  wait_until_ended(*lib, {*sbatch_job, *library_job});

  std::map<std::string, std::string> asked = job_fields(*sbatch_job, by_sbatch.workload);
  std::map<std::string, std::string> asked_by_library =
      job_fields(*library_job, by_library.workload);
  ASSERT_FALSE(asked.empty());
  for (const char* field :
       {"JobName",    "UserId",        "GroupId",          "Account",       "QOS",
        "Requeue",    "TimeLimit",     "Partition",        "ReqNodeList",   "ExcNodeList",
        "NumNodes",   "NumTasks",      "CPUs/Task",        "MinMemoryNode", "TresPerNode",
        "WorkDir",    "StdOut",        "StdErr",           "StdIn",         "Dependency",
        "Command",    "OverSubscribe", "NtasksPerN:B:S:C", "Contiguous",    "Features",
        "MinCPUsNode"}) {
    EXPECT_EQ(asked_by_library[field], asked[field]) << field;
  }
  EXPECT_EQ(asked_by_library["TresPerNode"], "gres:gpu:h100:1");
  EXPECT_EQ(asked_by_library["ReqNodeList"], "node[1-2]");

  executor_ = make(events_);  // read_log()
  const std::string sbatch_env =
      job_environment(log_of({by_sbatch.workload, 0}), by_sbatch.workload);
  EXPECT_NE(sbatch_env.find("SLURM_NTASKS=2\n"), std::string::npos) << sbatch_env;
  EXPECT_NE(sbatch_env.find("SLURM_OPEN_MODE=a\n"), std::string::npos) << sbatch_env;
  EXPECT_NE(sbatch_env.find("SLURM_UMASK="), std::string::npos) << sbatch_env;
  EXPECT_NE(sbatch_env.find("SLURM_JOB_NAME=texec-W\n"), std::string::npos) << sbatch_env;
  EXPECT_EQ(job_environment(log_of({by_library.workload, 0}), by_library.workload), sbatch_env);
}

TEST_F(SlurmLibraryTest, AOneNodeJobsBatchScriptGetsTheEnvironmentSbatchsGets) {
  const std::shared_ptr<LibraryTransport> lib = library();
  ASSERT_NE(lib, nullptr);
  CommandTransport commands(runner_);
  const std::string command = "env | LC_ALL=C sort";
  const WorkloadLaunch by_sbatch = on_a100(launch(37, {"node4"}, command));
  const WorkloadLaunch by_library = on_a100(launch(38, {"node4"}, command));

  const Result<std::string> sbatch_job =
      commands.submit(submission(by_sbatch, std::nullopt), std::nullopt);
  const Result<std::string> library_job =
      lib->submit(submission(by_library, std::nullopt), std::nullopt);
  ASSERT_TRUE(sbatch_job.ok() && library_job.ok()) << library_job.status().message();
  wait_until_ended(*lib, {*sbatch_job, *library_job});

  executor_ = make(events_);  // read_log()
  const std::string sbatch_env =
      job_environment(log_of({by_sbatch.workload, 0}), by_sbatch.workload);
  EXPECT_NE(sbatch_env.find("SLURM_SUBMIT_DIR="), std::string::npos) << sbatch_env;
  EXPECT_NE(sbatch_env.find("SLURM_SUBMIT_HOST="), std::string::npos) << sbatch_env;
  EXPECT_EQ(job_environment(log_of({by_library.workload, 0}), by_library.workload), sbatch_env);
}

TEST_F(SlurmLibraryTest, ItListsSlurmsJobsAsSqueueDoes) {
  const std::shared_ptr<LibraryTransport> lib = library();
  ASSERT_NE(lib, nullptr);
  CommandTransport commands(runner_);
  const Result<std::string> failed =
      lib->submit(submission(on_a100(launch(33, {"node3"}, "exit 3")), {}), std::nullopt);
  const Result<std::string> running =
      lib->submit(submission(on_a100(launch(34, {"node3"}, "sleep 60")), {}), std::nullopt);
  ASSERT_TRUE(failed.ok() && running.ok()) << failed.status().message();
  wait_until_ended(*lib, {*failed});
  // node3 has 8 GPUs: this one runs beside the sleep.
  const Result<std::string> completed =
      lib->submit(submission(on_a100(launch(35, {"node3"}, "true")), {}), std::nullopt);
  Submission held = submission(on_a100(launch(36, {"node3"}, "true")), {});
  held.argv.insert(held.argv.end() - 1, "--dependency=afterany:" + *running);
  const Result<std::string> pending = lib->submit(held, std::nullopt);
  ASSERT_TRUE(completed.ok() && pending.ok()) << pending.status().message();
  wait_until_ended(*lib, {*completed});

  const std::vector<std::string> ids = {*failed, *running, *completed, *pending};
  const std::map<std::string, SlurmJob> by_library = jobs_of(lib->list_jobs().value(), ids);
  const std::map<std::string, SlurmJob> by_squeue = jobs_of(commands.list_jobs().value(), ids);

  ASSERT_EQ(by_library.size(), 4u);
  EXPECT_EQ(by_library, by_squeue);
  EXPECT_EQ(by_library.at(*failed).state, "FAILED");
  EXPECT_EQ(by_library.at(*failed).wait_status, 3 << 8);
  EXPECT_EQ(by_library.at(*running).state, "RUNNING");
  EXPECT_EQ(by_library.at(*running).nodes, "node3");
  EXPECT_EQ(by_library.at(*pending).state, "PENDING");
  EXPECT_EQ(by_library.at(*pending).reason, "Dependency");
  EXPECT_EQ(lib->list_jobs().value(), lib->list_jobs().value()) << "unchanged: the same list";
  EXPECT_TRUE(lib->cancel(*running, CancelKind::kCancel).ok());
  wait_until_ended(*lib, {*running, *pending});
  EXPECT_TRUE(lib->cancel(*running, CancelKind::kCancel).ok()) << "an ended job: cancelled";
}

// The executor's scenarios through each way of reaching slurmctld: Slurm's
// commands, libslurm and slurmrestd (with JWT, as root).
enum class Way { kCommands, kLibslurm, kSlurmrestd };

std::string way_name(Way way) {
  switch (way) {
    case Way::kCommands: return "commands";
    case Way::kLibslurm: return "libslurm";
    case Way::kSlurmrestd: return "slurmrestd";
  }
  return "";
}

class SlurmTransportTest : public SlurmLibraryTest, public ::testing::WithParamInterface<Way> {
 protected:
  std::unique_ptr<SlurmExecutor> make_for(EventLog& log) {
    switch (GetParam()) {
      case Way::kCommands: return make(log);
      case Way::kLibslurm: return make(log, library());
      case Way::kSlurmrestd: return make(log, rest(rest_url(), token_of("root")));
    }
    return make(log);
  }
};

INSTANTIATE_TEST_SUITE_P(EachWay, SlurmTransportTest,
                         ::testing::Values(Way::kCommands, Way::kLibslurm, Way::kSlurmrestd),
                         [](const ::testing::TestParamInfo<Way>& way) {
                           std::string name = way_name(way.param);
                           name[0] = static_cast<char>(name[0] - 'a' + 'A');
                           return name;
                         });

TEST_P(SlurmTransportTest, AGpuJobRunsUnderItsTeamsAccountWithTheGpusSlurmGaveIt) {
  executor_ = make_for(events_);
  EXPECT_EQ(executor_->transport_name(), way_name(GetParam()));
  const WorkloadLaunch l = launch(21, {"node2"},
                                  "echo CVD=$CUDA_VISIBLE_DEVICES ACC=$SLURM_JOB_ACCOUNT "
                                  "NODE=$SLURMD_NODENAME TEAM=$ALLOT_TEAM; exit 3");

  executor_->launch(l);
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].pod, (PodId{l.workload, 0}));
  EXPECT_EQ(exits[0].exit_code, 3) << exits[0].launch_error;
  EXPECT_FALSE(exits[0].stopped);
  EXPECT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u) << "kRunning before kExited";
  EXPECT_EQ(log_of({l.workload, 0}), "CVD=0 ACC=texec-vision NODE=node2 TEAM=texec-vision\n");
  EXPECT_EQ(executor_->submitted(), 1);
  EXPECT_EQ(placements_.load(), 0)
      << "slurmrestd pins it by excluding the other nodes: no scontrol";
}

TEST_P(SlurmTransportTest, AGangIsOneJobOverTwoNodesWithOneTaskEach) {
  executor_ = make_for(events_);
  const WorkloadLaunch l =
      launch(22, {"node1", "node2"},
             "echo rank=$SLURM_PROCID node=$SLURMD_NODENAME gpus=$CUDA_VISIBLE_DEVICES");

  executor_->launch(l);
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 2);

  ASSERT_EQ(exits.size(), 2u);
  EXPECT_TRUE(exits[0].succeeded() && exits[1].succeeded()) << exits[0].launch_error;
  EXPECT_EQ(log_of({l.workload, 0}), "rank=0 node=node1 gpus=0\n");
  EXPECT_EQ(log_of({l.workload, 1}), "rank=1 node=node2 gpus=0\n");
}

TEST_P(SlurmTransportTest, AStopWithGraceSendsTermFirstAndItsPodsAreReportedStopped) {
  executor_ = make_for(events_);
  const WorkloadLaunch l = launch(23, {"node1"},
                                  "trap 'echo got TERM; exit 0' TERM; echo trap set; "
                                  "while :; do sleep 1; done");
  executor_->launch(l);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  // A TERM before the shell has set its trap ends it without the echo.
  ASSERT_NE(log_once_it_holds({l.workload, 0}, "trap set").find("trap set"), std::string::npos);
  ASSERT_TRUE(executor_->slurm_view(l.workload).has_value());
  EXPECT_EQ(executor_->slurm_view(l.workload)->nodes, "node1");

  executor_->stop(l.workload, Duration::seconds(5));
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].stopped);
  EXPECT_NE(log_of({l.workload, 0}).find("got TERM"), std::string::npos)
      << "SIGTERM first, within the grace period";
}

TEST_P(SlurmTransportTest, ANewExecutorAdoptsTheJobOfTheOneBeforeInsteadOfSubmittingAgain) {
  executor_ = make_for(events_);
  WorkloadLaunch l = launch(24, {"node3"}, "sleep 60");
  l.flavor = "a100";
  executor_->launch(l);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  const std::string job = executor_->slurm_view(l.workload)->job_id;
  executor_.reset();  // allotd went away; the job runs on

  EventLog after;
  executor_ = make_for(after);
  WorkloadLaunch again = l;
  again.pods[0].node = NodeId("node4");  // wherever allot places it now
  executor_->launch(again);

  ASSERT_EQ(after.wait_for(PodPhase::kRunning, 1).size(), 1u);
  EXPECT_EQ(executor_->adopted(), 1);
  EXPECT_EQ(executor_->submitted(), 0);
  EXPECT_EQ(executor_->slurm_view(l.workload)->job_id, job);
  // Adopted where it runs, not where allot placed it now: kept, and recorded.
  EXPECT_EQ(executor_->slurm_view(l.workload)->nodes, "node3");
  EXPECT_EQ(executor_->slurm_view(l.workload)->placed_nodes, "node4");
  executor_->stop(l.workload, Duration());
  const std::vector<PodEvent> exits = after.wait_for(PodPhase::kExited, 1);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].stopped);
}

TEST_P(SlurmTransportTest, AJobSlurmRefusesIsALaunchErrorInSlurmsWords) {
  executor_ = make_for(events_);
  WorkloadLaunch l = launch(25, {"node1"}, "true");
  l.team = TeamId("texec-nobody");

  executor_->launch(l);
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].exit_code, 127);
  EXPECT_NE(exits[0].launch_error.find("Invalid account"), std::string::npos)
      << exits[0].launch_error;
}

}  // namespace
}  // namespace allot::slurm
