// apply, get, describe, delete and top against FakeAllotd: the requests they
// send (method, path, query, body) and what they print and exit with.
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "fake_allotd.h"

namespace allot::cli::testing {
namespace {

using nlohmann::json;

class PolicyVerbs : public ::testing::Test {
 protected:
  CliOutcome allot(std::vector<std::string> args, const std::string& stdin_text = "") {
    args.push_back("--server");
    args.push_back(server_.url());
    return run_allot(args, stdin_text);
  }

  std::string write_temp(const std::string& name, const std::string& content) {
    const std::string path = ::testing::TempDir() + "allot_client_" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
    return path;
  }

  FakeAllotd server_;
};

constexpr const char* kTeamYaml =
    "apiVersion: allot/v1\nkind: Team\nmetadata: {name: research}\n"
    "spec: {cohort: org, quota: [{flavor: h100, resources: {gpu: {nominal: 16}}}]}\n";
constexpr const char* kCohortYaml =
    "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: org}\nspec: {}";

json apply_answer(bool dry_run) {
  return {{"dryRun", dry_run},
          {"changes",
           {{{"kind", "Team"},
             {"name", "research"},
             {"namespace", ""},
             {"action", "configured"},
             {"diff", "spec.quota[0].resources.gpu.nominal: 8 -> 16"}},
            {{"kind", "Cohort"},
             {"name", "org"},
             {"namespace", ""},
             {"action", "unchanged"},
             {"diff", ""}}}}};
}

TEST_F(PolicyVerbs, ApplySendsEveryFileAsOneYamlStream) {
  server_.reply("POST", "/api/v1/apply", 200, apply_answer(false));
  const std::string team = write_temp("team.yaml", kTeamYaml);
  const CliOutcome outcome = allot({"apply", "-f", team, "-f", "-"}, kCohortYaml);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "team.allot/research configured\n"
            "    spec.quota[0].resources.gpu.nominal: 8 -> 16\n"
            "cohort.allot/org unchanged\n");
  const auto requests = server_.requests_to("POST", "/api/v1/apply");
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(requests[0].target, "/api/v1/apply");
  EXPECT_EQ(requests[0].content_type, "application/yaml");
  EXPECT_EQ(requests[0].body, std::string(kTeamYaml) + "\n---\n" + kCohortYaml);
}

TEST_F(PolicyVerbs, ApplyDryRunAsksForItAndSaysSo) {
  server_.reply("POST", "/api/v1/apply", 200, apply_answer(true));
  const CliOutcome outcome = allot({"apply", "-f", "-", "--dry-run"}, kTeamYaml);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "team.allot/research configured (dry run)\n"
            "    spec.quota[0].resources.gpu.nominal: 8 -> 16\n"
            "cohort.allot/org unchanged (dry run)\n");
  EXPECT_EQ(server_.requests().at(0).target, "/api/v1/apply?dryRun=true");
}

TEST_F(PolicyVerbs, ApplyRejectedManifestExitsTwoWithTheServersLocation) {
  server_.reply_error("POST", "/api/v1/apply", 400, "invalid_argument", "unknown field 'gpus'",
                      "document 1 (Team/research): spec.quota[0].resources.gpus");
  const CliOutcome outcome = allot({"apply", "-f", "-"}, kTeamYaml);
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err,
            "error: unknown field 'gpus' (at document 1 (Team/research): "
            "spec.quota[0].resources.gpus)\n");
  EXPECT_EQ(outcome.out, "");
}

