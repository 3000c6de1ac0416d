// `allot describe`'s texts for workloads, teams and nodes.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/output/human_time.h"
#include "cli/output/policy_description.h"
#include "cli/output/workload_description.h"

namespace allot::cli {
namespace {

using nlohmann::json;

TEST(WorkloadDescription, RunningWorkloadShowsSpecStatusPodsAndEvents) {
  const json workload = json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Workload",
      "metadata": {"name": "sweep", "namespace": "research", "uid": 17, "labels": {}},
      "spec": {"kind": "Job", "priorityClass": "batch",
               "podSets": [{"name": "main", "count": 1, "resources": {"gpu": 2}}],
               "command": ["python3", "sweep.py"], "maxRuntimeSeconds": 3600},
      "status": {"phase": "Running", "team": "research", "createdAt": "2026-11-30T05:00:00.000Z",
                 "queuedAt": "2026-11-30T05:00:00.000Z", "admittedAt": "2026-11-30T05:00:01.000Z",
                 "startedAt": "2026-11-30T05:00:02.000Z", "finishedAt": null,
                 "flavor": "h100", "podSets": [{"name": "main", "pods": [{"node": "gpu-0", "gpus": [0, 1]}]}],
                 "restarts": 0, "stopping": false, "preemptedBy": "", "exitCode": null,
                 "submittedBy": "ana", "reason": "Started", "message": "1 pod running"}})");
  const json events = json::parse(R"({"items": [
      {"sequence": 1, "time": "2026-11-30T05:00:00.000Z", "type": "Pending", "reason": "Created",
       "message": "queued in research"},
      {"sequence": 2, "time": "2026-11-30T05:00:02.000Z", "type": "Running", "reason": "Started",
       "message": "1 pod running"}]})");
  EXPECT_EQ(describe_workload(workload, events, *parse_api_time("2026-11-30T05:10:00Z")),
            "Name:            sweep\n"
            "Namespace:       research\n"
            "UID:             17\n"
            "Team:            research\n"
            "Submitted by:    ana\n"
            "Kind:            Job\n"
            "Priority class:  batch\n"
            "Command:         python3 sweep.py\n"
            "Max runtime:     3600s\n"
            "GPUs:            2\n"
            "Pod sets:\n"
            "  main: 1 pod(s) x gpu=2\n"
            "Status:\n"
            "  Phase:     Running\n"
            "  Reason:    Started\n"
            "  Message:   1 pod running\n"
            "  Flavor:    h100\n"
            "  Restarts:  0\n"
            "  Created:   2026-11-30T05:00:00.000Z\n"
            "  Queued:    2026-11-30T05:00:00.000Z\n"
            "  Admitted:  2026-11-30T05:00:01.000Z\n"
            "  Started:   2026-11-30T05:00:02.000Z\n"
            "Pods:\n"
            "  POD SET  POD  NODE   GPUS\n"
            "  main     0    gpu-0  0,1\n"
            "Events:\n"
            "  AGE    TYPE     REASON   MESSAGE\n"
            "  10m    Pending  Created  queued in research\n"
            "  9m58s  Running  Started  1 pod running\n");
}

TEST(WorkloadDescription, ShowsTheLastCheckpointAWorkloadReported) {
  const json workload = json::parse(R"({
      "metadata": {"name": "train", "namespace": "research", "uid": 4},
      "spec": {"podSets": [{"name": "main", "count": 1, "resources": {"gpu": 8}}],
               "checkpoint": {"env": "ALLOT_CHECKPOINT_DIR"}},
      "status": {"phase": "Running", "team": "research", "restarts": 1,
                 "lastCheckpointAt": "2026-11-30T05:00:02.000Z"}})");
  const std::string text = describe_workload(workload, json::object(), Timestamp());
  EXPECT_NE(text.find("  Restarts:         1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  Last checkpoint:  2026-11-30T05:00:02.000Z\n"), std::string::npos) << text;
}

