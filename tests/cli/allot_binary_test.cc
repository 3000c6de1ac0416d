// Runs the built `allot` executable the way users do, and checks its exit
// codes, messages and outputs.
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "allot_executable.h"

namespace {

using Outcome = allot::cli::testing::ExecutableOutcome;
using allot::cli::testing::read_text_file;
using allot::cli::testing::write_text_file;

std::string temp_path(const std::string& name) {
  return allot::cli::testing::test_temp_path("allot_cli", name);
}

Outcome run_allot(const std::string& args) {
  return allot::cli::testing::run_allot_executable("allot_cli", args);
}

// Two teams sharing two 8-GPU nodes; four workloads.
constexpr const char* kSmallScenario = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: h100}
spec: {}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {flavor: h100, count: 2, resources: {gpu: 8, cpu: 64, memory: 512Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
spec: {}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: normal}
spec: {value: 100}
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec: {cohort: org, quota: [{flavor: h100, resources: {gpu: {nominal: 8}}}]}
---
apiVersion: allot/v1
kind: Team
metadata: {name: beta}
spec: {cohort: org, quota: [{flavor: h100, resources: {gpu: {nominal: 8}}}]}
---
apiVersion: allot/v1
kind: Scenario
metadata: {name: small}
spec:
  cycle: 1s
  workloads:
    - {at: 0s, name: a1, namespace: alpha, priorityClass: normal, runtime: 10s,
       podSets: [{resources: {gpu: 8}}]}
    - {at: 0s, name: b1, namespace: beta, priorityClass: normal, runtime: 20s,
       podSets: [{resources: {gpu: 8}}]}
  generators:
    - {namePrefix: a-batch, namespace: alpha, priorityClass: normal, count: 2, every: 5s,
       runtime: 5s, podSets: [{resources: {gpu: 4}}]}
)";

std::string small_scenario_file() {
  std::string path = temp_path("scenario.yaml");
  write_text_file(path, kSmallScenario);
  return path;
}

TEST(AllotBinary, NoArgumentsIsAUsageError) {
  const Outcome outcome = run_allot("");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("error:"), std::string::npos) << outcome.err;
  EXPECT_TRUE(outcome.out.empty());
}

TEST(AllotBinary, UnknownCommandIsAUsageError) {
  const Outcome outcome = run_allot("frobnicate");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("error:"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, SimulateWithoutScenarioNamesTheMissingOption) {
  const Outcome outcome = run_allot("simulate");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("--scenario"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, UnknownFlagIsAUsageError) {
  const Outcome outcome = run_allot("simulate --scenario x.yaml --bogus");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("--bogus"), std::string::npos) << outcome.err;
}

// Issue 10, clear errors 13: `allot --bogus` said only "A subcommand is required".
TEST(AllotBinary, AnOptionBeforeTheCommandIsNamed) {
  const Outcome outcome = run_allot("--bogus");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("unknown option '--bogus'"), std::string::npos) << outcome.err;
  EXPECT_EQ(run_allot("--version").exit_code, 0);
}

