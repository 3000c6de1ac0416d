// The pure renderings of the client verbs: tables, apply lines, YAML, times.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/output/apply_output.h"
#include "cli/output/human_time.h"
#include "cli/output/json_yaml.h"
#include "cli/output/object_tables.h"
#include "cli/output/text_table.h"
#include "cli/output/top_table.h"

namespace allot::cli {
namespace {

using nlohmann::json;

Timestamp at(const char* text) { return *parse_api_time(text); }

std::vector<json> two_workloads() {
  return {json::parse(R"({
      "metadata": {"name": "sweep", "namespace": "research", "uid": 17},
      "spec": {"priorityClass": "batch",
               "podSets": [{"name": "main", "count": 2, "resources": {"gpu": "4"}}]},
      "status": {"phase": "Running", "team": "research", "createdAt": "2026-11-30T05:00:00.000Z",
                 "flavor": "h100", "restarts": 1, "reason": "Started", "submittedBy": "ana",
                 "podSets": [{"name": "main", "pods": [{"node": "gpu-0", "gpus": [0, 1, 2, 3]},
                                                       {"node": "gpu-1", "gpus": [0, 1, 2, 3]}]}]}})"),
          json::parse(R"({
      "metadata": {"name": "tiny", "namespace": "llm", "uid": 18},
      "spec": {"podSets": [{"count": 1, "resources": {"cpu": "1"}}]},
      "status": {"phase": "Pending", "team": "llm", "createdAt": "2026-11-30T04:00:00Z"}})")};
}

TEST(ObjectTables, WorkloadsShowPhaseGpusAndAge) {
  EXPECT_EQ(
      objects_table(ResourceKind::kWorkload, two_workloads(), false, at("2026-11-30T05:05:30Z")),
      "NAME   NAMESPACE  TEAM      PHASE    GPUS  AGE\n"
      "sweep  research   research  Running  8     5m30s\n"
      "tiny   llm        llm       Pending  0     65m\n");
}

TEST(ObjectTables, WideWorkloadsAddUserPriorityFlavorNodesRestartsAndReason) {
  EXPECT_EQ(
      objects_table(ResourceKind::kWorkload, two_workloads(), true, at("2026-11-30T05:05:30Z")),
      "NAME   NAMESPACE  TEAM      PHASE    GPUS  AGE    USER    PRIORITY  FLAVOR  NODES        "
      "RESTARTS  REASON\n"
      "sweep  research   research  Running  8     5m30s  ana     batch     h100    gpu-0,gpu-1  "
      "1         Started\n"
      "tiny   llm        llm       Pending  0     65m    <none>  <none>    <none>  <none>       "
      "0         <none>\n");
}

TEST(ObjectTables, NodesShowStatusAndGpuUse) {
  const std::vector<json> nodes = {json::parse(R"({
      "name": "gpu-0", "pool": "h100-pool", "flavor": "h100", "rack": "rack-0", "block": "block-0",
      "capacity": {"gpu": 8, "cpu": "96", "memory": "1Ti"}, "allocated": {"gpu": 6},
      "healthy": true, "cordoned": true, "reason": "", "workloads": ["research/sweep"]})")};
  EXPECT_EQ(objects_table(ResourceKind::kNode, nodes, false, Timestamp()),
            "NAME   POOL       FLAVOR  STATUS                    GPUS  WORKLOADS\n"
            "gpu-0  h100-pool  h100    Ready,SchedulingDisabled  6/8   1\n");
  EXPECT_EQ(objects_table(ResourceKind::kNode, nodes, true, Timestamp()),
            "NAME   POOL       FLAVOR  STATUS                    GPUS  WORKLOADS  RACK    BLOCK    "
            "CPU   MEMORY  REASON\n"
            "gpu-0  h100-pool  h100    Ready,SchedulingDisabled  6/8   1          rack-0  block-0  "
            "0/96  0/1Ti   <none>\n");
}

// On Slurm (status.backend): -o wide adds the job id; the plain table does
// not change.
TEST(ObjectTables, WideWorkloadsOnSlurmAddTheJobId) {
  std::vector<json> workloads = two_workloads();
  workloads[0]["status"]["backend"] = {{"kind", "slurm"},
                                       {"jobId", "4711"},
                                       {"state", "RUNNING"},
                                       {"reason", "None"},
                                       {"nodes", "gpu-[0-1]"}};

  const std::string wide =
      objects_table(ResourceKind::kWorkload, workloads, true, at("2026-11-30T05:05:30Z"));
  EXPECT_EQ(
      wide.substr(0, wide.find('\n')),
      "NAME   NAMESPACE  TEAM      PHASE    GPUS  AGE    USER    PRIORITY  FLAVOR  NODES        "
      "RESTARTS  REASON   JOBID");
  EXPECT_NE(wide.find("1         Started  4711\n"), std::string::npos) << wide;
  EXPECT_NE(wide.find("0         <none>   <none>\n"), std::string::npos) << wide;
  EXPECT_EQ(
      objects_table(ResourceKind::kWorkload, workloads, false, at("2026-11-30T05:05:30Z")),
      objects_table(ResourceKind::kWorkload, two_workloads(), false, at("2026-11-30T05:05:30Z")));
}

// On Slurm (the node's `backend`): Slurm's state and reason beside allot's.
TEST(ObjectTables, NodesOnSlurmShowSlurmsStateBesideAllotsStatus) {
  const std::vector<json> nodes = {
      json::parse(R"({"name": "node1", "pool": "h100-nodes", "flavor": "h100",
      "capacity": {"gpu": 8}, "allocated": {"gpu": 2}, "healthy": true, "cordoned": false,
      "workloads": ["a/b"], "backend": {"state": "MIXED", "reason": ""}})"),
      json::parse(R"({"name": "node2", "pool": "h100-nodes", "flavor": "h100",
      "capacity": {"gpu": 8}, "healthy": false, "cordoned": true, "workloads": [],
      "backend": {"state": "DOWN*", "reason": "fan"}})")};
  EXPECT_EQ(
      objects_table(ResourceKind::kNode, nodes, false, Timestamp()),
      "NAME   POOL        FLAVOR  STATUS                       GPUS  WORKLOADS  BACKEND\n"
      "node1  h100-nodes  h100    Ready                        2/8   1          MIXED\n"
      "node2  h100-nodes  h100    NotReady,SchedulingDisabled  0/8   0          DOWN* (fan)\n");
}

