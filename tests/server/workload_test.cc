// Workloads end to end against a real allotd: real processes under the
// team's Unix user, their logs, events, failures, paging, cancel and delete.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <grp.h>
#include <gtest/gtest.h>
#include <pwd.h>
#include <unistd.h>

#include "allotd_test.h"
#include "shell_command.h"

namespace allot::server_test {
namespace {

class WorkloadTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
  }

  // A script that waits until the file `go` exists.
  std::string wait_for_go(const std::string& go) const {
    return "while [ ! -e " + shell_quote(go) + " ]; do sleep 0.02; done";
  }

  // The items of a list answer; a failure when it is not 200.
  nlohmann::json items(const std::string& path) {
    const Reply reply = api_.get(path);
    EXPECT_EQ(reply.status, 200) << path << ": " << reply.describe();
    return reply.status == 200 ? reply.json["items"] : nlohmann::json::array();
  }
};

TEST_F(WorkloadTest, CreateAnswers201WithAUid) {
  const Reply first = api_.post("/api/v1/namespaces/research/workloads",
                                "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: first}\n"
                                "spec:\n  priorityClass: low\n"
                                "  podSets: [{count: 1, resources: {gpu: 1}}]\n"
                                "  command: [/bin/true]\n");
  ASSERT_EQ(first.status, 201) << first.describe();
  const nlohmann::json& meta = first.json["metadata"];
  EXPECT_EQ(meta["name"], "first");
  EXPECT_EQ(meta["namespace"], "research");
  ASSERT_TRUE(meta["uid"].is_number_unsigned()) << first.body;
  EXPECT_GE(meta["uid"].get<uint64_t>(), 1u);
  EXPECT_EQ(first.json["status"]["team"], "research");

  const nlohmann::json second = submit("research", "second");
  EXPECT_EQ(second["metadata"]["uid"].get<uint64_t>(), meta["uid"].get<uint64_t>() + 1);
}

TEST_F(WorkloadTest, WorkloadWithoutANameIsNamedAfterItsUid) {
  nlohmann::json manifest = workload_json("");
  manifest["metadata"].erase("name");
  const Reply created = api_.post_json("/api/v1/namespaces/research/workloads", manifest);
  ASSERT_EQ(created.status, 201) << created.describe();
  const uint64_t uid = created.json["metadata"]["uid"];
  EXPECT_EQ(created.json["metadata"]["name"], "wl-" + std::to_string(uid));
  EXPECT_EQ(api_.get("/api/v1/namespaces/research/workloads/wl-" + std::to_string(uid)).status,
            200);
}

TEST_F(WorkloadTest, WorkloadRunsThenSucceeds) {
  const std::string go = temp_file("go");
  submit("research", "job", {.script = wait_for_go(go), .gpus = 2});

  const nlohmann::json running = wait_phase("research", "job", "Running");
  EXPECT_FALSE(running["status"]["startedAt"].is_null()) << running;
  EXPECT_FALSE(running["status"]["stopping"].get<bool>());
  EXPECT_EQ(running["status"]["flavor"], "gpu");
  touch(go);

  const nlohmann::json done = wait_phase("research", "job", "Succeeded");
  EXPECT_EQ(done["status"]["exitCode"], 0) << done;
  EXPECT_FALSE(done["status"]["finishedAt"].is_null()) << done;
  EXPECT_EQ(done["status"]["restarts"], 0);
}

TEST_F(WorkloadTest, CudaVisibleDevicesMatchesTheAssignedGpus) {
  submit("research", "gpus", {.script = "echo \"$CUDA_VISIBLE_DEVICES\"", .gpus = 2, .pods = 2});
  const nlohmann::json done = wait_phase("research", "gpus", "Succeeded");
  const nlohmann::json& pods = done["status"]["podSets"][0]["pods"];
  ASSERT_EQ(pods.size(), 2u) << done;
  for (int pod = 0; pod < 2; ++pod) {
    std::string expected;
    for (const auto& gpu : pods[pod]["gpus"]) {
      expected += (expected.empty() ? "" : ",") + std::to_string(gpu.get<int>());
    }
    ASSERT_EQ(pods[pod]["gpus"].size(), 2u) << done;
    const Reply log_of_pod = log("research", "gpus", 0, pod);
    ASSERT_EQ(log_of_pod.status, 200) << log_of_pod.describe();
    const std::string visible = log_of_pod.body.substr(0, log_of_pod.body.find('\n'));
    if (visible.starts_with("GPU-")) {
      // A machine with NVML: UUIDs of the assigned GPUs.
      EXPECT_EQ(std::count(visible.begin(), visible.end(), ','), 1) << visible;
    } else {
      EXPECT_EQ(visible, expected) << "pod " << pod << " on " << pods[pod]["node"];
    }
  }
}

