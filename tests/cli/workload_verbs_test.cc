// get/describe/delete of workloads, submit, run, cancel, resume and logs against
// FakeAllotd, and what happens when allotd cannot be reached.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "fake_allotd.h"

namespace allot::cli::testing {
namespace {

using nlohmann::json;

json workload(const std::string& name, uint64_t uid, const std::string& phase = "Running") {
  json object = json::parse(R"({"apiVersion": "allot/v1", "kind": "Workload",
      "metadata": {"namespace": "research"},
      "spec": {"kind": "Job", "podSets": [{"name": "main", "count": 1, "resources": {"gpu": "2"}}]},
      "status": {"team": "research"}})");
  object["metadata"]["name"] = name;
  object["metadata"]["uid"] = uid;
  object["status"]["phase"] = phase;
  return object;
}

class WorkloadVerbs : public ::testing::Test {
 protected:
  CliOutcome allot(std::vector<std::string> args, const std::string& stdin_text = "") {
    args.push_back("--server");
    args.push_back(server_.url());
    return run_allot(args, stdin_text);
  }

  FakeAllotd server_;
};

// Three pages of two, one and zero items, chained by continue tokens.
void serve_paged_workloads(FakeAllotd& server) {
  server.on("GET", "/api/v1/workloads",
            [](const httplib::Request& request, httplib::Response& response) {
              const std::string token = request.get_param_value("continue");
              if (token.empty()) {
                set_json(response, 200,
                         {{"items", {workload("a", 1), workload("b", 2)}}, {"continue", "t1"}});
              } else if (token == "t1") {
                set_json(response, 200, {{"items", {workload("c", 3)}}, {"continue", "t2"}});
              } else {
                set_json(response, 200, {{"items", json::array()}, {"continue", ""}});
              }
            });
}

TEST_F(WorkloadVerbs, GetWorkloadsFollowsContinueTokens) {
  serve_paged_workloads(server_);
  const CliOutcome outcome =
      allot({"get", "workloads", "-o", "json", "--phase", "Running,Pending", "--team", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  const json listed = json::parse(outcome.out);
  ASSERT_EQ(listed["items"].size(), 3U);
  EXPECT_EQ(listed["items"][2]["metadata"]["name"], "c");
  const auto requests = server_.requests_to("GET", "/api/v1/workloads");
  ASSERT_EQ(requests.size(), 3U);
  EXPECT_EQ(requests[0].target, "/api/v1/workloads?phase=Running%2CPending&team=research");
  EXPECT_EQ(requests[1].params.at("continue"), "t1");
  EXPECT_EQ(requests[2].params.at("continue"), "t2");
  EXPECT_EQ(requests[2].params.at("phase"), "Running,Pending");
}

TEST_F(WorkloadVerbs, GetWorkloadsStopsAtTheLimit) {
  serve_paged_workloads(server_);
  const CliOutcome outcome = allot({"get", "wl", "--limit", "3", "-o", "json"});
  EXPECT_EQ(json::parse(outcome.out)["items"].size(), 3U);
  const auto requests = server_.requests_to("GET", "/api/v1/workloads");
  ASSERT_EQ(requests.size(), 2U);
  EXPECT_EQ(requests[0].params.at("limit"), "3");
  EXPECT_EQ(requests[1].params.at("limit"), "1");
}

TEST_F(WorkloadVerbs, GetWorkloadsSortBySendsTheSortWithEveryPageAndKeepsTheOrder) {
  serve_paged_workloads(server_);
  const CliOutcome outcome = allot({"get", "workloads", "--sort-by", "-priority", "-o", "json"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  const json listed = json::parse(outcome.out);
  ASSERT_EQ(listed["items"].size(), 3U);
  EXPECT_EQ(listed["items"][0]["metadata"]["name"], "a");
  EXPECT_EQ(listed["items"][2]["metadata"]["name"], "c");
  const auto requests = server_.requests_to("GET", "/api/v1/workloads");
  ASSERT_EQ(requests.size(), 3U);
  EXPECT_EQ(requests[0].target, "/api/v1/workloads?sort=-priority");
  EXPECT_EQ(requests[1].params.at("sort"), "-priority");
  EXPECT_EQ(requests[2].params.at("sort"), "-priority");
  EXPECT_EQ(requests[2].params.at("continue"), "t2");
}

TEST_F(WorkloadVerbs, SortByIsForWorkloadsOnly) {
  const CliOutcome outcome = allot({"get", "teams", "--sort-by", "name"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("--sort-by"), std::string::npos) << outcome.err;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(WorkloadVerbs, GetWorkloadsInANamespacePrintsATable) {
  server_.reply("GET", "/api/v1/namespaces/research/workloads", 200,
                {{"items", {workload("sweep", 17)}}, {"continue", ""}});
  const CliOutcome outcome = allot({"get", "workloads", "-n", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "NAME   NAMESPACE  TEAM      PHASE    GPUS  AGE\n"
            "sweep  research   research  Running  2     <unknown>\n");
}

TEST_F(WorkloadVerbs, GetOneWorkloadByNamespaceSlashName) {
  server_.reply("GET", "/api/v1/namespaces/research/workloads/sweep", 200, workload("sweep", 17));
  const CliOutcome outcome = allot({"get", "workload", "research/sweep", "-o", "json"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(json::parse(outcome.out), workload("sweep", 17));
}

TEST_F(WorkloadVerbs, PhaseFilterIsForWorkloadsOnly) {
  const CliOutcome outcome = allot({"get", "teams", "--phase", "Running"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(WorkloadVerbs, DescribeWorkloadReadsItsEvents) {
  json waiting = workload("big", 4, "Pending");
  waiting["status"]["explanation"] = {{"reason", "InsufficientQuota"},
                                      {"message", "research may use 16 more GPUs"},
                                      {"queuePosition", 2},
                                      {"estimatedStart", nullptr}};
  server_.reply("GET", "/api/v1/namespaces/research/workloads/big", 200, waiting);
  server_.reply("GET", "/api/v1/namespaces/research/workloads/big/events", 200,
                json::parse(R"({"items": [{"sequence": 1, "time": "bad", "type": "Pending",
                                           "reason": "Created", "message": "queued"}]})"));
  const CliOutcome outcome = allot({"describe", "wl", "big", "-n", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("  Message:          research may use 16 more GPUs\n"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("  Estimated start:  unknown\n"), std::string::npos);
  EXPECT_NE(outcome.out.find("  <unknown>  Pending  Created  queued\n"), std::string::npos);
}

TEST_F(WorkloadVerbs, DeleteWorkloadNeedsItsNamespace) {
  server_.reply("DELETE", "/api/v1/namespaces/research/workloads/sweep", 200,
                {{"deleted", "research/sweep"}});
  const CliOutcome missing = allot({"delete", "workload", "sweep"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("give -n NAMESPACE or NS/NAME"), std::string::npos);
  const CliOutcome outcome = allot({"delete", "workload", "sweep", "-n", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "workload/sweep deleted\n");
}

constexpr const char* kTwoWorkloads = R"(apiVersion: allot/v1
kind: Workload
metadata: {name: one, namespace: research}
spec: {podSets: [{count: 1, resources: {gpu: 1}}], command: [sleep, "1"]}
---
apiVersion: allot/v1
kind: Workload
metadata: {name: two}
spec: {podSets: [{count: 1, resources: {gpu: 2}}]}
)";

TEST_F(WorkloadVerbs, SubmitPostsEachWorkloadToItsNamespace) {
  uint64_t next_uid = 40;
  server_.on("POST", "/api/v1/namespaces/research/workloads",
             [&next_uid](const httplib::Request& request, httplib::Response& response) {
               const std::string name =
                   request.body.find("name: one") != std::string::npos ? "one" : "two";
               set_json(response, 201, workload(name, next_uid++, "Pending"));
             });
  const CliOutcome outcome = allot({"submit", "-f", "-", "-n", "research"}, kTwoWorkloads);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "workload/one created (uid 40)\n"
            "workload/two created (uid 41)\n");
  const auto requests = server_.requests_to("POST", "/api/v1/namespaces/research/workloads");
  ASSERT_EQ(requests.size(), 2U);
  EXPECT_EQ(requests[0].content_type, "application/yaml");
  EXPECT_NE(requests[0].body.find("kind: Workload"), std::string::npos);
  EXPECT_NE(requests[1].body.find("name: two"), std::string::npos);
}

TEST_F(WorkloadVerbs, SubmitRefusesOtherKindsBeforeSendingAnything) {
  const std::string mixed = std::string(kTwoWorkloads) +
                            "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: research}\n"
                            "spec: {}\n";
  const CliOutcome outcome = allot({"submit", "-f", "-", "-n", "research"}, mixed);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err,
            "error: submit takes Workload documents only; apply policy with 'allot apply -f' "
            "(at document 3 (Team/research))\n");
  EXPECT_TRUE(server_.requests().empty());
}

// yaml-cpp 0.7's loader never returns on a stray ',' (jbeder/yaml-cpp#1040).
TEST_F(WorkloadVerbs, SubmitOfAStrayCommaIsAnErrorNotAHang) {
  const CliOutcome outcome = allot({"submit", "-f", "-", "-n", "research"}, "{a: 1}, {b: 2}\n");
  EXPECT_EQ(outcome.exit_code, 2) << outcome.err;
  EXPECT_NE(outcome.err.find("error:"), std::string::npos) << outcome.err;
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(WorkloadVerbs, SubmitNeedsANamespace) {
  const CliOutcome outcome = allot({"submit", "-f", "-"}, kTwoWorkloads);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("(at document 2 (Workload/two))"), std::string::npos);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(WorkloadVerbs, SubmitReportsTheServersRefusal) {
  server_.reply_error("POST", "/api/v1/namespaces/research/workloads", 409, "already_exists",
                      "workload 'one' exists in namespace 'research'");
  const CliOutcome outcome = allot({"submit", "-f", "-", "-n", "research"}, kTwoWorkloads);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: workload 'one' exists in namespace 'research'\n");
}

TEST_F(WorkloadVerbs, RunPostsAJsonWorkloadToTheTeamsNamespace) {
  server_.on("POST", "/api/v1/namespaces/research/workloads",
             [](const httplib::Request&, httplib::Response& response) {
               set_json(response, 201, workload("wl-7", 7, "Pending"));
             });
  // --server goes before `--`: what follows is the command.
  const CliOutcome outcome = run_allot(
      {"run",   "--server", server_.url(), "--team",   "research",   "--gpus", "2",
       "--cpu", "500m",     "--count",     "2",        "--priority", "batch",  "--max-runtime",
       "2h",    "--",       "python3",     "train.py", "--epochs",   "3"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "workload/wl-7 created (uid 7)\n");
  const auto requests = server_.requests_to("POST", "/api/v1/namespaces/research/workloads");
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].content_type, "application/json");
  EXPECT_EQ(json::parse(requests[0].body), json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Workload", "metadata": {"namespace": "research"},
      "spec": {"kind": "Job", "priorityClass": "batch", "maxRuntimeSeconds": 7200,
               "command": ["python3", "train.py", "--epochs", "3"],
               "podSets": [{"name": "main", "count": 2, "resources": {"gpu": 2, "cpu": "500m"}}]}})"));
}

TEST_F(WorkloadVerbs, RunWithoutACommandIsAUsageError) {
  const CliOutcome outcome = allot({"run", "--team", "research", "--gpus", "1"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(WorkloadVerbs, CancelPostsToCancel) {
  server_.reply("POST", "/api/v1/namespaces/research/workloads/sweep/cancel", 200,
                workload("sweep", 17, "Cancelled"));
  const CliOutcome outcome = allot({"cancel", "research/sweep"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "workload/sweep cancelled\n");
}

TEST_F(WorkloadVerbs, CancelOfAFinishedWorkloadExitsTwo) {
  server_.reply_error("POST", "/api/v1/namespaces/research/workloads/sweep/cancel", 409,
                      "failed_precondition", "workload research/sweep has finished");
  const CliOutcome outcome = allot({"cancel", "sweep", "-n", "research"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: workload research/sweep has finished\n");
}

TEST_F(WorkloadVerbs, ResumePostsToResume) {
  server_.reply("POST", "/api/v1/namespaces/research/workloads/notebook/resume", 200,
                workload("notebook", 18, "Pending"));
  const CliOutcome outcome = allot({"resume", "notebook", "-n", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "workload/notebook resumed\n");
}

TEST_F(WorkloadVerbs, ResumeOfAWorkloadThatIsNotSuspendedExitsTwo) {
  server_.reply_error("POST", "/api/v1/namespaces/research/workloads/sweep/resume", 409,
                      "failed_precondition", "workload research/sweep is not suspended");
  const CliOutcome outcome = allot({"resume", "research/sweep"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: workload research/sweep is not suspended\n");
}

TEST_F(WorkloadVerbs, LogsPrintsThePodsLogOnce) {
  server_.on("GET", "/api/v1/namespaces/research/workloads/sweep/logs",
             [](const httplib::Request&, httplib::Response& response) {
               response.set_content("epoch 1\nepoch 2\n", "text/plain");
               response.set_header("X-Allot-Log-Offset", "16");
             });
  const CliOutcome outcome = allot({"logs", "sweep", "-n", "research", "--pod", "1"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "epoch 1\nepoch 2\n");
  const auto requests = server_.requests();
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].target, "/api/v1/namespaces/research/workloads/sweep/logs?pod=1&offset=0");
}

// The log grows by one line per read until the workload succeeds; then one
// last line appears before the log is drained.
TEST_F(WorkloadVerbs, LogsFollowFollowsOffsetsUntilTheWorkloadFinishes) {
  const std::vector<std::string> chunks = {"line 1\n", "", "line 2\n", "", "", "line 3\n", ""};
  size_t reads = 0;
  int phase_checks = 0;
  server_.on("GET", "/api/v1/namespaces/research/workloads/sweep/logs",
             [&](const httplib::Request& request, httplib::Response& response) {
               const std::string chunk = reads < chunks.size() ? chunks[reads] : "";
               ++reads;
               const int64_t offset = std::stoll(request.get_param_value("offset"));
               response.set_content(chunk, "text/plain");
               response.set_header("X-Allot-Log-Offset",
                                   std::to_string(offset + static_cast<int64_t>(chunk.size())));
             });
  server_.on("GET", "/api/v1/namespaces/research/workloads/sweep",
             [&](const httplib::Request&, httplib::Response& response) {
               ++phase_checks;
               set_json(response, 200,
                        workload("sweep", 1, phase_checks < 3 ? "Running" : "Succeeded"));
             });
  const CliOutcome outcome = allot({"logs", "-f", "research/sweep", "--poll-interval", "0s"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "line 1\nline 2\nline 3\n");
  std::vector<std::string> offsets;
  for (const RecordedRequest& request :
       server_.requests_to("GET", "/api/v1/namespaces/research/workloads/sweep/logs")) {
    offsets.push_back(request.params.at("offset"));
  }
  EXPECT_EQ(phase_checks, 3);  // read after requests_to(), which synchronises with the handlers
  EXPECT_EQ(offsets, (std::vector<std::string>{"0", "7", "7", "14", "14", "14", "21"}));
}

TEST_F(WorkloadVerbs, LogsFollowWaitsForALogThatDoesNotExistYet) {
  int phase_checks = 0;
  server_.on("GET", "/api/v1/namespaces/research/workloads/sweep/logs",
             [&](const httplib::Request& request, httplib::Response& response) {
               if (phase_checks == 0) {
                 set_json(response, 404, {{"code", "not_found"}, {"message", "no log yet"}});
                 return;
               }
               const bool start = request.get_param_value("offset") == "0";
               response.set_content(start ? "hello\n" : "", "text/plain");
               response.set_header("X-Allot-Log-Offset", "6");
             });
  server_.on("GET", "/api/v1/namespaces/research/workloads/sweep",
             [&](const httplib::Request&, httplib::Response& response) {
               ++phase_checks;
               set_json(response, 200,
                        workload("sweep", 1, phase_checks < 2 ? "Pending" : "Failed"));
             });
  const CliOutcome outcome =
      allot({"logs", "-f", "sweep", "-n", "research", "--poll-interval", "1ms"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "hello\n");
}

TEST_F(WorkloadVerbs, LogsOfAMissingWorkloadExitTwo) {
  const CliOutcome outcome = allot({"logs", "-f", "research/ghost", "--poll-interval", "0s"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("error: no route GET /api/v1/namespaces/research/workloads/ghost"),
            std::string::npos)
      << outcome.err;
}

// A port that was just free: bound by a server that has since stopped.
int closed_port() {
  const FakeAllotd gone;
  return gone.port();
}

TEST(UnreachableServer, ConnectionRefusedExitsOneWithAHint) {
  const std::string url = "http://127.0.0.1:" + std::to_string(closed_port());
  const CliOutcome outcome = run_allot({"get", "teams", "--server", url});
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(outcome.out, "");
  EXPECT_EQ(outcome.err.rfind("error: cannot reach allotd at " + url + ": ", 0), 0U) << outcome.err;
  EXPECT_NE(outcome.err.find("\nhint: is allotd running there?"), std::string::npos);
}

TEST(UnreachableServer, BadServerAddressIsAUsageError) {
  const CliOutcome outcome = run_allot({"top", "--server", "ftp://host:1"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err,
            "error: unsupported scheme 'ftp' in server address 'ftp://host:1' (expected http) "
            "(at --server)\n");
}

// The one test that reads the process environment: ALLOT_SERVER is used when
// there is no --server.
TEST(ServerFromEnvironment, AllotServerVariableIsUsed) {
  FakeAllotd server;
  server.reply("GET", "/api/v1/top", 200, {{"teams", json::array()}});
  ASSERT_EQ(::setenv("ALLOT_SERVER", server.url().c_str(), 1), 0);
  const CliOutcome outcome = run_allot({"top", "-o", "json"});
  ::unsetenv("ALLOT_SERVER");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(server.requests().size(), 1U);
}

}  // namespace
}  // namespace allot::cli::testing