TEST(ObjectTables, BudgetsShowSpentUsedAndTheDayTheyRunOut) {
  const std::vector<json> budgets = {
      json::parse(R"({"apiVersion": "allot/v1", "kind": "Budget", "metadata": {"name": "rm"},
          "spec": {"team": "research", "period": "monthly", "amount": 48, "currency": "EUR",
                   "action": "stopAdmission"},
          "status": {"from": "2027-01-01T00:00:00.000Z", "to": "2027-02-01T00:00:00.000Z",
                     "spent": 24, "used": 0.5, "runsOut": "2027-01-29T22:00:00.000Z"}})"),
      json::parse(R"({"apiVersion": "allot/v1", "kind": "Budget", "metadata": {"name": "q1"},
          "spec": {"team": "prod", "period": {"from": "2027-01-01T00:00:00Z",
                   "to": "2027-04-01T00:00:00Z"}, "amount": 900, "currency": "EUR"}})")};
  EXPECT_EQ(objects_table(ResourceKind::kBudget, budgets, false, Timestamp()),
            "NAME  TEAM      PERIOD   AMOUNT   SPENT   USED    ACTION         RUNSOUT\n"
            "rm    research  monthly  48 EUR   24.00   50%     stopAdmission  2027-01-29\n"
            "q1    prod      fixed    900 EUR  <none>  <none>  alert          <none>\n");
}

TEST(ObjectTables, AProjectBudgetNamesItsProjectInTheTeamColumn) {
  const std::vector<json> budgets = {json::parse(
      R"({"apiVersion": "allot/v1", "kind": "Budget", "metadata": {"name": "vb"},
          "spec": {"project": "vision", "period": "weekly", "amount": 10, "currency": "EUR"}})")};
  EXPECT_EQ(objects_table(ResourceKind::kBudget, budgets, false, Timestamp()),
            "NAME  TEAM            PERIOD  AMOUNT  SPENT   USED    ACTION  RUNSOUT\n"
            "vb    project vision  weekly  10 EUR  <none>  <none>  alert   <none>\n");
}

