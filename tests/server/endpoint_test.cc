// Inference endpoints against a real allotd (docs/endpoints.md): replicas run
// as real processes, the scale route (and `allot scale`) moves them up and
// down, the desired count survives a restart, and deleting the endpoint
// stops its replicas.
#include <array>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "allotd_test.h"
#include "shell_command.h"

namespace allot::server_test {
namespace {

constexpr const char* kEndpoints = "/api/v1/namespaces/research/workloads";

class EndpointTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
  }

  // research/chat: 1 GPU per replica, replicas {min: 1, max: 3}, serving until stopped.
  void submit_endpoint() {
    const Reply created = api_.post(kEndpoints,
                                    "apiVersion: allot/v1\nkind: Workload\n"
                                    "metadata: {name: chat}\n"
                                    "spec:\n  kind: InferenceEndpoint\n  priorityClass: low\n"
                                    "  replicas: {min: 1, max: 3}\n"
                                    "  podSets: [{count: 1, resources: {gpu: 1}}]\n"
                                    "  command: [/bin/sh, -c, 'exec sleep 1000']\n");
    ASSERT_EQ(created.status, 201) << created.describe();
  }

  Reply scale(const nlohmann::json& body) {
    return api_.post_json(std::string(kEndpoints) + "/chat/scale", body);
  }

  // Waits until the endpoint reports `ready` replicas running and `desired` wanted.
  nlohmann::json wait_ready(int desired, int ready) {
    return wait_until(
        "research", "chat",
        [&](const nlohmann::json& w) {
          const nlohmann::json& r = w["status"]["replicas"];
          return r.is_object() && r["desired"] == desired && r["ready"] == ready &&
                 r["admitted"] == ready;
        },
        "endpoint chat with " + std::to_string(ready) + " ready of " + std::to_string(desired));
  }

  void wait_gone(const std::string& name) {
    wait_until(
        "research", name, [](const nlohmann::json& w) { return w.is_null(); }, name + " erased");
  }

  // Runs the real `allot` with the administrator's token; its exit code and output.
  std::pair<int, std::string> allot(const std::string& args) {
    const std::string command = "ALLOT_TOKEN=" + shell_quote(allotd_.admin_token()) +
                                " ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) +
                                " " + ALLOT_CLI + " " + args;
    return run_shell(command);
  }
};

TEST_F(EndpointTest, ScaleUpAndDownThroughTheRouteRunsAndStopsReplicas) {
  submit_endpoint();
  wait_phase("research", "chat-0", "Running");
  const nlohmann::json endpoint = wait_ready(1, 1);
  EXPECT_EQ(phase_of(endpoint), "Pending") << "the endpoint itself is never scheduled";

  const Reply up = scale({{"replicas", 3}});
  ASSERT_EQ(up.status, 200) << up.describe();
  EXPECT_EQ(up.json["status"]["replicas"]["desired"], 3);
  wait_phase("research", "chat-1", "Running");
  wait_phase("research", "chat-2", "Running");
  wait_ready(3, 3);
  const nlohmann::json replica = workload("research", "chat-2");
  EXPECT_EQ(replica["metadata"]["labels"]["allot.dev/replica-of"], "chat");
  EXPECT_EQ(replica["metadata"]["labels"]["allot.dev/replica"], "2");

  const Reply down = scale({{"replicas", 1}});
  ASSERT_EQ(down.status, 200) << down.describe();
  wait_gone("chat-2");
  wait_gone("chat-1");
  wait_ready(1, 1);
  EXPECT_EQ(phase_of(workload("research", "chat-0")), "Running");
  EXPECT_NE(wait_event("research", "chat", "Normal").size(), 0u);
}

TEST_F(EndpointTest, BadScaleRequestsAreRefusedNamingTheField) {
  submit_endpoint();
  const Reply beyond = scale({{"replicas", 4}});
  EXPECT_EQ(beyond.status, 400) << beyond.describe();
  EXPECT_NE(beyond.body.find("replicas must lie within [1, 3]"), std::string::npos) << beyond.body;
  EXPECT_EQ(scale({{"signal", 3.5}}).status, 400) << "external takes replicas";
  EXPECT_EQ(scale({{"replica", 2}}).status, 400);
  submit("research", "job");
  const Reply not_endpoint =
      api_.post_json(std::string(kEndpoints) + "/job/scale", {{"replicas", 2}});
  EXPECT_EQ(not_endpoint.status, 409) << not_endpoint.describe();
  // Users may not forge a replica.
  const Reply forged = api_.post(kEndpoints,
                                 "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: x, "
                                 "labels: {allot.dev/replica-of: chat}}\n"
                                 "spec:\n  podSets: [{count: 1, resources: {gpu: 1}}]\n"
                                 "  command: [/bin/true]\n");
  EXPECT_EQ(forged.status, 400) << forged.describe();
  EXPECT_NE(forged.body.find("is set by allotd"), std::string::npos) << forged.body;
}

TEST_F(EndpointTest, DesiredReplicasSurviveARestartAndTheCliScales) {
  submit_endpoint();
  const auto [code, output] = allot("scale chat -n research --replicas 2");
  EXPECT_EQ(code, 0) << output;
  EXPECT_EQ(output, "workload/chat scaled to 2 replicas\n");
  wait_phase("research", "chat-1", "Running");
  wait_ready(2, 2);

  const ProcessExit stopped = allotd_.stop();
  ASSERT_TRUE(stopped.exited && stopped.code == 0) << allotd_.stderr_text();
  ASSERT_EQ(allotd_.start(), "");
  ASSERT_EQ(api_.get("/readyz").status, 200);
  // Both replicas are requeued by the restart and run again; no third one appears.
  wait_ready(2, 2);
  EXPECT_TRUE(workload("research", "chat-2").is_null());

  const Reply deleted = api_.del(std::string(kEndpoints) + "/chat");
  ASSERT_EQ(deleted.status, 200) << deleted.describe();
  wait_gone("chat-0");
  wait_gone("chat-1");
}

}  // namespace
}  // namespace allot::server_test
