// slurmrestd v0.0.38's JSON as the Slurm executor speaks it (slurm_rest.h):
// job/submit bodies made from sbatch's argv, and answers captured from the
// real slurmrestd 22.05.8 that scripts/slurm.sh starts (ALLOT_SLURM_REST=1),
// trimmed to the fields read plus a few.
#include "backends/slurm/slurm_rest.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace allot::slurm {
namespace {

using Json = nlohmann::json;

// GET /slurm/v0.0.38/jobs: a job that exited 3 (FAILED), one that ran, one
// held pending (hold: true), as slurmrestd answered.
constexpr const char* kJobsAnswer = R"({"meta": {"plugin": {"type": "openapi/v0.0.38",
  "name": "Slurm OpenAPI v0.0.38"}, "Slurm": {"version": {"major": 22, "micro": 8, "minor": 5},
  "release": "22.05.8"}}, "errors": [], "jobs": [
  {"job_id": 1, "name": "rest7", "job_state": "COMPLETED", "state_reason": "None",
   "nodes": "node1", "exit_code": 0, "account": "tr7", "partition": "gpu", "user_name": "root"},
  {"job_id": 2, "name": "r-exit3", "job_state": "FAILED", "state_reason": "NonZeroExitCode",
   "nodes": "node1", "exit_code": 768, "account": "tr7", "partition": "gpu", "user_name": "root"},
  {"job_id": 3, "name": "r-trap", "job_state": "PENDING", "state_reason": "JobHeldUser",
   "nodes": "", "exit_code": 0, "account": "tr7", "partition": "gpu", "user_name": "root"}]})";

// POST /slurm/v0.0.38/job/submit: accepted, and refused for an unknown account.
constexpr const char* kSubmitted = R"({"meta": {"plugin": {"type": "openapi/v0.0.38",
  "name": "Slurm OpenAPI v0.0.38"}}, "errors": [], "job_id": 1, "step_id": "BATCH",
  "job_submit_user_msg": ""})";
constexpr const char* kRefused = R"({"meta": {"plugin": {"type": "openapi/v0.0.38",
  "name": "Slurm OpenAPI v0.0.38"}}, "errors": [{"error_code": 2045,
  "error": "Invalid account or account/partition combination specified"}]})";
// job/submit with a wrong token (HTTP 500).
constexpr const char* kSubmitWrongToken = R"({"meta": {"plugin": {"type": "openapi/v0.0.38"}},
  "errors": [{"error_code": 5005, "error": "Zero Bytes were transmitted or received"}]})";
// GET /slurm/v0.0.38/diag with a wrong token (HTTP 500): slurmctld refused it.
constexpr const char* kWrongToken = R"({"meta": {"plugin": {"type": "openapi/v0.0.38"}},
  "errors": [{"description": "request failed", "error_number": -1,
  "error": "Unspecified error", "source": "slurm_get_statistics"}],
  "statistics": {"rpcs_by_message_type": [], "rpcs_by_user": []}})";

TEST(SlurmRest, JobsAreReadAsSqueuesLinesWithTheRawWaitStatus) {
  const Result<std::vector<SlurmJob>> jobs = parse_rest_jobs(kJobsAnswer);

  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  ASSERT_EQ(jobs->size(), 3u);
  EXPECT_EQ((*jobs)[0], (SlurmJob{"1", "rest7", "COMPLETED", "None", "node1", 0}));
  EXPECT_EQ((*jobs)[1], (SlurmJob{"2", "r-exit3", "FAILED", "NonZeroExitCode", "node1", 768}));
  EXPECT_EQ(exit_of((*jobs)[1]).exit_code, 3);
  EXPECT_EQ((*jobs)[2].reason, "JobHeldUser");
  EXPECT_FALSE(parse_rest_jobs(kWrongToken).ok()) << "no jobs: not a job list";
  EXPECT_FALSE(parse_rest_jobs("Authentication failure").ok());
}