TEST_F(WorkloadTest, LogHasStdoutAndStderr) {
  submit("research", "chatty", {.script = "echo to-stdout; echo to-stderr >&2"});
  wait_phase("research", "chatty", "Succeeded");
  const Reply reply = log("research", "chatty");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  EXPECT_EQ(reply.body, "to-stdout\nto-stderr\n");
  EXPECT_TRUE(reply.header("Content-Type").starts_with("text/plain"))
      << reply.header("Content-Type");
  EXPECT_EQ(reply.header("X-Allot-Log-Offset"), std::to_string(reply.body.size()));
  EXPECT_TRUE(reply.header("X-Allot-Log-Path").ends_with("/pod-0.log"))
      << reply.header("X-Allot-Log-Path");
  EXPECT_FALSE(reply.header("X-Allot-Log-Path").starts_with("/"))
      << "no absolute server path (issue 10)";
}

// Issue 10, clear errors 13: a pod index the workload does not have was 200.
TEST_F(WorkloadTest, TheLogOfAPodTheWorkloadDoesNotHaveIs404) {
  submit("research", "one", {.script = "true"});
  const Reply reply = api_.get("/api/v1/namespaces/research/workloads/one/logs?pod=5");
  EXPECT_EQ(reply.status, 404) << reply.describe();
  EXPECT_NE(reply.body.find("has no pod 5 (its pods are 0 to 0)"), std::string::npos) << reply.body;
}

TEST_F(WorkloadTest, LogOffsetReadsOnlyNewBytes) {
  const std::string go = temp_file("go");
  submit("research", "follow", {.script = "echo first; " + wait_for_go(go) + "; echo second"});
  wait_log("research", "follow", "first\n");
  const Reply head = log("research", "follow");
  ASSERT_EQ(head.body, "first\n");
  const std::string offset = head.header("X-Allot-Log-Offset");
  ASSERT_EQ(offset, "6");
  touch(go);
  wait_phase("research", "follow", "Succeeded");

  const Reply tail = log("research", "follow", 6);
  ASSERT_EQ(tail.status, 200) << tail.describe();
  EXPECT_EQ(tail.body, "second\n");
  EXPECT_EQ(tail.header("X-Allot-Log-Offset"), "13");
  const Reply nothing_new = log("research", "follow", 13);
  EXPECT_EQ(nothing_new.body, "");
  EXPECT_EQ(nothing_new.header("X-Allot-Log-Offset"), "13");
}

TEST_F(WorkloadTest, EventsListThePhasesInOrder) {
  submit("research", "job");
  wait_phase("research", "job", "Succeeded");
  EXPECT_EQ(wait_event("research", "job", "Succeeded"),
            (std::vector<std::string>{"Pending", "Admitted", "Running", "Succeeded"}));
  const Reply events = api_.get("/api/v1/namespaces/research/workloads/job/events");
  int64_t previous = 0;
  for (const auto& event : events.json["items"]) {
    EXPECT_GT(event["sequence"].get<int64_t>(), previous) << events.body;
    previous = event["sequence"];
    EXPECT_FALSE(event["time"].get<std::string>().empty());
  }
}

TEST_F(WorkloadTest, FailingCommandFailsWithItsExitCode) {
  submit("research", "broken", {.script = "echo giving up; exit 3"});
  const nlohmann::json failed = wait_phase("research", "broken", "Failed");
  EXPECT_EQ(failed["status"]["exitCode"], 3) << failed;
  EXPECT_EQ(failed["status"]["reason"], "PodFailed");
  const std::vector<std::string> types = wait_event("research", "broken", "Failed");
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.back(), "Failed");
  EXPECT_NE(std::find(types.begin(), types.end(), "Warning"), types.end());
}

