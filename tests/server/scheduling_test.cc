// Scheduling against a real allotd: reclaim by preemption, node health
// checks that requeue work, and the node operations cordon, drain, uncordon.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

class SchedulingTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
  }

  nlohmann::json node(const std::string& name) {
    const Reply reply = api_.get("/api/v1/nodes/" + name);
    EXPECT_EQ(reply.status, 200) << reply.describe();
    return reply.json;
  }

  // Polls the node until `done` holds for it; a failure naming `what` if not.
  nlohmann::json wait_node(const std::string& name,
                           const std::function<bool(const nlohmann::json&)>& done,
                           const std::string& what) {
    nlohmann::json last;
    if (!eventually([&] {
          last = api_.get("/api/v1/nodes/" + name).json;
          return last.is_object() && done(last);
        })) {
      ADD_FAILURE() << "node " << name << " never got " << what << "; last seen: " << last.dump()
                    << "\nallotd stderr: " << allotd_.stderr_text();
    }
    return last;
  }

  static std::string node_of(const nlohmann::json& workload) {
    const nlohmann::json& pod_sets = workload["status"]["podSets"];
    if (pod_sets.empty() || pod_sets[0]["pods"].empty()) return "";
    return pod_sets[0]["pods"][0]["node"];
  }

  // A job of one pod with all 4 GPUs of a node that runs until stopped.
  static WorkloadSpec whole_node(const std::string& priority = "low") {
    return {.script = "exec sleep 1000", .gpus = 4, .pods = 1, .priority = priority};
  }

  Reply node_action(const std::string& name, const std::string& verb) {
    return api_.post("/api/v1/nodes/" + name + "/" + verb);
  }
};

TEST_F(SchedulingTest, OwnerReclaimsBorrowedGpusByPreemptingTheBorrower) {
  // research (8 GPUs) borrows prod's 4 with a gang over all 12 GPUs.
  submit("research", "sweep", {.script = "exec sleep 1000", .gpus = 4, .pods = 3});
  wait_phase("research", "sweep", "Running");
  bool lent = false;
  const Reply top = api_.get("/api/v1/top");
  for (const auto& row : top.json["teams"]) {
    if (row["team"] == "research") {
      EXPECT_EQ(row["borrowed"], "4") << row;
    }
    if (row["team"] == "prod") lent = row["lent"] == "4";
  }
  EXPECT_TRUE(lent) << top.body;

  // prod asks for its own 4 GPUs at a higher priority.
  submit("prod", "urgent", whole_node("high"));

  const nlohmann::json sweep = wait_until(
      "research", "sweep",
      [](const nlohmann::json& w) { return w["status"].value("restarts", 0) == 1; },
      "a preemption");
  EXPECT_EQ(sweep["status"]["preemptedBy"], "prod/urgent") << sweep;
  wait_phase("prod", "urgent", "Running");

  const nlohmann::json waiting = workload("research", "sweep");
  const std::string phase = phase_of(waiting);
  EXPECT_TRUE(phase == "Preempted" || phase == "Pending") << waiting;
  ASSERT_TRUE(waiting["status"].contains("explanation")) << waiting;
  EXPECT_FALSE(waiting["status"]["explanation"].value("message", "").empty()) << waiting;
  const std::vector<std::string> types = wait_event("research", "sweep", "Preempted");
  EXPECT_EQ(std::count(types.begin(), types.end(), "Preempted"), 1);
}

class NodeHealthTest : public SchedulingTest {
 protected:
  std::vector<std::string> allotd_flags() override {
    return {"--health-check",    "test ! -e " + shell_quote(temp_file("fail-")) + "\"$ALLOT_NODE\"",
            "--health-interval", "200ms",
            "--health-timeout",  "5s"};
  }
};

TEST_F(NodeHealthTest, UnhealthyNodeIsCordonedAndItsWorkRunsElsewhere) {
  submit("research", "job", whole_node());
  const nlohmann::json running = wait_phase("research", "job", "Running");
  const std::string sick = node_of(running);
  ASSERT_FALSE(sick.empty()) << running;
  EXPECT_TRUE(node(sick)["healthy"].get<bool>());

  touch(temp_file("fail-" + sick));
  const nlohmann::json down = wait_node(
      sick, [](const nlohmann::json& n) { return !n["healthy"].get<bool>(); }, "unhealthy");
  EXPECT_TRUE(down["cordoned"].get<bool>()) << down;

  const nlohmann::json moved = wait_until(
      "research", "job",
      [&](const nlohmann::json& w) {
        return w["status"].value("restarts", 0) == 1 && phase_of(w) == "Running";
      },
      "a restart on another node");
  EXPECT_NE(node_of(moved), sick) << moved;
  EXPECT_FALSE(node_of(moved).empty()) << moved;

  std::filesystem::remove(temp_file("fail-" + sick));
  const nlohmann::json up = wait_node(
      sick,
      [](const nlohmann::json& n) {
        return n["healthy"].get<bool>() && !n["cordoned"].get<bool>();
      },
      "healthy and uncordoned");
  EXPECT_EQ(up["reason"], "") << up;
}