TEST(WorkloadDescription, WaitingWorkloadShowsTheSchedulersExplanation) {
  const json workload = json::parse(R"({
      "metadata": {"name": "big", "namespace": "research", "uid": 3},
      "spec": {"podSets": [{"name": "main", "count": 8, "resources": {"gpu": 8}}]},
      "status": {"phase": "Pending", "team": "research",
                 "explanation": {"reason": "InsufficientQuota",
                                 "message": "needs 64 GPUs; research may use 16 more",
                                 "queuePosition": 2, "estimatedStart": "2026-11-30T07:00:00.000Z"}}})");
  const std::string text = describe_workload(workload, json::object(), Timestamp());
  EXPECT_NE(text.find("Waiting:\n"
                      "  Reason:           InsufficientQuota\n"
                      "  Message:          needs 64 GPUs; research may use 16 more\n"
                      "  Queue position:   2\n"
                      "  Estimated start:  2026-11-30T07:00:00.000Z\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Pods:  <none>\n"), std::string::npos);
  EXPECT_NE(text.find("Events:  <none>\n"), std::string::npos);
  EXPECT_NE(text.find("GPUs:            64\n"), std::string::npos);
  // Stored before submitters were recorded: no line rather than "<none>".
  EXPECT_EQ(text.find("Submitted by"), std::string::npos) << text;
}

TEST(WorkloadDescription, UnknownEstimatedStartSaysSo) {
  const json workload = json::parse(R"({"metadata": {"name": "w", "namespace": "n"},
      "status": {"phase": "Pending", "explanation": {"reason": "R", "message": "M",
                 "queuePosition": 1, "estimatedStart": null}}})");
  EXPECT_NE(describe_workload(workload, json::object(), Timestamp())
                .find("  Estimated start:  unknown\n"),
            std::string::npos);
}

TEST(WorkloadDescription, CommandsAreQuotedAsAShellWouldNeedThem) {
  const json workload = json::parse(R"({"metadata": {"name": "w", "namespace": "n"},
      "spec": {"command": ["sh", "-c", "echo it's $HOME", "--lr=0.1", ""]}})");
  EXPECT_NE(describe_workload(workload, json::object(), Timestamp())
                .find("Command:         sh -c 'echo it'\\''s $HOME' --lr=0.1 ''\n"),
            std::string::npos)
      << describe_workload(workload, json::object(), Timestamp());
}

TEST(PolicyDescription, TeamShowsQuotaAndUsage) {
  const json team = json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Team", "metadata": {"name": "research"},
      "spec": {"cohort": "org", "quota": [{"flavor": "h100", "resources": {
                   "gpu": {"nominal": 8, "borrowingLimit": 8}}}]},
      "status": {"pending": 3, "admitted": 2, "quota": [
          {"flavor": "h100", "resource": "gpu", "nominal": 8, "usage": 12, "borrowed": 4, "lent": 0}]}})");
  EXPECT_EQ(describe_team(team),
            "Name:               research\n"
            "Namespace:          research\n"
            "Cohort:             org\n"
            "Fair share weight:  1\n"
            "Priority classes:   <any>\n"
            "Quota:\n"
            "  FLAVOR  RESOURCE  NOMINAL  BORROWINGLIMIT  LENDINGLIMIT\n"
            "  h100    gpu       8        8               <none>\n"
            "Pending workloads:   3\n"
            "Admitted workloads:  2\n"
            "Usage:\n"
            "  FLAVOR  RESOURCE  NOMINAL  USAGE  BORROWED  LENT\n"
            "  h100    gpu       8        12     4         0\n");
}

TEST(PolicyDescription, TeamUsageRowsMayNestResourcesUnderFlavors) {
  const json team = json::parse(R"({"metadata": {"name": "t"}, "spec": {},
      "status": {"flavors": [{"flavor": "h100", "resources": {
          "gpu": {"nominal": 8, "usage": 2, "borrowed": 0, "lent": 1}}}]}})");
  EXPECT_NE(describe_team(team).find("  h100    gpu       8        2      0         1\n"),
            std::string::npos)
      << describe_team(team);
}