// The account recorded in DATA/state/<record> whose key (the fields after the
// account) is `key`, or "(not recorded)".
std::string recorded_account(const AllotdProcess& allotd, const std::string& record,
                             const std::string& key) {
  std::ifstream in(allotd.data_dir() / "state" / record);
  std::string line;
  while (std::getline(in, line)) {
    const size_t space = line.find(' ');
    if (!line.starts_with('#') && space != std::string::npos && line.substr(space + 1) == key) {
      return line.substr(0, space);
    }
  }
  return "(not recorded)";
}

// Issue 11, item 7: pods run as the submitting user's own account, whose
// primary group is the team's (issue 10's team account).
TEST_F(WorkloadTest, PodsRunAsTheSubmittersAccountInTheTeamsGroup) {
  if (geteuid() != 0) GTEST_SKIP() << "pods run as allot-<team> users only when allotd is root";
  submit("research", "who", {.script = "id -un; id -gn"});
  submit("prod", "who", {.script = "id -un; id -gn"});
  wait_phase("research", "who", "Succeeded");
  wait_phase("prod", "who", "Succeeded");
  // The accounts recorded for the team and for its user (the admin token's
  // subject): allot-<team> and allot-<team>_admin, or with a suffix where
  // that name was already taken on this machine (issue 10, isolation 7).
  for (const std::string team : {"research", "prod"}) {
    const std::string group = recorded_account(allotd_, "team-accounts", team);
    const std::string user = recorded_account(allotd_, "user-accounts", team + " admin");
    EXPECT_EQ(log(team, "who").body, user + "\n" + group + "\n") << team;
    EXPECT_TRUE(group.starts_with("allot-" + team)) << group;
    EXPECT_TRUE(user.starts_with("allot-" + team + "_admin")) << user;
  }
}

// `allotd --remove-host-accounts` (src/app/host_accounts.h): once allotd
// stopped, the team's and the user's accounts it made for this folder go,
// and a second run finds them already absent.
TEST_F(WorkloadTest, RemoveHostAccountsRemovesTheFoldersAccountsOnceAllotdStopped) {
  if (geteuid() != 0) GTEST_SKIP() << "pods run as allot-<team> users only when allotd is root";
  submit("research", "who", {.script = "id -un"});
  wait_phase("research", "who", "Succeeded");
  const std::string group = recorded_account(allotd_, "team-accounts", "research");
  const std::string user = recorded_account(allotd_, "user-accounts", "research admin");
  ASSERT_NE(getpwnam(user.c_str()), nullptr) << user;
  ASSERT_NE(getgrnam(group.c_str()), nullptr) << group;
  allotd_.stop();
  const std::string command =
      AllotdProcess::binary() + " --remove-host-accounts --data-dir " + allotd_.data_dir().string();
  const auto [code, output] = server_test::run_shell(command);
  EXPECT_EQ(code, 0) << output;
  EXPECT_NE(output.find("removed " + user + "\n"), std::string::npos) << output;
  EXPECT_NE(output.find("removed " + group + "\n"), std::string::npos) << output;
  EXPECT_NE(output.find("removed " + group + " (group)\n"), std::string::npos) << output;
  EXPECT_EQ(getpwnam(user.c_str()), nullptr);
  EXPECT_EQ(getpwnam(group.c_str()), nullptr);
  EXPECT_EQ(getgrnam(group.c_str()), nullptr);
  const auto [again_code, again] = server_test::run_shell(command);
  EXPECT_EQ(again_code, 0) << again;
  EXPECT_NE(again.find("0 removed, 2 already absent, 0 kept, 0 failed"), std::string::npos)
      << again;
  const auto [bare_code, bare] =
      server_test::run_shell(AllotdProcess::binary() + " --remove-host-accounts");
  EXPECT_NE(bare_code, 0);
  EXPECT_NE(bare.find("--data-dir is required"), std::string::npos) << bare;
}