TEST(ObjectTables, SignalsShowStateSinceWhenOwnerAndFor) {
  const std::vector<json> signals = {
      json::parse(R"({"apiVersion": "allot/v1", "kind": "Signal", "metadata": {"name": "node-down"},
          "spec": {"expression": "allot_node_healthy == 0", "for": "5m", "owner": "oncall",
                   "response": {"text": "drain"}, "webhook": "https://hooks.example/a"},
          "status": {"state": "firing", "since": "2027-01-01T00:00:00.000Z",
                     "series": ["node=n1"], "firingSeries": "node=n1",
                     "undeliveredEvents": 0}})"),
      json::parse(R"({"apiVersion": "allot/v1", "kind": "Signal", "metadata": {"name": "new"},
          "spec": {"expression": "allot_team_usage > 1", "owner": "ml",
                   "response": {"text": "look"}}})")};
  const Timestamp now = *parse_api_time("2027-01-01T00:30:00Z");
  EXPECT_EQ(objects_table(ResourceKind::kSignal, signals, false, now),
            "NAME       STATE   SINCE   OWNER   FOR\n"
            "node-down  firing  30m     oncall  5m\n"
            "new        <none>  <none>  ml      <none>\n");
  EXPECT_NE(objects_table(ResourceKind::kSignal, signals, true, now)
                .find("allot_node_healthy == 0  node=n1  https://hooks.example/a"),
            std::string::npos);
}

TEST(ObjectTables, TeamsSummariseTheirQuota) {
  const std::vector<json> teams = {json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Team", "metadata": {"name": "research"},
      "spec": {"cohort": "org", "quota": [
          {"flavor": "h100", "resources": {"gpu": {"nominal": 8}, "cpu": {"nominal": 64}}},
          {"flavor": "a100", "resources": {"gpu": {"nominal": 4}}}]}})")};
  EXPECT_EQ(objects_table(ResourceKind::kTeam, teams, false, Timestamp()),
            "NAME      NAMESPACE  COHORT  QUOTA\n"
            "research  research   org     h100: cpu=64 gpu=8; a100: gpu=4\n");
}

TEST(ObjectTables, PriorityClassesDefaultTheirPolicy) {
  const std::vector<json> classes = {
      json::parse(R"({"metadata": {"name": "batch"}, "spec": {"value": 100}})"),
      json::parse(R"({"metadata": {"name": "prod"},
                      "spec": {"value": 1000, "preemptionPolicy": "Never"}})")};
  EXPECT_EQ(objects_table(ResourceKind::kPriorityClass, classes, false, Timestamp()),
            "NAME   VALUE  PREEMPTION\n"
            "batch  100    PreemptLowerPriority\n"
            "prod   1000   Never\n");
}

TEST(TopTable, OneRowPerTeamFlavorAndResource) {
  const json answer = json::parse(R"({"teams": [
      {"team": "research", "cohort": "org", "flavor": "h100", "resource": "gpu", "nominal": 8,
       "usage": 12, "borrowed": 4, "lent": 0, "pending": 3, "admitted": 2},
      {"team": "llm", "cohort": "org", "flavor": "h100", "resource": "gpu", "nominal": 8,
       "usage": 4, "borrowed": 0, "lent": 4, "pending": 0, "admitted": 1}]})");
  EXPECT_EQ(
      top_table(answer),
      "TEAM      COHORT  FLAVOR  RESOURCE  NOMINAL  USAGE  BORROWED  LENT  PENDING  ADMITTED\n"
      "research  org     h100    gpu       8        12     4         0     3        2\n"
      "llm       org     h100    gpu       8        4      0         4     0        1\n");
  EXPECT_EQ(filter_top(answer, "llm")["teams"].size(), 1U);
  EXPECT_EQ(filter_top(answer, "llm")["teams"][0]["team"], "llm");
}

