// The command-line and URL pieces of the client verbs.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/client/api_paths.h"
#include "cli/client/workload_ref.h"
#include "cli/verbs/run_command.h"

namespace allot::cli {
namespace {

TEST(WorkloadRef, NameWithNamespaceFlagOrSlash) {
  EXPECT_EQ(*parse_workload_ref("sweep", "research"), (WorkloadRef{"research", "sweep"}));
  EXPECT_EQ(*parse_workload_ref("research/sweep", ""), (WorkloadRef{"research", "sweep"}));
  EXPECT_EQ(*parse_workload_ref("research/sweep", "research"), (WorkloadRef{"research", "sweep"}));
  EXPECT_FALSE(parse_workload_ref("sweep", "").ok());
  EXPECT_FALSE(parse_workload_ref("llm/sweep", "research").ok());
  EXPECT_FALSE(parse_workload_ref("research/", "").ok());
  EXPECT_FALSE(parse_workload_ref("a/b/c", "").ok());
}

TEST(ApiPaths, NamesAndQueriesAreEscaped) {
  EXPECT_EQ(workloads_path(""), "/api/v1/workloads");
  EXPECT_EQ(workloads_path("research"), "/api/v1/namespaces/research/workloads");
  EXPECT_EQ(workload_path("research", "sweep", "logs"),
            "/api/v1/namespaces/research/workloads/sweep/logs");
  EXPECT_EQ(cluster_object_path("teams", "a b"), "/api/v1/teams/a%20b");
  EXPECT_EQ(with_query("/p", {{"phase", "Pending,Running"}, {"team", ""}, {"continue", "x/y=="}}),
            "/p?phase=Pending%2CRunning&continue=x%2Fy%3D%3D");
  EXPECT_EQ(with_query("/p", {{"team", ""}}), "/p");
}

TEST(RunWorkload, BuildsAJobWithOnePodSet) {
  RunSpec spec;
  spec.team = "research";
  spec.gpus = 2;
  spec.cpu = "8";
  spec.memory = "64Gi";
  spec.count = 4;
  spec.priority_class = "batch";
  spec.name = "train";
  spec.max_runtime = "1h30m";
  spec.command = {"python3", "train.py", "--lr", "0.1"};
  EXPECT_EQ(*build_run_workload(spec), nlohmann::json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Workload",
      "metadata": {"name": "train", "namespace": "research"},
      "spec": {"kind": "Job", "priorityClass": "batch", "maxRuntimeSeconds": 5400,
               "command": ["python3", "train.py", "--lr", "0.1"],
               "podSets": [{"name": "main", "count": 4,
                            "resources": {"gpu": 2, "cpu": 8, "memory": "64Gi"}}]}})"));
}

TEST(RunWorkload, NamespaceOverridesTheTeamAndTheNameIsOptional) {
  RunSpec spec;
  spec.team = "research";
  spec.namespace_name = "research-ns";
  spec.gpus = 1;
  spec.command = {"true"};
  const nlohmann::json workload = *build_run_workload(spec);
  EXPECT_EQ(workload["metadata"], nlohmann::json::parse(R"({"namespace": "research-ns"})"));
  EXPECT_FALSE(workload["spec"].contains("maxRuntimeSeconds"));
}

TEST(RunWorkload, RejectsWhatAllotdWouldNotRun) {
  RunSpec spec;
  spec.team = "research";
  spec.gpus = 1;
  EXPECT_FALSE(build_run_workload(spec).ok());  // no command
  spec.command = {"true"};
  spec.max_runtime = "soon";
  const Result<nlohmann::json> bad_duration = build_run_workload(spec);
  ASSERT_FALSE(bad_duration.ok());
  EXPECT_EQ(bad_duration.status().details().substr(0, 13), "--max-runtime");
  spec.max_runtime.clear();
  spec.count = 0;
  EXPECT_FALSE(build_run_workload(spec).ok());
  spec.count = 1;
  spec.gpus = -1;
  EXPECT_FALSE(build_run_workload(spec).ok());
}

}  // namespace
}  // namespace allot::cli