// Issue 16: a node's page shows its health history (GET /api/v1/nodes/NAME,
// `healthHistory`, newest first), which a restart keeps.
TEST_F(NodeHealthTest, ANodesHealthChangesAreItsHistoryAndOutliveARestart) {
  EXPECT_EQ(node("node-1")["healthHistory"], nlohmann::json::array()) << "no change yet";
  touch(temp_file("fail-node-1"));
  wait_node(
      "node-1", [](const nlohmann::json& n) { return !n["healthy"].get<bool>(); }, "unhealthy");
  std::filesystem::remove(temp_file("fail-node-1"));
  const nlohmann::json up = wait_node(
      "node-1", [](const nlohmann::json& n) { return n["healthy"].get<bool>(); }, "healthy");

  const nlohmann::json& history = up["healthHistory"];
  ASSERT_EQ(history.size(), 2U) << up;
  EXPECT_TRUE(history[0]["healthy"].get<bool>()) << "newest first: " << history;
  EXPECT_EQ(history[0]["reason"], "");
  EXPECT_FALSE(history[1]["healthy"].get<bool>()) << history;
  EXPECT_LE(history[1]["at"].get<std::string>(), history[0]["at"].get<std::string>());
  EXPECT_EQ(node("node-0")["healthHistory"], nlohmann::json::array());
  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(node("node-1")["healthHistory"], history) << "stored with the node's condition";
}

TEST_F(SchedulingTest, CordonDrainAndUncordonMoveWork) {
  ASSERT_EQ(node_action("node-0", "cordon").status, 200);
  const Reply cordoned = node_action("node-1", "cordon");
  ASSERT_EQ(cordoned.status, 200) << cordoned.describe();
  EXPECT_TRUE(cordoned.json["cordoned"].get<bool>());

  // Only node-2 takes new work.
  submit("research", "a", whole_node());
  EXPECT_EQ(node_of(wait_phase("research", "a", "Running")), "node-2");
  submit("research", "b", whole_node());
  const nlohmann::json b = workload("research", "b");
  EXPECT_EQ(phase_of(b), "Pending") << b;
  EXPECT_TRUE(node("node-0")["workloads"].empty());

  ASSERT_EQ(node_action("node-0", "uncordon").status, 200);
  EXPECT_EQ(node_of(wait_phase("research", "b", "Running")), "node-0");

  // Draining node-2 requeues `a`; it waits until node-1 takes work again.
  const Reply drained = node_action("node-2", "drain");
  ASSERT_EQ(drained.status, 200) << drained.describe();
  EXPECT_TRUE(drained.json["cordoned"].get<bool>());
  const nlohmann::json requeued = wait_until(
      "research", "a",
      [](const nlohmann::json& w) { return w["status"].value("restarts", 0) == 1; }, "a requeue");
  EXPECT_NE(phase_of(requeued), "Running") << requeued;
  EXPECT_TRUE(wait_node(
                  "node-2", [](const nlohmann::json& n) { return n["workloads"].empty(); },
                  "no workloads")["workloads"]
                  .empty());

  ASSERT_EQ(node_action("node-1", "uncordon").status, 200);
  EXPECT_EQ(node_of(wait_phase("research", "a", "Running")), "node-1");
  EXPECT_EQ(node("node-1")["workloads"], (nlohmann::json{"research/a"}));
}

// Issue 10, item 12: GET /api/v1/nodes answered every node at once (695 MB
// for 2,000,000 nodes) and scanned every workload once per node.
TEST_F(SchedulingTest, NodesComeInPagesThatShowTheirWork) {
  submit("research", "a", whole_node());
  const std::string placed = node_of(wait_phase("research", "a", "Running"));

  const Reply first = api_.get("/api/v1/nodes?limit=2");
  ASSERT_EQ(first.status, 200) << first.describe();
  ASSERT_EQ(first.json["items"].size(), 2u);
  ASSERT_EQ(first.json["continue"], "2");
  const Reply second = api_.get("/api/v1/nodes?limit=2&continue=2");
  ASSERT_EQ(second.status, 200) << second.describe();
  ASSERT_EQ(second.json["items"].size(), 1u);
  EXPECT_FALSE(second.json.contains("continue"));

  std::vector<std::string> names;
  for (const Reply* page : {&first, &second}) {
    for (const nlohmann::json& item : page->json["items"]) {
      names.push_back(item["name"]);
      const bool here = item["name"] == placed;
      EXPECT_EQ(item["workloads"], here ? nlohmann::json{"research/a"} : nlohmann::json::array());
      EXPECT_EQ(item["allocated"].value("gpu", "0"), here ? "4" : "0") << item;
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"node-0", "node-1", "node-2"}));
  EXPECT_EQ(api_.get("/api/v1/nodes?limit=0").status, 400);
  EXPECT_EQ(api_.get("/api/v1/nodes?limit=10001").status, 400);
  EXPECT_EQ(api_.get("/api/v1/nodes?continue=x").status, 400);
  EXPECT_TRUE(api_.get("/api/v1/nodes?continue=9").json["items"].empty());
}

TEST_F(SchedulingTest, UnknownNodeIs404) {
  const Reply get = api_.get("/api/v1/nodes/node-9");
  EXPECT_EQ(get.status, 404) << get.describe();
  EXPECT_EQ(get.json["code"], "not_found");
  for (const char* verb : {"cordon", "drain", "uncordon"}) {
    const Reply reply = node_action("node-9", verb);
    EXPECT_EQ(reply.status, 404) << verb << ": " << reply.describe();
    EXPECT_EQ(reply.json["code"], "not_found") << verb;
  }
}

}  // namespace
}  // namespace allot::server_test