TEST(ApplyOutput, OneLinePerChangeWithIndentedDiffs) {
  const json answer = json::parse(R"({"dryRun": false, "changes": [
      {"kind": "Team", "name": "research", "namespace": "", "action": "configured",
       "diff": "spec.quota[0].resources.gpu.nominal: 8 -> 16\nspec.cohort: a -> b"},
      {"kind": "Workload", "name": "sweep", "namespace": "research", "action": "created",
       "diff": ""},
      {"kind": "PriorityClass", "name": "batch", "namespace": "", "action": "unchanged",
       "diff": ""}]})");
  EXPECT_EQ(apply_summary(answer),
            "team.allot/research configured\n"
            "    spec.quota[0].resources.gpu.nominal: 8 -> 16\n"
            "    spec.cohort: a -> b\n"
            "workload.allot/sweep created\n"
            "priorityclass.allot/batch unchanged\n");
}

TEST(ApplyOutput, DryRunsSaySo) {
  const json answer = json::parse(R"({"dryRun": true, "changes": [
      {"kind": "Cohort", "name": "org", "namespace": "", "action": "created", "diff": ""}]})");
  EXPECT_EQ(apply_summary(answer), "cohort.allot/org created (dry run)\n");
}

TEST(JsonYaml, StringsThatWouldChangeTypeAreQuoted) {
  const json value = json::parse(R"({"name": "sweep", "gpu": "8", "flag": "true", "empty": "",
      "count": 2, "ratio": 0.5, "on": true, "none": null, "list": [1, "no"], "map": {}})");
  EXPECT_EQ(json_to_yaml(value),
            "count: 2\n"
            "empty: \"\"\n"
            "flag: \"true\"\n"
            "gpu: \"8\"\n"
            "list:\n"
            "  - 1\n"
            "  - \"no\"\n"
            "map: {}\n"
            "name: sweep\n"
            "none: null\n"
            "\"on\": true\n"
            "ratio: 0.5\n");
}

TEST(HumanTime, ParsesApiTimes) {
  EXPECT_EQ(parse_api_time("1970-01-01T00:00:01.500Z")->ms(), 1500);
  EXPECT_EQ(parse_api_time("1970-01-01T02:00:00+02:00")->ms(), 0);
  EXPECT_EQ(parse_api_time("2026-11-30T05:00:00Z")->ms(), 1'796'014'800'000);
  EXPECT_EQ(parse_api_time("2026-11-30T05:00:00.123456789Z")->ms(), 1'796'014'800'123);
  EXPECT_FALSE(parse_api_time("2026-02-30T05:00:00Z"));
  EXPECT_FALSE(parse_api_time("2026-11-30 05:00:00Z"));
  EXPECT_FALSE(parse_api_time("2026-11-30T05:00:00"));
  EXPECT_FALSE(parse_api_time(""));
}

TEST(HumanTime, AgesAreShortenedLikeKubectl) {
  EXPECT_EQ(format_age(Duration::seconds(45)), "45s");
  EXPECT_EQ(format_age(Duration::seconds(119)), "119s");
  EXPECT_EQ(format_age(Duration::seconds(312)), "5m12s");
  EXPECT_EQ(format_age(Duration::minutes(5)), "5m");
  EXPECT_EQ(format_age(Duration::minutes(150)), "150m");
  EXPECT_EQ(format_age(Duration::minutes(200)), "3h20m");
  EXPECT_EQ(format_age(Duration::hours(30)), "30h");
  EXPECT_EQ(format_age(Duration::hours(52)), "2d4h");
  EXPECT_EQ(format_age(Duration::hours(24 * 30)), "30d");
  EXPECT_EQ(format_age(Duration::hours(24 * 800)), "2y70d");
  EXPECT_EQ(format_age(Duration::seconds(-5)), "0s");
}

TEST(TextTable, LeftAlignmentAlignsEveryColumnLeft) {
  TextTable table({"NAME", "GPUS"}, TextTable::Alignment::kLeft);
  table.add_row({"sweep", "12"});
  table.add_row({"a", "1"});
  EXPECT_EQ(table.render(), "NAME   GPUS\nsweep  12\na      1\n");
}

}  // namespace
}  // namespace allot::cli