// `--server ""` (an unset variable) silently used the default server.
TEST(AllotBinary, AnEmptyServerIsAUsageError) {
  const Outcome outcome = run_allot("get workloads --server ''");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("--server"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("empty"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, UnknownOutputFormatIsAUsageError) {
  const Outcome outcome = run_allot("simulate --scenario '" + small_scenario_file() + "' -o xml");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("error:"), std::string::npos) << outcome.err;
  EXPECT_TRUE(outcome.out.empty());
}

TEST(AllotBinary, MissingScenarioFileIsReportedWithItsPath) {
  const Outcome outcome = run_allot("simulate --scenario /nonexistent/scenario.yaml");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err.rfind("error: ", 0), 0u) << outcome.err;
  EXPECT_NE(outcome.err.find("/nonexistent/scenario.yaml"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, MalformedScenarioIsReportedWithItsLocation) {
  const std::string path = temp_path("bad.yaml");
  write_text_file(path, std::string(kSmallScenario) + R"(
---
apiVersion: allot/v1
kind: Team
metadata: {name: gamma}
spec: {quota: [{flavor: h100, resources: {gpu: {nominal: -3}}}]}
)");
  const Outcome outcome = run_allot("simulate --scenario '" + path + "'");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err.rfind("error: ", 0), 0u) << outcome.err;
  EXPECT_NE(outcome.err.find("nominal"), std::string::npos) << outcome.err;
  EXPECT_TRUE(outcome.out.empty());
}

TEST(AllotBinary, FileWithoutScenarioIsAUsageError) {
  const std::string path = temp_path("policy.yaml");
  std::string policy_only = kSmallScenario;
  policy_only =
      policy_only.substr(0, policy_only.find("---\napiVersion: allot/v1\nkind: Scenario"));
  write_text_file(path, policy_only);
  const Outcome outcome = run_allot("simulate --scenario '" + path + "'");
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("Scenario"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, JsonOutputIsOneObjectWithEveryKey) {
  const Outcome outcome = run_allot("simulate --scenario '" + small_scenario_file() + "' -o json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const nlohmann::json json = nlohmann::json::parse(outcome.out, nullptr, false);
  ASSERT_FALSE(json.is_discarded()) << outcome.out;
  ASSERT_TRUE(json.is_object());
  for (const char* key : {"wall_s", "utilization", "admissions", "preemptions", "teams", "classes",
                          "runtime_s", "never_admitted"}) {
    EXPECT_TRUE(json.contains(key)) << key;
  }
  ASSERT_TRUE(json["teams"].contains("alpha"));
  ASSERT_TRUE(json["teams"].contains("beta"));
  for (const char* key :
       {"usage", "mean_wait_s", "p95_wait_s", "max_wait_s", "borrowed_share", "jobs"}) {
    EXPECT_TRUE(json["teams"]["alpha"].contains(key)) << key;
  }
  EXPECT_EQ(json["teams"]["alpha"]["jobs"], 3);
  ASSERT_TRUE(json["classes"].contains("normal"));
  EXPECT_EQ(json["classes"]["normal"]["jobs"], 4);
  EXPECT_TRUE(json["classes"]["normal"].contains("tta_mean_s"));
  EXPECT_EQ(json["admissions"], 4);
  EXPECT_EQ(json["never_admitted"], 0);
  EXPECT_GE(json["runtime_s"].get<double>(), 0.0);
}

TEST(AllotBinary, TableOutputShowsTeamsAndClasses) {
  const Outcome outcome = run_allot("simulate --scenario '" + small_scenario_file() + "'");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  for (const char* text : {"utilization", "alpha", "beta", "normal", "TEAM"}) {
    EXPECT_NE(outcome.out.find(text), std::string::npos) << text << "\n" << outcome.out;
  }
}

TEST(AllotBinary, WorkloadsCsvHasTheHeaderAndOneRowPerWorkload) {
  const std::string csv_path = temp_path("workloads.csv");
  const Outcome outcome = run_allot("simulate --scenario '" + small_scenario_file() +
                                    "' -o json --workloads '" + csv_path + "'");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  std::istringstream csv(read_text_file(csv_path));
  std::string line;
  ASSERT_TRUE(std::getline(csv, line));
  EXPECT_EQ(line,
            "name,namespace,priority_class,submitted_s,admitted_s,finished_s,preemptions,state");
  int rows = 0;
  while (std::getline(csv, line)) {
    ++rows;
    EXPECT_NE(line.find(",Succeeded"), std::string::npos) << line;
  }
  EXPECT_EQ(rows, 4);
}

TEST(AllotBinary, UnwritableCsvIsARuntimeFailure) {
  const Outcome outcome = run_allot("simulate --scenario '" + small_scenario_file() +
                                    "' --workloads /nonexistent/dir/w.csv");
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_NE(outcome.err.find("/nonexistent/dir/w.csv"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, HelpSucceedsAndListsSimulate) {
  const Outcome outcome = run_allot("--help");
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_NE(outcome.out.find("simulate"), std::string::npos) << outcome.out;
}

// Trace replay: two copies of one hard-quota policy under different names.
constexpr const char* kTracePolicy = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
spec: {}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {flavor: gpu, count: 1, resources: {gpu: 8}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 0}
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec:
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8, borrowingLimit: 0, lendingLimit: 0}}}]
)";

std::string trace_args(const std::string& trace_text) {
  const std::string trace = temp_path("trace.csv");
  const std::string first = temp_path("first.yaml");
  const std::string second = temp_path("second.yaml");
  write_text_file(trace, trace_text);
  write_text_file(first, kTracePolicy);
  write_text_file(second, kTracePolicy);
  return "simulate --trace '" + trace + "' --format csv --policy '" + first + "' --policy '" +
         second + "'";
}