TEST(PolicyDescription, NodeShowsResourcesAndWorkloads) {
  const json node = json::parse(R"({"name": "gpu-0", "pool": "p", "flavor": "h100",
      "rack": "rack-0", "block": "block-0", "capacity": {"gpu": 8, "cpu": 96, "memory": "1Ti"},
      "allocated": {"gpu": 2, "cpu": 8, "memory": "64Gi"}, "healthy": true, "cordoned": false,
      "reason": "", "workloads": ["research/sweep"]})");
  EXPECT_EQ(describe_node(node),
            "Name:      gpu-0\n"
            "Pool:      p\n"
            "Flavor:    h100\n"
            "Rack:      rack-0\n"
            "Block:     block-0\n"
            "Healthy:   true\n"
            "Cordoned:  false\n"
            "Resources:\n"
            "  RESOURCE  CAPACITY  ALLOCATED\n"
            "  gpu       8         2\n"
            "  cpu       96        8\n"
            "  memory    1Ti       64Gi\n"
            "Workloads:\n"
            "  research/sweep\n");
}

// On Slurm: Slurm's view of the job beside allot's status and pods, and the
// node's Slurm state beside allot's health.
TEST(WorkloadDescription, ShowsSlurmsViewOfTheJob) {
  const json workload = json::parse(R"({"metadata": {"name": "w", "namespace": "n"},
      "spec": {"command": ["sleep", "1"], "podSets": []},
      "status": {"phase": "Running", "backend": {"kind": "slurm", "jobId": "4711",
                 "state": "RUNNING", "reason": "None", "nodes": "node[1-2]"}}})");
  const std::string text = describe_workload(workload, json::object(), Timestamp());
  EXPECT_NE(text.find("Slurm:\n"
                      "  Job id:  4711\n"
                      "  State:   RUNNING\n"
                      "  Reason:  None\n"
                      "  Nodes:   node[1-2]\n"),
            std::string::npos)
      << text;
}

// A job Slurm runs elsewhere than allot placed it: allot's placement beside
// Slurm's nodes.
TEST(WorkloadDescription, ShowsWhereAllotPlacedAJobSlurmRunsElsewhere) {
  const json workload = json::parse(R"({"metadata": {"name": "w", "namespace": "n"},
      "spec": {"command": ["sleep", "1"], "podSets": []},
      "status": {"phase": "Running", "backend": {"kind": "slurm", "jobId": "4711",
                 "state": "RUNNING", "reason": "None", "nodes": "node2",
                 "placedNodes": "node1"}}})");
  const std::string text = describe_workload(workload, json::object(), Timestamp());
  EXPECT_NE(text.find("Slurm:\n"
                      "  Job id:           4711\n"
                      "  State:            RUNNING\n"
                      "  Reason:           None\n"
                      "  Nodes:            node2\n"
                      "  Placed by allot:  node1\n"),
            std::string::npos)
      << text;
}

TEST(PolicyDescription, NodeShowsItsHealthHistoryNewestFirst) {
  const json node = json::parse(R"({"name": "gpu-0", "healthy": true, "cordoned": false,
      "healthHistory": [{"at": "2026-12-03T10:05:00.000Z", "healthy": true, "reason": ""},
                        {"at": "2026-12-03T10:00:00.000Z", "healthy": false, "reason": "Xid 79"}]})");
  const std::string text = describe_node(node);
  EXPECT_NE(text.find("Health history:\n"
                      "  AT                        HEALTH     REASON\n"
                      "  2026-12-03T10:05:00.000Z  healthy\n"
                      "  2026-12-03T10:00:00.000Z  unhealthy  Xid 79\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(
      describe_node(json::parse(R"({"name": "n", "healthHistory": []})")).find("Health history"),
      std::string::npos);
}

TEST(PolicyDescription, NodeOnSlurmShowsSlurmsStateAndReason) {
  const json node = json::parse(R"({"name": "node1", "healthy": false, "cordoned": true,
      "reason": "down in the backend: fan", "backend": {"state": "DOWN*", "reason": "fan"}})");
  const std::string text = describe_node(node);
  EXPECT_NE(text.find("Backend state:   DOWN*\n"), std::string::npos) << text;
  EXPECT_NE(text.find("Backend reason:  fan\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace allot::cli
