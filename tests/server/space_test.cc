// Interactive Spaces through a real allotd and real pods (issue 12,
// "Interactive spaces"; docs/spaces.md): a Space that does nothing is
// suspended after its idleTimeoutSeconds, its processes stopped, its quota
// released and its working folder kept; `resume` brings it back Running, and
// both survive a restart of allotd. A Space whose tools touch
// $ALLOT_HEARTBEAT_FILE stays Running.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

class SpaceTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    apply(kTestPolicy);
  }

  // POSTs a Space of `gpus` GPUs running `script`; expects 201.
  void submit_space(const std::string& name, const std::string& script, int gpus,
                    int idle_timeout_seconds) {
    nlohmann::json manifest = workload_json(name, {.script = script, .gpus = gpus});
    manifest["spec"]["kind"] = "Space";
    manifest["spec"]["idleTimeoutSeconds"] = idle_timeout_seconds;
    const Reply reply = api_.post_json("/api/v1/namespaces/research/workloads", manifest);
    ASSERT_EQ(reply.status, 201) << reply.describe();
  }

  Reply resume(const std::string& name) {
    return api_.post("/api/v1/namespaces/research/workloads/" + name + "/resume");
  }
};

// The pid a pod printed as "pid N".
pid_t printed_pid(const std::string& log, size_t from = 0) {
  const size_t at = log.find("pid ", from);
  return at == std::string::npos ? -1 : std::stoi(log.substr(at + 4));
}

TEST_F(SpaceTest, IdleSpaceIsSuspendedKeepsItsFolderAndResumes) {
  // Marks its working folder, says whether the mark was there, then sleeps:
  // no CPU, no heartbeat.
  submit_space("notebook",
               "if [ -f mark ]; then echo found-mark; fi; echo here > mark; "
               "echo pid $$; exec sleep 1000",
               4, 1);
  wait_phase("research", "notebook", "Running");
  const std::string first_log = wait_log("research", "notebook", "pid ");
  const pid_t first_pid = printed_pid(first_log);
  ASSERT_GT(first_pid, 0) << first_log;
  EXPECT_EQ(first_log.find("found-mark"), std::string::npos);
  EXPECT_EQ(resume("notebook").status, 409) << "a running Space is not suspended";

  const nlohmann::json suspended = wait_phase("research", "notebook", "Suspended");
  EXPECT_EQ(suspended["status"]["reason"], "Idle") << suspended;
  EXPECT_FALSE(process_alive(first_pid)) << "its processes were stopped";
  const std::vector<std::string> events = wait_event("research", "notebook", "Suspended");
  EXPECT_NE(std::find(events.begin(), events.end(), "Normal"), events.end())
      << "the Suspending note is an event";

  // Its node and quota are released: a job that needs every GPU of the
  // cluster (3 nodes x 4, research borrowing prod's 4) runs.
  submit("research", "all-gpus", {.script = "exit 0", .gpus = 4, .pods = 3});
  wait_phase("research", "all-gpus", "Succeeded");

  // It stays suspended across a restart of allotd.
  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(phase_of(workload("research", "notebook")), "Suspended");

  const Reply resumed = resume("notebook");
  ASSERT_EQ(resumed.status, 200) << resumed.describe();
  EXPECT_EQ(resumed.json["status"]["reason"], "Resumed") << resumed.body;
  wait_phase("research", "notebook", "Running");
  const std::string log = wait_log("research", "notebook", "found-mark");
  EXPECT_GT(printed_pid(log, log.find("found-mark")), 0) << "a new run: " << log;
  EXPECT_NE(printed_pid(log, log.find("found-mark")), first_pid);

  // Idle again, it is suspended again.
  wait_phase("research", "notebook", "Suspended");
}

TEST_F(SpaceTest, HeartbeatKeepsASpaceRunning) {
  // Touches its heartbeat file every 0.2 s and counts; no long CPU use.
  submit_space("shell",
               "i=0; while [ $i -lt 40 ]; do touch \"$ALLOT_HEARTBEAT_FILE\"; i=$((i+1)); "
               "echo beat $i; sleep 0.2; done; exec sleep 1000",
               1, 1);
  wait_phase("research", "shell", "Running");
  // 30 beats: about 6 s, several idle timeouts.
  wait_log("research", "shell", "beat 30\n");
  const nlohmann::json running = workload("research", "shell");
  EXPECT_EQ(phase_of(running), "Running") << running;
  // Once the beats stop, it is suspended.
  wait_phase("research", "shell", "Suspended");
  const std::string log = wait_log("research", "shell", "beat 40\n");
  EXPECT_NE(log.find("beat 40"), std::string::npos);
}

TEST_F(SpaceTest, SpaceWithoutIdleTimeoutIsRefusedNamingTheField) {
  nlohmann::json manifest = workload_json("no-timeout");
  manifest["spec"]["kind"] = "Space";
  const Reply reply = api_.post_json("/api/v1/namespaces/research/workloads", manifest);
  EXPECT_EQ(reply.status, 400) << reply.describe();
  EXPECT_NE(reply.body.find("idleTimeoutSeconds"), std::string::npos) << reply.body;
}

}  // namespace
}  // namespace allot::server_test