TEST(SlurmRest, SubmitAnswersGiveTheJobIdOrSlurmsRefusal) {
  const Result<std::string> submitted = parse_rest_submitted(kSubmitted);
  ASSERT_TRUE(submitted.ok()) << submitted.status().message();
  EXPECT_EQ(*submitted, "1");
  const Result<std::string> refused = parse_rest_submitted(kRefused);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("Invalid account"), std::string::npos);
  EXPECT_TRUE(rest_refusal(kRefused)) << "Slurm's error number: the job itself was refused";
  EXPECT_FALSE(rest_refusal(kWrongToken)) << "no Slurm error number: the transport failed";
  EXPECT_FALSE(rest_refusal(kSubmitWrongToken)) << "a socket error: the transport's";
  EXPECT_FALSE(rest_refusal("Authentication failure"));
  EXPECT_EQ(rest_errors_of(kWrongToken), "request failed");
  EXPECT_EQ(rest_errors_of(kSubmitted), "");
}

Submission rest_test_submission() {
  Submission s;
  s.argv = {"sbatch",
            "--parsable",
            "--job-name=allot-7",
            "--account=vision",
            "--nodes=2",
            "--ntasks=2",
            "--ntasks-per-node=1",
            "--nodelist=node1,node2",
            "--mem=100",
            "--time=3",
            "--open-mode=append",
            "--no-requeue",
            "--output=/d/7.log",
            "--chdir=/tmp",
            "--partition=gpu",
            "--qos=high",
            "--cpus-per-task=2",
            "--gres=gpu:h100:1",
            "--uid=1001",
            "--gid=1001",
            "--export=NONE",
            "/d/7.sbatch"};
  s.script = "#!/bin/sh\nexec srun true\n";
  return s;
}

TEST(SlurmRest, AHandoversDependencyIsAV0038JobProperty) {
  Submission s = rest_test_submission();
  s.argv.insert(s.argv.end() - 1, "--dependency=afterany:17:18");
  const Result<RestSubmission> rest = rest_submission_of(s, {});

  ASSERT_TRUE(rest.ok()) << rest.status().message();
  EXPECT_EQ(Json::parse(rest->body)["job"]["dependency"], "afterany:17:18");
}

TEST(SlurmRest, AnSbatchSubmissionBecomesV0038JobPropertiesHeldForItsNodes) {
  const Result<RestSubmission> rest =
      rest_submission_of(rest_test_submission(), {{"PATH", "/usr/bin:/bin"}});

  ASSERT_TRUE(rest.ok()) << rest.status().message();
  EXPECT_EQ(rest->nodelist, "node1,node2");
  EXPECT_TRUE(rest->held) << "Slurm's nodes unknown: held, then placed with scontrol";
  const Json body = Json::parse(rest->body);
  EXPECT_EQ(body["script"], "#!/bin/sh\nexec srun true\n");
  const Json expected = Json::parse(R"({"name": "allot-7", "account": "vision", "nodes": [2, 2],
    "tasks": 2, "tasks_per_node": 1, "memory_per_node": 100, "time_limit": 3,
    "open_mode": "append", "requeue": false, "standard_output": "/d/7.log",
    "current_working_directory": "/tmp", "partition": "gpu", "qos": "high", "cpus_per_task": 2,
    "gres": "gpu:h100:1", "hold": true, "environment": {"PATH": "/usr/bin:/bin"}})");
  EXPECT_EQ(body["job"], expected) << body["job"].dump();
}

TEST(SlurmRest, AJobIsPinnedToItsNodesByExcludingEveryOtherNodeOfSlurm) {
  const std::vector<std::string> slurm_nodes = {"node1", "node2", "node3", "node4"};
  const Result<RestSubmission> rest =
      rest_submission_of(rest_test_submission(), {{"PATH", "/usr/bin:/bin"}}, slurm_nodes);

  ASSERT_TRUE(rest.ok()) << rest.status().message();
  EXPECT_FALSE(rest->held) << "one request: no hold, no scontrol";
  const Json job = Json::parse(rest->body)["job"];
  EXPECT_EQ(job["exclude_nodes"], "node3,node4");
  EXPECT_EQ(job["nodes"], Json::parse("[2, 2]")) << "exactly the two nodes left";
  EXPECT_FALSE(job.contains("hold"));

  Submission everywhere = rest_test_submission();
  for (std::string& arg : everywhere.argv) {
    if (arg.starts_with("--nodelist=")) arg = "--nodelist=node1,node2,node3,node4";
  }
  const Result<RestSubmission> all = rest_submission_of(everywhere, {}, slurm_nodes);
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(all->held);
  EXPECT_FALSE(Json::parse(all->body)["job"].contains("exclude_nodes")) << "nothing to exclude";

  const Result<RestSubmission> unknown =
      rest_submission_of(rest_test_submission(), {}, {"node1", "node3"});
  ASSERT_TRUE(unknown.ok());
  EXPECT_TRUE(unknown->held) << "node2 is not among Slurm's nodes as read: held, then placed";
  EXPECT_EQ(Json::parse(unknown->body)["job"]["hold"], true);
  EXPECT_FALSE(Json::parse(unknown->body)["job"].contains("exclude_nodes"));
}