TEST(AllotBinary, TraceReplayPrintsEveryPolicyInJson) {
  const Outcome outcome = run_allot(trace_args("submit_s,duration_s,gpus,team\n0,100,8,alpha\n5,10,"
                                               "8,alpha\n7,10,0,alpha\n9,10,1,gamma\n") +
                                    " --cycle 1s --allow-skips -o json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const nlohmann::json json = nlohmann::json::parse(outcome.out);
  EXPECT_EQ(json["jobs_read"], 4);
  const std::string name = "allot_cli_TraceReplayPrintsEveryPolicyInJson_first";
  ASSERT_TRUE(json["policies"].contains(name)) << outcome.out;
  const nlohmann::json& run = json["policies"][name];
  EXPECT_EQ(run["overall"]["jobs"], 2);
  EXPECT_EQ(run["overall"]["max_queue_s"], 95.0);
  EXPECT_EQ(run["teams"]["alpha"]["mean_queue_s"], 47.5);
  EXPECT_EQ(run["skipped_jobs"]["zero_gpus"], 1);
  EXPECT_EQ(run["skipped_jobs"]["unknown_team"]["gamma"], 1);
  for (const char* key :
       {"jobs", "finished", "mean_queue_s", "median_queue_s", "p95_queue_s", "max_queue_s",
        "mean_jct_s", "utilization", "borrowed_gpu_hours", "preemptions", "guarantee_compliance",
        "violated_cycles_reclaimable", "violated_cycles_beyond_bound", "violated_cycles_fragmented",
        "longest_violation_s", "moves", "lost_gpu_hours"}) {
    EXPECT_TRUE(run["overall"].contains(key)) << key;
  }
  EXPECT_TRUE(run.contains("runtime_s"));
  EXPECT_EQ(run["cycle_s"], 1.0);
  EXPECT_EQ(run["cycle_source"], "override");
  EXPECT_EQ(json["load_factor"], 1.0);
  nlohmann::json first = run;
  nlohmann::json second = json["policies"]["allot_cli_TraceReplayPrintsEveryPolicyInJson_second"];
  first.erase("runtime_s");
  second.erase("runtime_s");
  EXPECT_EQ(first, second);
}

TEST(AllotBinary, TraceReplayTablePutsPoliciesSideBySide) {
  const Outcome outcome = run_allot(trace_args("submit_s,duration_s,gpus,team\n0,100,8,alpha\n"));
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("mean queueing delay"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("violated cycles: reclaimable / beyond bound / fragmented"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("_first"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("_second"), std::string::npos) << outcome.out;
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(AllotBinary, TraceReplayWritesASelfContainedHtmlReport) {
  const std::string report = temp_path("report.html");
  const Outcome outcome = run_allot(
      trace_args("submit_s,duration_s,gpus,team\n0,100,8,alpha\n5,10,8,alpha\n20,1,2,alpha\n") +
      " --cycle 1s --report '" + report + "'");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const std::string html = read_text_file(report);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U) << html.substr(0, 100);
  // the delay CDF, then team alpha: drawn by the page's inlined script from
  // the charts' specs (html_report.h)
  EXPECT_EQ(count_of(html, "<div data-chart="), 2U);
  const std::string data_open = "<script type=\"application/json\" id=\"report-charts\">";
  const size_t data_at = html.find(data_open);
  ASSERT_NE(data_at, std::string::npos);
  const size_t data_from = data_at + data_open.size();
  const nlohmann::json specs =
      nlohmann::json::parse(html.substr(data_from, html.find("</script>", data_from) - data_from));
  ASSERT_EQ(specs["charts"].size(), 2U);
  for (const nlohmann::json& chart : specs["charts"]) {
    EXPECT_EQ(chart["series"][0]["name"],
              "allot_cli_TraceReplayWritesASelfContainedHtmlReport_first");
    EXPECT_EQ(chart["series"][1]["name"],
              "allot_cli_TraceReplayWritesASelfContainedHtmlReport_second");
  }
  EXPECT_NE(html.find("guarantee compliance"), std::string::npos);
  const std::string page = html.substr(0, html.rfind("<script>"));  // without the chart code
  EXPECT_EQ(page.find("nan"), std::string::npos);
  EXPECT_EQ(page.find("inf"), std::string::npos);
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);  // nothing fetched
  EXPECT_EQ(html.find("<link"), std::string::npos);
}

TEST(AllotBinary, TraceReplayProgressGoesToStderrOnlyWhenAskedForWithJson) {
  const std::string args =
      trace_args("submit_s,duration_s,gpus,team\n0,100,8,alpha\n") + " -o json";
  const Outcome quiet = run_allot(args);
  ASSERT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_EQ(quiet.err, "");
  const Outcome shown = run_allot(args + " --progress");
  ASSERT_EQ(shown.exit_code, 0) << shown.err;
  EXPECT_NE(shown.err.find("_first: [##########] 100% (1/1 jobs)\n"), std::string::npos)
      << shown.err;
  EXPECT_NE(shown.err.find("_second: [##########] 100% (1/1 jobs)\n"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::accept(shown.out));
}

TEST(AllotBinary, MalformedTraceIsReportedWithLineAndColumn) {
  const Outcome outcome =
      run_allot(trace_args("submit_s,duration_s,gpus,team\n0,100,8,alpha\n1,2,x,alpha\n"));
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("not a number 'x'"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("trace.csv: line 3: column gpus"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, TraceFormatIsInferredFromTheHeaderElseAnErrorNamingTheLine) {
  const Outcome inferred = run_allot(trace_args("submit_s,duration_s,gpus,team\n0,100,8,alpha\n"));
  ASSERT_EQ(inferred.exit_code, 0) << inferred.err;
  const std::string trace = temp_path("odd.csv");
  write_text_file(trace, "when,what\n1,2\n");
  const std::string policy = temp_path("p.yaml");
  write_text_file(policy, kTracePolicy);
  const Outcome unknown = run_allot("simulate --trace '" + trace + "' --policy '" + policy + "'");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("odd.csv: line 1"), std::string::npos) << unknown.err;
  EXPECT_NE(unknown.err.find("--format"), std::string::npos) << unknown.err;
}

std::string trace_args_without_format(const std::string& trace_text) {
  std::string args = trace_args(trace_text);
  args.erase(args.find(" --format csv"), std::string(" --format csv").size());
  return args;
}

TEST(AllotBinary, AnEmptyTraceIsAnError) {
  const Outcome outcome = run_allot(trace_args_without_format("submit_s,duration_s,gpus,team\n"));
  EXPECT_EQ(outcome.exit_code, 2) << outcome.out;
  EXPECT_NE(outcome.err.find("no jobs to replay"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("trace.csv"), std::string::npos) << outcome.err;
}

TEST(AllotBinary, JobsOfUnknownTeamsFailTheReplayUnlessAllowed) {
  const std::string trace = "submit_s,duration_s,gpus,team\n0,100,8,alpha\n9,10,1,gamma\n";
  const Outcome failed = run_allot(trace_args_without_format(trace));
  EXPECT_NE(failed.exit_code, 0);
  EXPECT_NE(failed.err.find("gamma (1)"), std::string::npos) << failed.err;
  EXPECT_NE(failed.err.find("--team-prefix"), std::string::npos) << failed.err;
  const Outcome allowed = run_allot(trace_args_without_format(trace) + " --allow-skips");
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(allowed.out.find("lacks: gamma (1)"), std::string::npos) << allowed.out;
  EXPECT_NE(allowed.err.find("warning: "), std::string::npos) << allowed.err;
}

TEST(AllotBinary, AJobThatCanNeverStartIsWarnedAboutUpFrontWithItsLine) {
  const Outcome outcome = run_allot(trace_args_without_format(
      "submit_s,duration_s,gpus,team\n0,100,8,alpha\n1,10,16,alpha\n2,10,1,alpha\n"));
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.err.find("can never start: line 3 (alpha, 16 GPUs > team limit 8)"),
            std::string::npos)
      << outcome.err;
  EXPECT_NE(outcome.out.find("1s (policy)"), std::string::npos) << outcome.out;
}

TEST(AllotBinary, ASweepPrintsOneRowPerValueAndPolicy) {
  const Outcome outcome = run_allot(
      trace_args_without_format("submit_s,duration_s,gpus,team\n0,100,8,alpha\n5,10,8,alpha\n") +
      " --load-factor 1,2,4 --capacity-factor 1,1/2 -o json");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const nlohmann::json json = nlohmann::json::parse(outcome.out);
  ASSERT_EQ(json["sweep"].size(), 6U);
  EXPECT_EQ(json["sweep"][1]["load_factor"], 2.0);
  EXPECT_EQ(json["sweep"][3]["capacity_factor"], 0.5);
  const Outcome table = run_allot(
      trace_args_without_format("submit_s,duration_s,gpus,team\n0,100,8,alpha\n5,10,8,alpha\n") +
      " --load-factor 1,2,4");
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("LOAD"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("VIOLATED R/B/F"), std::string::npos) << table.out;
  EXPECT_EQ(count_of(table.out, " 0/0/0 "), 6U) << table.out;  // nothing violated at any point
  for (const char* load : {"\n1 ", "\n2 ", "\n4 "}) {          // rows start with the load factor
    EXPECT_EQ(count_of(table.out, load), 2U) << load << table.out;
  }
  const Outcome bad =
      run_allot(trace_args("submit_s,duration_s,gpus,team\n0,1,1,alpha\n") + " --load-factor 1,-2");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--load-factor"), std::string::npos) << bad.err;
}

}  // namespace