// Issue 11, item 7: who submitted a workload is the caller allotd
// authenticated (here the administrator, subject "admin"), never the
// manifest's word; it is stored, served, survives a restart and reaches the
// pods as ALLOT_USER.
TEST_F(WorkloadTest, TheSubmitterIsRecordedServedKeptAndPassedToThePods) {
  const nlohmann::json created =
      submit("research", "mine", {.script = "echo \"user=$ALLOT_USER\"; echo \"home=$HOME\""});
  EXPECT_EQ(created["status"]["submittedBy"], "admin") << created;
  wait_phase("research", "mine", "Succeeded");
  const std::string body = log("research", "mine").body;
  EXPECT_TRUE(body.starts_with("user=admin\n")) << body;
  if (geteuid() == 0) {
    const std::string account = recorded_account(allotd_, "user-accounts", "research admin");
    EXPECT_NE(body.find("home=" + (allotd_.data_dir() / "teams" / "research" / "homes").string() +
                        "/" + account + "\n"),
              std::string::npos)
        << body;
  }
  EXPECT_EQ(items("/api/v1/namespaces/research/workloads")[0]["status"]["submittedBy"], "admin");

  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(workload("research", "mine")["status"]["submittedBy"], "admin");
}

TEST_F(WorkloadTest, AManifestCannotNameItsOwnSubmitter) {
  nlohmann::json forged = workload_json("forged");
  forged["status"] = {{"submittedBy", "ana"}};
  Reply reply = api_.post_json("/api/v1/namespaces/research/workloads", forged);
  EXPECT_EQ(reply.status, 400) << reply.describe();
  forged.erase("status");
  forged["metadata"]["submittedBy"] = "ana";
  reply = api_.post_json("/api/v1/namespaces/research/workloads", forged);
  EXPECT_EQ(reply.status, 400) << reply.describe();
  EXPECT_EQ(api_.get("/api/v1/namespaces/research/workloads/forged").status, 404);
}

TEST_F(WorkloadTest, ListPagesThroughEveryWorkloadWithContinueTokens) {
  std::vector<uint64_t> created;
  for (int i = 0; i < 25; ++i) {
    const std::string ns = i % 5 == 4 ? "prod" : "research";
    created.push_back(submit(ns, "w" + std::to_string(i))["metadata"]["uid"].get<uint64_t>());
  }
  std::vector<uint64_t> listed;
  std::vector<size_t> page_sizes;
  std::string token;
  for (int page = 0; page < 5; ++page) {
    const Reply reply =
        api_.get("/api/v1/workloads?limit=10" + (token.empty() ? "" : "&continue=" + token));
    ASSERT_EQ(reply.status, 200) << reply.describe();
    page_sizes.push_back(reply.json["items"].size());
    for (const auto& item : reply.json["items"]) listed.push_back(item["metadata"]["uid"]);
    token = reply.json["continue"];
    if (token.empty()) break;
  }
  EXPECT_EQ(page_sizes, (std::vector<size_t>{10, 10, 5}));
  EXPECT_EQ(listed, created);
  EXPECT_TRUE(std::is_sorted(listed.begin(), listed.end()));
  EXPECT_EQ(std::set<uint64_t>(listed.begin(), listed.end()).size(), 25u);
}

TEST_F(WorkloadTest, ListFiltersByPhase) {
  for (int i = 0; i < 6; ++i) {
    submit("research", "w" + std::to_string(i), {.script = i % 3 == 0 ? "exit 1" : "true"});
  }
  ASSERT_TRUE(eventually([&] {
    return items("/api/v1/workloads?phase=Succeeded,Failed").size() == 6;
  })) << api_.get("/api/v1/workloads").body;
  const nlohmann::json failed = items("/api/v1/workloads?phase=Failed");
  ASSERT_EQ(failed.size(), 2u);
  for (const auto& item : failed) EXPECT_EQ(phase_of(item), "Failed") << item;
  EXPECT_EQ(items("/api/v1/workloads?phase=Succeeded").size(), 4u);
  EXPECT_EQ(items("/api/v1/workloads?phase=Running,Pending").size(), 0u);
  const Reply bad = api_.get("/api/v1/workloads?phase=Sleeping");
  EXPECT_EQ(bad.status, 400) << bad.describe();
  EXPECT_EQ(bad.json["details"], "phase");
}