TEST_F(PolicyVerbs, ApplyOfAMissingFileSendsNothing) {
  const CliOutcome outcome = allot({"apply", "-f", "/nonexistent/policy.yaml"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: cannot read the file (at /nonexistent/policy.yaml)\n");
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(PolicyVerbs, GetTeamsPrintsATable) {
  server_.reply("GET", "/api/v1/teams", 200, json::parse(R"({"items": [
      {"apiVersion": "allot/v1", "kind": "Team", "metadata": {"name": "research"},
       "spec": {"cohort": "org", "quota": [{"flavor": "h100", "resources": {"gpu": {"nominal": 8}}}]}}]})"));
  const CliOutcome outcome = allot({"get", "teams"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "NAME      NAMESPACE  COHORT  QUOTA\n"
            "research  research   org     h100: gpu=8\n");
}

TEST_F(PolicyVerbs, GetOneObjectAsJsonOrYaml) {
  const json flavor = json::parse(
      R"({"apiVersion": "allot/v1", "kind": "ResourceFlavor", "metadata": {"name": "h100"},
          "spec": {"nodeLabels": {"gpu.model": "h100"}}})");
  server_.reply("GET", "/api/v1/resourceflavors/h100", 200, flavor);
  const CliOutcome as_json = allot({"get", "flavor", "h100", "-o", "json"});
  EXPECT_EQ(as_json.exit_code, 0) << as_json.err;
  EXPECT_EQ(json::parse(as_json.out), flavor);
  const CliOutcome as_yaml = allot({"get", "resourceflavors", "h100", "-o", "yaml"});
  EXPECT_EQ(as_yaml.out,
            "apiVersion: allot/v1\n"
            "kind: ResourceFlavor\n"
            "metadata:\n"
            "  name: h100\n"
            "spec:\n"
            "  nodeLabels:\n"
            "    gpu.model: h100\n");
}

TEST_F(PolicyVerbs, GetListAsJsonWrapsTheItems) {
  server_.reply(
      "GET", "/api/v1/priorityclasses", 200,
      json::parse(R"({"items": [{"metadata": {"name": "batch"}, "spec": {"value": 1}}]})"));
  const CliOutcome outcome = allot({"get", "pc", "-o", "json"});
  EXPECT_EQ(json::parse(outcome.out),
            json::parse(R"({"items": [{"metadata": {"name": "batch"}, "spec": {"value": 1}}]})"));
}

TEST_F(PolicyVerbs, GetEmptyListSaysSoOnStderr) {
  server_.reply("GET", "/api/v1/cohorts", 200, json::parse(R"({"items": []})"));
  const CliOutcome outcome = allot({"get", "cohorts"});
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.out, "");
  EXPECT_EQ(outcome.err, "No cohorts found.\n");
}

TEST_F(PolicyVerbs, GetUnknownKindExitsTwoWithoutAsking) {
  const CliOutcome outcome = allot({"get", "pods"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("error: unknown kind 'pods'"), std::string::npos);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(PolicyVerbs, GetMissingObjectExitsTwo) {
  server_.reply_error("GET", "/api/v1/teams/nope", 404, "not_found", "no team 'nope'");
  const CliOutcome outcome = allot({"get", "team", "nope"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: no team 'nope'\n");
}

TEST_F(PolicyVerbs, GetNodesWide) {
  server_.reply("GET", "/api/v1/nodes", 200, json::parse(R"({"items": [
      {"name": "gpu-0", "pool": "p", "flavor": "h100", "rack": "rack-0", "block": "block-0",
       "capacity": {"gpu": 8, "cpu": 96, "memory": "1Ti"}, "allocated": {"gpu": 8, "cpu": 10, "memory": "0"},
       "healthy": false, "cordoned": false, "reason": "gpu 3 lost", "workloads": []}]})"));
  const CliOutcome outcome = allot({"get", "nodes", "-o", "wide"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(
      outcome.out,
      "NAME   POOL  FLAVOR  STATUS    GPUS  WORKLOADS  RACK    BLOCK    CPU    MEMORY  REASON\n"
      "gpu-0  p     h100    NotReady  8/8   0          rack-0  block-0  10/96  0/1Ti   gpu 3 "
      "lost\n");
}

// The team status as allotd writes it: status.quota, one row per flavor and
// resource, each with the team's counts, amounts as quantities.
TEST_F(PolicyVerbs, DescribeTeamReadsItsStatus) {
  server_.reply("GET", "/api/v1/teams/research", 200, json::parse(R"({
      "metadata": {"name": "research"}, "spec": {"cohort": "org"},
      "status": {"quota": [
          {"team": "research", "cohort": "org", "flavor": "h100", "resource": "gpu",
           "nominal": "8", "usage": "0", "borrowed": "0", "lent": "8", "pending": 1, "admitted": 0},
          {"team": "research", "cohort": "org", "flavor": "h100", "resource": "memory",
           "nominal": "512Gi", "usage": "0", "borrowed": "0", "lent": "0", "pending": 1,
           "admitted": 0}]}})"));
  const CliOutcome outcome = allot({"describe", "team", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("Pending workloads:   1\n"
                             "Admitted workloads:  0\n"
                             "Usage:\n"
                             "  FLAVOR  RESOURCE  NOMINAL  USAGE  BORROWED  LENT\n"
                             "  h100    gpu       8        0      0         8\n"
                             "  h100    memory    512Gi    0      0         0\n"),
            std::string::npos)
      << outcome.out;
}

TEST_F(PolicyVerbs, DescribeOtherKindsShowTheirSpec) {
  server_.reply("GET", "/api/v1/cohorts/org", 200, json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Cohort", "metadata": {"name": "org"},
      "spec": {"parent": "", "fairShareWeight": 2}})"));
  const CliOutcome outcome = allot({"describe", "cohort", "org"});
  EXPECT_EQ(outcome.out,
            "Name:  org\n"
            "Kind:  Cohort\n"
            "Spec:\n"
            "  fairShareWeight: 2\n"
            "  parent: \"\"\n");
}

// describe signal: its spec and status, then its history (fired and resolved,
// oldest first) from GET /api/v1/signals/{name}/history.
TEST_F(PolicyVerbs, DescribeSignalShowsItsHistory) {
  server_.reply("GET", "/api/v1/signals/idle", 200, json::parse(R"({
      "apiVersion": "allot/v1", "kind": "Signal", "metadata": {"name": "idle"},
      "spec": {"expression": "allot_node_healthy == 0", "owner": "ops"}})"));
  server_.reply("GET", "/api/v1/signals/idle/history", 200, json::parse(R"({
      "signal": "idle", "items": [
        {"signal": "idle", "event": "fired", "at": "2027-01-15T08:30:00Z", "webhook": "",
         "series": [{"labels": {"node": "n1", "flavor": "gpu"}, "value": 0}]},
        {"signal": "idle", "event": "resolved", "at": "2027-01-15T09:00:00Z",
         "webhook": "https://hooks.example/x", "delivered": true, "series": []}]})"));
  const CliOutcome outcome = allot({"describe", "signal", "idle"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("Kind:  Signal\n"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.out.find("History:\n"
                             "  AT                    EVENT     SERIES                DELIVERED\n"
                             "  2027-01-15T08:30:00Z  fired     flavor=gpu,node=n1 0  -\n"
                             "  2027-01-15T09:00:00Z  resolved  <none>                yes\n"),
            std::string::npos)
      << outcome.out;
}

TEST_F(PolicyVerbs, DeleteTeamSendsDelete) {
  server_.reply("DELETE", "/api/v1/teams/research", 200, json::object());
  const CliOutcome outcome = allot({"delete", "teams", "research"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "team/research deleted\n");
  EXPECT_EQ(server_.requests_to("DELETE", "/api/v1/teams/research").size(), 1U);
}

TEST_F(PolicyVerbs, DeleteRefusedByPolicyExitsTwo) {
  server_.reply_error("DELETE", "/api/v1/cohorts/org", 409, "failed_precondition",
                      "team 'research' still references cohort 'org'", "Cohort/org");
  const CliOutcome outcome = allot({"delete", "cohort", "org"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: team 'research' still references cohort 'org' (at Cohort/org)\n");
}

TEST_F(PolicyVerbs, DeleteNodeIsRefusedLocally) {
  const CliOutcome outcome = allot({"delete", "node", "gpu-0"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_TRUE(server_.requests().empty());
}

TEST_F(PolicyVerbs, TopPrintsUsageAndFiltersByTeam) {
  server_.reply("GET", "/api/v1/top", 200, json::parse(R"({"teams": [
      {"team": "research", "cohort": "org", "flavor": "h100", "resource": "gpu", "nominal": 8,
       "usage": 12, "borrowed": 4, "lent": 0, "pending": 3, "admitted": 2},
      {"team": "llm", "cohort": "org", "flavor": "h100", "resource": "gpu", "nominal": 8,
       "usage": 4, "borrowed": 0, "lent": 4, "pending": 0, "admitted": 1}]})"));
  const CliOutcome outcome = allot({"top", "--team", "llm"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out,
            "TEAM  COHORT  FLAVOR  RESOURCE  NOMINAL  USAGE  BORROWED  LENT  PENDING  ADMITTED\n"
            "llm   org     h100    gpu       8        4      0         4     0        1\n");
  EXPECT_EQ(server_.requests().at(0).target, "/api/v1/top");
  const CliOutcome as_json = allot({"top", "-o", "json"});
  EXPECT_EQ(json::parse(as_json.out)["teams"].size(), 2U);
}

TEST_F(PolicyVerbs, ServerFailuresExitOne) {
  server_.reply_error("GET", "/api/v1/top", 500, "internal", "bug");
  EXPECT_EQ(allot({"top"}).exit_code, 1);
  server_.reply_error("GET", "/api/v1/teams", 503, "unavailable", "starting");
  const CliOutcome outcome = allot({"get", "teams"});
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_EQ(outcome.err, "error: starting\n");
}

}  // namespace
}  // namespace allot::cli::testing

namespace allot::cli::testing {
namespace {

// `allot export kubernetes` without -f reads the policy and RBAC objects that allotd serves.
TEST(KubernetesExportFromAllotd, ReadsEveryPolicyAndRbacKind) {
  FakeAllotd server;
  const json empty = {{"items", json::array()}};
  for (const char* kind : {"clusters", "resourceflavors", "nodepools", "cohorts", "priorityclasses",
                           "clusterroles", "clusterrolebindings", "roles"}) {
    server.reply("GET", std::string("/api/v1/") + kind, 200, empty);
  }
  server.reply("GET", "/api/v1/teams", 200, json::parse(R"({"items": [
      {"apiVersion": "allot/v1", "kind": "Team", "metadata": {"name": "research"},
       "spec": {"quota": []}}]})"));
  server.reply("GET", "/api/v1/rolebindings", 200, json::parse(R"({"items": [
      {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
       "metadata": {"name": "viewers", "namespace": "research"},
       "subjects": [{"kind": "Group", "name": "research-viewers"}],
       "roleRef": {"kind": "ClusterRole", "name": "team-viewer"}}]})"));
  const CliOutcome outcome = run_allot({"export", "kubernetes", "--server", server.url()}, "");
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("kind: ClusterQueue"), std::string::npos);
  EXPECT_NE(outcome.out.find("name: oidc:research-viewers"), std::string::npos) << outcome.out;
  EXPECT_EQ(server.requests_to("GET", "/api/v1/rolebindings").size(), 1U);
}

TEST(KubernetesExportFromAllotd, AnUnreachableAllotdExitsOne) {
  const CliOutcome outcome =
      run_allot({"export", "kubernetes", "--server", "http://127.0.0.1:1"}, "");
  EXPECT_EQ(outcome.exit_code, 1);
  EXPECT_NE(outcome.err.find("cannot reach allotd"), std::string::npos) << outcome.err;
}

}  // namespace
}  // namespace allot::cli::testing