// GET /slurm/v0.0.38/nodes from the real slurmrestd 22.05.8, trimmed: an idle
// node, one drained by hand, one DOWN and not responding with typed GPUs.
constexpr const char* kNodesAnswer = R"json({"meta": {"plugin": {"type": "openapi/v0.0.38"}},
  "errors": [], "nodes": [
  {"name": "node3", "cpus": 16, "real_memory": 65536, "gres": "gpu:a100:8(S:0)",
   "features": "rack-2,emulated", "state": "idle", "state_flags": ["DRAIN"],
   "reason": "test drain x", "partitions": ["gpu"], "gres_used": "gpu:0"},
  {"name": "node1", "cpus": 16, "real_memory": 65536, "gres": "gpu:8", "features": "emulated",
   "state": "idle", "state_flags": [], "reason": "", "partitions": ["gpu"]},
  {"name": "node4", "cpus": 8, "real_memory": 1024, "gres": "gpu:a100:4",
   "features": "", "state": "down", "state_flags": ["NOT_RESPONDING"], "reason": "gone"}]})json";

TEST(SlurmRest, NodesAreReadAsScontrolsWithTheirStateFlags) {
  const Result<std::vector<InventoryNode>> nodes = parse_rest_nodes(kNodesAnswer);

  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  ASSERT_EQ(nodes->size(), 3u);
  const InventoryNode& idle = (*nodes)[0];
  EXPECT_EQ(idle.name, NodeId("node1")) << "in name order";
  EXPECT_EQ(idle.capacity, ResourceVector(8, 16000, int64_t{65536} << 20));
  EXPECT_EQ(idle.flavor, "");
  EXPECT_TRUE(idle.up);
  EXPECT_FALSE(idle.drained);
  EXPECT_EQ(idle.state, "IDLE");
  const InventoryNode& drained = (*nodes)[1];
  EXPECT_EQ(drained.flavor, "a100");
  EXPECT_EQ(drained.labels.at("rack"), "2");
  EXPECT_TRUE(drained.up);
  EXPECT_TRUE(drained.drained);
  EXPECT_EQ(drained.state, "IDLE+DRAIN");
  EXPECT_EQ(drained.reason, "test drain x");
  const InventoryNode& down = (*nodes)[2];
  EXPECT_FALSE(down.up);
  EXPECT_EQ(down.state, "DOWN+NOT_RESPONDING");
  EXPECT_EQ(down.reason, "gone");
  EXPECT_EQ(down.capacity, ResourceVector(4, 8000, int64_t{1024} << 20));

  EXPECT_FALSE(parse_rest_nodes(kJobsAnswer).ok()) << "no nodes: not a node list";
  EXPECT_FALSE(parse_rest_nodes(R"({"nodes": [{"cpus": 1}]})").ok()) << "a node without a name";
}

TEST(SlurmRest, NoTimeLimitIsLeftOutAndAnUnknownOptionIsRefused) {
  Submission s = rest_test_submission();
  s.argv = {"sbatch", "--time=0", "--job-name=a", "s.sbatch"};
  const Result<RestSubmission> rest = rest_submission_of(s, {});
  ASSERT_TRUE(rest.ok());
  const Json job = Json::parse(rest->body)["job"];
  EXPECT_FALSE(job.contains("time_limit"));
  EXPECT_FALSE(job.contains("hold")) << "no nodelist: not held";
  EXPECT_EQ(job["environment"], Json::parse(R"({"PATH": "/usr/bin:/bin"})"));

  s.argv = {"sbatch", "--exclusive", "s.sbatch"};
  const Result<RestSubmission> refused = rest_submission_of(s, {});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--exclusive"), std::string::npos);
}