TEST_F(WorkloadTest, NamespaceRouteListsOnlyThatNamespace) {
  submit("research", "a");
  submit("prod", "b");
  submit("research", "c");
  const nlohmann::json research = items("/api/v1/namespaces/research/workloads");
  ASSERT_EQ(research.size(), 2u);
  for (const auto& item : research) EXPECT_EQ(item["metadata"]["namespace"], "research");
  const nlohmann::json prod = items("/api/v1/namespaces/prod/workloads");
  ASSERT_EQ(prod.size(), 1u);
  EXPECT_EQ(prod[0]["metadata"]["name"], "b");
  EXPECT_EQ(items("/api/v1/workloads?team=prod").size(), 1u);
  EXPECT_EQ(items("/api/v1/workloads").size(), 3u);
}

TEST_F(WorkloadTest, BadLimitIs400) {
  for (const char* limit : {"abc", "0", "-1", "10001"}) {
    const Reply reply = api_.get(std::string("/api/v1/workloads?limit=") + limit);
    EXPECT_EQ(reply.status, 400) << limit << ": " << reply.describe();
    EXPECT_EQ(reply.json["code"], "invalid_argument") << limit;
    EXPECT_EQ(reply.json["details"], "limit") << limit;
  }
}

TEST_F(WorkloadTest, CancelStopsAPodThatIgnoresSigtermAfterTheGracePeriod) {
  submit("research", "stubborn", {.script = "trap '' TERM; echo pid $$; exec sleep 1000"});
  wait_phase("research", "stubborn", "Running");
  const std::string line = wait_log("research", "stubborn", "\n");
  ASSERT_TRUE(line.starts_with("pid ")) << line;
  const pid_t pid = std::stoi(line.substr(4));
  ASSERT_TRUE(process_alive(pid));

  const auto cancelled_at = std::chrono::steady_clock::now();
  const Reply cancel = api_.post("/api/v1/namespaces/research/workloads/stubborn/cancel");
  ASSERT_EQ(cancel.status, 200) << cancel.describe();
  EXPECT_TRUE(cancel.json["status"]["stopping"].get<bool>()) << cancel.body;
  EXPECT_TRUE(workload("research", "stubborn")["status"]["stopping"].get<bool>());

  const nlohmann::json done = wait_phase("research", "stubborn", "Cancelled");
  const auto waited = std::chrono::steady_clock::now() - cancelled_at;
  EXPECT_GE(waited, std::chrono::milliseconds(900)) << "stopped before its 1 s grace period";
  EXPECT_FALSE(process_alive(pid)) << "pid " << pid << " survived the cancel";
  EXPECT_FALSE(done["status"]["stopping"].get<bool>()) << done;

  const Reply again = api_.post("/api/v1/namespaces/research/workloads/stubborn/cancel");
  EXPECT_EQ(again.status, 409) << again.describe();
  EXPECT_EQ(again.json["code"], "failed_precondition");
}

TEST_F(WorkloadTest, DeleteOfAFinishedWorkloadRemovesIt) {
  submit("research", "done");
  wait_phase("research", "done", "Succeeded");
  const Reply deleted = api_.del("/api/v1/namespaces/research/workloads/done");
  ASSERT_EQ(deleted.status, 200) << deleted.describe();
  EXPECT_EQ(deleted.json["deleted"], "research/done");
  const Reply gone = api_.get("/api/v1/namespaces/research/workloads/done");
  EXPECT_EQ(gone.status, 404) << gone.describe();
  EXPECT_EQ(gone.json["code"], "not_found");
  EXPECT_EQ(api_.get("/api/v1/namespaces/research/workloads/done/events").status, 404);
  EXPECT_EQ(items("/api/v1/workloads").size(), 0u);
}

TEST_F(WorkloadTest, DeleteOfATeamWithUnfinishedWorkIs409) {
  submit("research", "busy", {.script = "exec sleep 1000"});
  wait_phase("research", "busy", "Running");
  const Reply refused = api_.del("/api/v1/teams/research");
  EXPECT_EQ(refused.status, 409) << refused.describe();
  EXPECT_EQ(refused.json["code"], "failed_precondition");
  EXPECT_NE(refused.json["message"].get<std::string>().find("research/busy"), std::string::npos)
      << refused.body;
  EXPECT_EQ(api_.get("/api/v1/teams/research").status, 200);
  EXPECT_EQ(phase_of(workload("research", "busy")), "Running");
}

}  // namespace
}  // namespace allot::server_test
