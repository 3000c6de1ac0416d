// CPU autoscaling of an InferenceEndpoint in allotd's control plane
// (service/control/endpoint_autoscale.h, docs/endpoints.md): a recording
// executor whose CPU readings the test scripts and a manual clock. The
// replicas' CPU use, read every 15 s, scales the endpoint up at once and
// down only after the scale-down window; a replica read once gives no
// reading; the scale route's readings share the window.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

// Replicas of 2 CPUs and 1 GPU each, aiming at 50% CPU use.
constexpr const char* kChat = R"(apiVersion: allot/v1
kind: Workload
metadata: {name: chat, namespace: research}
spec:
  kind: InferenceEndpoint
  priorityClass: low
  replicas: {min: 1, max: 4}
  scaleOn: cpu
  target: 50
  podSets: [{count: 1, resources: {gpu: 1, cpu: 2}}]
  command: [/bin/true]
)";

constexpr int64_t kTwoCoresForFifteenSeconds = 30'000'000;  // CPU microseconds

class EndpointAutoscaleTest : public ControlPlaneTest {
 protected:
  void SetUp() override {
    apply_policy();
    submit(kChat, "research");
    pass();  // creates chat-0
    pass();  // admits and launches it
    ASSERT_EQ(phase("research", "chat-0"), "Running");
  }

  void pass() { plane_->loop().run_once(); }

  // Every 15 s: each running replica's CPU time grows by `percent` of its
  // 2 cores over those 15 s, then the loop runs.
  void fifteen_seconds_at(int percent) {
    clock_.advance(kCpuReadEvery);
    for (int32_t i = 0; i < 4; ++i) {
      const uint64_t id = replica_uid(i);
      if (id == 0 || phase("research", "chat-" + std::to_string(i)) != "Running") continue;
      cpu_[id] += kTwoCoresForFifteenSeconds * percent / 100;
      executor_.set_activity(id, {.cpu_micros = cpu_[id], .heartbeat = std::nullopt});
    }
    pass();
    pass();  // reconcile and launch what the new count asks for
  }

  uint64_t replica_uid(int32_t index) {
    const Result<nlohmann::json> view =
        calls_->get_workload("research", "chat-" + std::to_string(index));
    return view.ok() ? (*view)["metadata"]["uid"].get<uint64_t>() : 0;
  }

  int desired() {
    const Result<nlohmann::json> view = calls_->get_workload("research", "chat");
    EXPECT_TRUE(view.ok());
    return view.ok() ? (*view)["status"]["replicas"]["desired"].get<int>() : -1;
  }

  std::string last_scaled_message() {
    const Result<nlohmann::json> events = calls_->workload_events("research", "chat");
    std::string message;
    if (!events.ok()) return events.status().to_string();
    for (const auto& event : (*events)["items"]) {
      if (event["reason"] == "Scaled") message = event["message"];
    }
    return message;
  }

  std::map<uint64_t, int64_t> cpu_;
};

TEST_F(EndpointAutoscaleTest, BusyReplicasScaleTheEndpointUpAtOnce) {
  executor_.set_activity(replica_uid(0), {.cpu_micros = 0, .heartbeat = std::nullopt});
  fifteen_seconds_at(90);  // the first reading of chat-0: nothing to compare yet
  fifteen_seconds_at(90);
  EXPECT_EQ(desired(), 2) << "ceil(1 replica x 90% / 50%)";
  EXPECT_EQ(last_scaled_message(),
            "desired replicas 1 -> 2 (CPU use 90% of the request, 1 replicas read)");
  EXPECT_EQ(phase("research", "chat-1"), "Running");
}

TEST_F(EndpointAutoscaleTest, QuietReplicasScaleDownOnlyAfterTheWindow) {
  executor_.set_activity(replica_uid(0), {.cpu_micros = 0, .heartbeat = std::nullopt});
  fifteen_seconds_at(90);
  fifteen_seconds_at(90);
  fifteen_seconds_at(90);   // chat-1 is read for the first time
  fifteen_seconds_at(120);  // two replicas at 120%: ceil(2 x 120 / 50) = 5, clamped to 4
  ASSERT_EQ(desired(), 4);
  // Quiet from now on: every reading recommends 1, but the window (300 s)
  // keeps the highest recommendation of its span.
  for (int i = 0; i < 19; ++i) fifteen_seconds_at(5);
  EXPECT_EQ(desired(), 4) << "285 s after the busy reading";
  fifteen_seconds_at(5);
  fifteen_seconds_at(5);
  EXPECT_EQ(desired(), 1);
  EXPECT_NE(last_scaled_message().find("4 -> 1"), std::string::npos) << last_scaled_message();
}

TEST_F(EndpointAutoscaleTest, AReadingPostedToTheScaleRouteSharesTheWindow) {
  executor_.set_activity(replica_uid(0), {.cpu_micros = 0, .heartbeat = std::nullopt});
  fifteen_seconds_at(90);  // the first reading of chat-0
  const Result<nlohmann::json> scaled =
      calls_->scale_workload("research", "chat", ScaleRequest{std::nullopt, 200.0});
  ASSERT_TRUE(scaled.ok()) << scaled.status().to_string();
  ASSERT_EQ(desired(), 4) << "ceil(1 x 200% / 50%)";
  fifteen_seconds_at(5);  // a quiet reading recommends 1; the route's 4 is in the window
  EXPECT_EQ(desired(), 4);
}

TEST_F(EndpointAutoscaleTest, WithoutReadingsNothingIsScaled) {
  for (int i = 0; i < 4; ++i) {
    clock_.advance(kCpuReadEvery);
    pass();
  }
  EXPECT_EQ(desired(), 1);
  EXPECT_EQ(last_scaled_message(), "");
}

}  // namespace
}  // namespace allot::testing