// Nulls and other types where a text or a number is read (slurmrestd may send
// null): read as absent, never thrown.
TEST(SlurmRest, NullsAndOtherTypesAreReadAsAbsent) {
  const Result<std::vector<InventoryNode>> nodes = parse_rest_nodes(R"({"nodes": [
    {"name": "node1", "cpus": 16, "real_memory": 65536, "gres": null, "features": 7,
     "state": null, "state_flags": null, "reason": null}]})");
  ASSERT_TRUE(nodes.ok()) << nodes.status().message();
  ASSERT_EQ(nodes->size(), 1u);
  EXPECT_EQ((*nodes)[0].state, "UNKNOWN") << "a null state: unknown";
  EXPECT_EQ((*nodes)[0].reason, "");
  EXPECT_EQ((*nodes)[0].flavor, "");

  const Result<std::vector<SlurmJob>> jobs = parse_rest_jobs(R"({"jobs": [
    {"job_id": 5, "name": null, "job_state": "RUNNING", "state_reason": 3, "nodes": null,
     "exit_code": null},
    {"job_id": 6, "name": "b", "job_state": "FAILED", "exit_code": {"set": true, "number": 256}}]})");
  ASSERT_TRUE(jobs.ok()) << jobs.status().message();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0], (SlurmJob{"5", "", "RUNNING", "", "", 0}));
  EXPECT_EQ((*jobs)[1].wait_status, 256) << "v0.0.39+'s {set, number}";

  EXPECT_EQ(rest_errors_of(R"({"errors": [{"description": null, "error": "e1"},
    {"description": 4, "error": null}]})"),
            "e1");
  EXPECT_FALSE(rest_unknown_node(R"({"errors": [{"error_code": null, "error": null}]})"));
  EXPECT_FALSE(parse_rest_last_update(R"({"last_update": null})").has_value());
}

// job/submit refused because exclude_nodes names a node Slurm no longer has.
TEST(SlurmRest, AnInvalidNodeNameRefusalIsToldFromOtherRefusals) {
  EXPECT_TRUE(rest_unknown_node(R"({"errors": [{"error_code": 2018,
    "error": "Invalid node name specified"}]})"));
  EXPECT_TRUE(rest_unknown_node(R"({"errors": [{"error_number": -1,
    "description": "Invalid node name specified"}]})"))
      << "the words alone";
  EXPECT_FALSE(rest_unknown_node(kRefused)) << "an unknown account";
  EXPECT_FALSE(rest_unknown_node(kSubmitWrongToken));
  EXPECT_FALSE(rest_unknown_node(kSubmitted));
  EXPECT_FALSE(rest_unknown_node("not json"));
}

// update_time is slurmctld's clock: the answer's last_update, else its Date.
TEST(SlurmRest, SlurmctldsTimeIsReadFromTheAnswerOrItsDate) {
  EXPECT_EQ(parse_rest_last_update(R"({"jobs": [], "last_update": 1764828000})"), 1764828000);
  EXPECT_EQ(parse_rest_last_update(R"({"last_update": {"set": true, "number": 17}})"), 17);
  EXPECT_FALSE(parse_rest_last_update(kJobsAnswer).has_value()) << "v0.0.38 sends none";
  EXPECT_FALSE(parse_rest_last_update("[1]").has_value());
  EXPECT_EQ(parse_rest_http_date("Thu, 01 Jan 1970 00:01:40 GMT"), 100);
  EXPECT_EQ(parse_rest_http_date("Fri, 04 Dec 2026 06:52:22 GMT"), 1796367142);
  EXPECT_EQ(parse_rest_diag_time(R"({"statistics": {"req_time": 1796367513,
    "req_time_start": 1796367508}})"),
            1796367513)
      << "22.05's /diag, as slurmrestd answered";
  EXPECT_FALSE(parse_rest_diag_time(kWrongToken).has_value()) << "no req_time";
  EXPECT_FALSE(parse_rest_diag_time(R"({"statistics": null})").has_value());
  EXPECT_FALSE(parse_rest_http_date("").has_value());
  EXPECT_FALSE(parse_rest_http_date("yesterday").has_value());
  EXPECT_FALSE(parse_rest_http_date("Fri, 04 Dec 2026 06:52:22 GMT trailing").has_value());
}

}  // namespace
}  // namespace allot::slurm
