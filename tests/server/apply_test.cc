// allotd's REST API for real: health, routes, apply (policy as code) and the
// refusal of bad input, each refusal checked to have applied nothing.
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

std::string example_policy() {
  std::ifstream in(ALLOT_SOURCE_DIR "/examples/org/policy.yaml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The example policy with research's H100 quota changed from 4 to `nominal`.
std::string research_quota(int nominal) {
  std::string policy = example_policy();
  const std::string from =
      "name: research}\nspec:\n  cohort: org\n  quota:\n    - flavor: h100\n"
      "      resources:\n        gpu: {nominal: 4}";
  const size_t at = policy.find(from);
  EXPECT_NE(at, std::string::npos) << "examples/org/policy.yaml changed; update this test";
  if (at == std::string::npos) return policy;
  std::string to = from;
  to.replace(to.rfind('4'), 1, std::to_string(nominal));
  return policy.replace(at, from.size(), to);
}

// A valid change that a bad batch carries first: were anything applied,
// research's quota would be 6.
constexpr const char* kResearchQuotaSix = R"(apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  cohort: org
  quota: [{flavor: h100, resources: {gpu: {nominal: 6}}}]
  allowedPriorityClasses: [batch]
)";

class ApplyTest : public AllotdTest {
 protected:
  void apply_example() {
    const nlohmann::json result = apply(example_policy());
    ASSERT_EQ(result["changes"].size(), 12u) << result.dump();
  }

  nlohmann::json research_nominal() {
    const Reply team = api_.get("/api/v1/teams/research");
    EXPECT_EQ(team.status, 200) << team.describe();
    return team.json["spec"]["quota"][0]["resources"]["gpu"]["nominal"];
  }

  // Everything a client can read of the policy and the workloads.
  std::string everything() {
    std::string all;
    for (const char* kind :
         {"clusters", "resourceflavors", "nodepools", "cohorts", "teams", "priorityclasses"}) {
      all += api_.get(std::string("/api/v1/") + kind).body;
    }
    // Workloads by identity only: their status moves on by itself.
    const Reply workloads = api_.get("/api/v1/workloads");  // alive for the loop
    for (const auto& item : workloads.json["items"]) all += item["metadata"].dump();
    return all;
  }

  // Posts `body` to `path`, expects the refusal `status`/`code`, and that
  // nothing changed. Returns the error object.
  nlohmann::json expect_refused(const std::string& path, const std::string& body, int status,
                                const std::string& code,
                                const std::string& content_type = "application/yaml") {
    const std::string before = everything();
    const Reply reply = api_.post(path, body, content_type);
    EXPECT_EQ(reply.status, status) << reply.describe().substr(0, 2000);
    EXPECT_EQ(reply.json.value("code", ""), code) << reply.describe().substr(0, 2000);
    EXPECT_TRUE(reply.json.contains("message") && reply.json.contains("details"))
        << reply.describe().substr(0, 2000);
    EXPECT_FALSE(reply.json.value("message", "").empty());
    EXPECT_EQ(everything(), before) << "a refused request changed the state";
    EXPECT_EQ(research_nominal(), 4);
    return reply.json;
  }
};

TEST_F(ApplyTest, HealthzAndReadyzAnswerOk) {
  const Reply health = api_.get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.json, (nlohmann::json{{"status", "ok"}}));
  const Reply ready = api_.get("/readyz");
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.json, (nlohmann::json{{"status", "ready"}}));
}

TEST_F(ApplyTest, UnknownRouteIs404WithAJsonError) {
  const Reply reply = api_.get("/api/v1/no-such-thing");
  EXPECT_EQ(reply.status, 404);
  EXPECT_EQ(reply.header("Content-Type"), "application/json");
  ASSERT_TRUE(reply.json.is_object()) << reply.body;
  EXPECT_EQ(reply.json["code"], "not_found");
  EXPECT_NE(reply.json["message"].get<std::string>().find("/api/v1/no-such-thing"),
            std::string::npos);
  EXPECT_TRUE(reply.json.contains("details"));
}

// Issue 10, large inputs 3: chunked bodies are read under the body limit
// (counted as they arrive; http_server_test has the one over it), so a
// client that streams its manifest is served.
TEST_F(ApplyTest, AChunkedBodyWithinTheLimitIsApplied) {
  httplib::Client client("127.0.0.1", allotd_.port());
  client.set_bearer_token_auth(allotd_.admin_token());
  const std::string policy = example_policy();
  const httplib::Result res = client.Post(
      "/api/v1/apply",
      [&](size_t offset, httplib::DataSink& sink) {
        sink.write(policy.data() + offset, policy.size() - offset);
        sink.done();
        return true;
      },
      "application/yaml");

  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(api_.get("/api/v1/teams").json["items"].size(), 3u);
}

TEST_F(ApplyTest, ACompressedBodyIs415BeforeItIsInflated) {
  httplib::Client client("127.0.0.1", allotd_.port());
  client.set_bearer_token_auth(allotd_.admin_token());
  const httplib::Headers gzip = {{"Content-Encoding", "gzip"}};

  const httplib::Result res = client.Post(
      "/api/v1/apply", gzip, std::string("\x1f\x8b not really gzip"), "application/yaml");

  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 415) << res->body;
  EXPECT_NE(res->body.find("Content-Encoding: gzip"), std::string::npos) << res->body;
}

TEST_F(ApplyTest, AMultipartBodyIs415) {
  // Not valid multipart either: the HTTP library used to answer 400 parsing it.
  const Reply reply =
      api_.post("/api/v1/apply", "kind: Cohort\n", "multipart/form-data; boundary=b");
  EXPECT_EQ(reply.status, 415) << reply.describe();
  EXPECT_EQ(reply.json["code"], "unsupported_media_type");
}

TEST_F(ApplyTest, TooManyHeaderFieldsAre431) {
  httplib::Client client("127.0.0.1", allotd_.port());
  client.set_bearer_token_auth(allotd_.admin_token());
  httplib::Headers headers;
  for (int i = 0; i < 150; ++i) headers.emplace("X-Filler-" + std::to_string(i), "1");

  const httplib::Result res = client.Get("/healthz", headers);

  ASSERT_TRUE(res) << httplib::to_string(res.error());
  EXPECT_EQ(res->status, 431) << res->body;
}

TEST_F(ApplyTest, ApplyOfTheExamplePolicyCreatesEveryObject) {
  const Reply reply = api_.post("/api/v1/apply", example_policy(), "application/yaml");
  ASSERT_EQ(reply.status, 200) << reply.describe();
  EXPECT_EQ(reply.json["dryRun"], false);
  ASSERT_EQ(reply.json["changes"].size(), 12u);
  for (const auto& change : reply.json["changes"]) EXPECT_EQ(change["action"], "created") << change;
  EXPECT_EQ(api_.get("/api/v1/teams").json["items"].size(), 3u);
  EXPECT_EQ(api_.get("/api/v1/nodes").json["items"].size(), 3u);
  EXPECT_EQ(research_nominal(), 4);
}

TEST_F(ApplyTest, ReapplyOfTheSamePolicyIsUnchanged) {
  apply_example();
  const nlohmann::json again = apply(example_policy());
  ASSERT_EQ(again["changes"].size(), 12u);
  for (const auto& change : again["changes"]) EXPECT_EQ(change["action"], "unchanged") << change;
}

TEST_F(ApplyTest, DryRunShowsTheDiffAndAppliesNothing) {
  apply_example();
  const Reply dry = api_.post("/api/v1/apply?dryRun=true", research_quota(6));
  ASSERT_EQ(dry.status, 200) << dry.describe();
  EXPECT_EQ(dry.json["dryRun"], true);
  int configured = 0;
  for (const auto& change : dry.json["changes"]) {
    if (change["name"] == "research") {
      EXPECT_EQ(change["action"], "configured");
      EXPECT_EQ(change["diff"], "spec.quota[0].resources.gpu.nominal: 4 -> 6");
      ++configured;
    } else {
      EXPECT_EQ(change["action"], "unchanged") << change;
    }
  }
  EXPECT_EQ(configured, 1);
  EXPECT_EQ(research_nominal(), 4);

  // The same change for real.
  const nlohmann::json applied = apply(research_quota(6));
  EXPECT_EQ(applied["dryRun"], false);
  EXPECT_EQ(research_nominal(), 6);
}

TEST_F(ApplyTest, ApplyAcceptsJson) {
  apply_example();
  const nlohmann::json cohort = {{"apiVersion", "allot/v1"},
                                 {"kind", "Cohort"},
                                 {"metadata", {{"name", "lab"}}},
                                 {"spec", {{"fairShareWeight", 2}}}};
  const Reply reply = api_.post_json("/api/v1/apply", cohort);
  ASSERT_EQ(reply.status, 200) << reply.describe();
  ASSERT_EQ(reply.json["changes"].size(), 1u);
  EXPECT_EQ(reply.json["changes"][0]["kind"], "Cohort");
  EXPECT_EQ(reply.json["changes"][0]["action"], "created");
  const Reply stored = api_.get("/api/v1/cohorts/lab");
  ASSERT_EQ(stored.status, 200) << stored.describe();
  EXPECT_EQ(stored.json["spec"]["fairShareWeight"], 2);
}

TEST_F(ApplyTest, ApplyOfAJsonArrayAppliesEveryDocumentOrNone) {
  apply_example();
  const auto cohort = [](const std::string& name, int weight) {
    return nlohmann::json{{"apiVersion", "allot/v1"},
                          {"kind", "Cohort"},
                          {"metadata", {{"name", name}}},
                          {"spec", {{"fairShareWeight", weight}}}};
  };
  const nlohmann::json bad = nlohmann::json::array({cohort("lab", 2), cohort("Bad_Name", 1)});
  const Reply refused = api_.post_json("/api/v1/apply", bad);
  ASSERT_EQ(refused.status, 400) << refused.describe();
  EXPECT_EQ(refused.json["details"], "document 2 (Cohort/Bad_Name): metadata.name");
  EXPECT_EQ(api_.get("/api/v1/cohorts/lab").status, 404);
  const Reply reply =
      api_.post_json("/api/v1/apply", nlohmann::json::array({cohort("lab", 2), cohort("lab2", 3)}));
  ASSERT_EQ(reply.status, 200) << reply.describe();
  ASSERT_EQ(reply.json["changes"].size(), 2u);
  EXPECT_EQ(api_.get("/api/v1/cohorts/lab2").json["spec"]["fairShareWeight"], 3);
}

TEST_F(ApplyTest, InvalidUtf8Is400AndLeavesTheNameFree) {
  apply_example();
  const auto manifest = [](const std::string& argument) {
    return "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w, namespace: research}\n"
           "spec: {priorityClass: batch, podSets: [{count: 1, resources: {gpu: 0, cpu: 1}}], "
           "command: [\"" +
           argument + "\"]}\n";
  };
  const std::string path = "/api/v1/namespaces/research/workloads";
  const Reply bad = api_.post(path, manifest("/bin/true\xFF"));
  ASSERT_EQ(bad.status, 400) << bad.describe();
  EXPECT_EQ(bad.json["details"], "line 4, column 102");
  EXPECT_EQ(api_.get("/api/v1/workloads").json["items"].size(), 0u);
  const Reply good = api_.post(path, manifest("/bin/true"));
  EXPECT_EQ(good.status, 201) << good.describe();
}

TEST_F(ApplyTest, MalformedYamlIs400WithLineAndColumn) {
  apply_example();
  const nlohmann::json error = expect_refused(
      "/api/v1/apply", std::string(kResearchQuotaSix) + "---\nkind: [Team\n  metadata: {\n", 400,
      "invalid_argument");
  const std::string details = error.value("details", "");
  EXPECT_NE(details.find("line"), std::string::npos) << error;
  EXPECT_NE(details.find("column"), std::string::npos) << error;
}

TEST_F(ApplyTest, UnknownKindIs400NamingTheDocument) {
  apply_example();
  const nlohmann::json error =
      expect_refused("/api/v1/apply",
                     std::string(kResearchQuotaSix) +
                         "---\napiVersion: allot/v1\nkind: Queue\nmetadata: {name: q}\n",
                     400, "invalid_argument");
  EXPECT_NE(error["message"].get<std::string>().find("unknown kind 'Queue'"), std::string::npos)
      << error;
  EXPECT_EQ(error["details"], "document 2 (Queue/q): kind");
}

TEST_F(ApplyTest, UnknownFieldIs400NamingDocumentAndFieldPath) {
  apply_example();
  const nlohmann::json error = expect_refused(
      "/api/v1/apply",
      std::string(kResearchQuotaSix) +
          "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: x}\nspec: {cohort: org, "
          "quotas: []}\n",
      400, "invalid_argument");
  EXPECT_EQ(error["details"], "document 2 (Team/x): spec.quotas");
  EXPECT_NE(error["message"].get<std::string>().find("unknown field 'quotas'"), std::string::npos)
      << error;
}

TEST_F(ApplyTest, NegativeQuantityIs400) {
  apply_example();
  std::string negative = kResearchQuotaSix;
  negative.replace(negative.find("nominal: 6"), 10, "nominal: -6");
  const nlohmann::json error = expect_refused("/api/v1/apply", negative, 400, "invalid_argument");
  EXPECT_EQ(error["details"], "document 1 (Team/research): spec.quota[0].resources.gpu.nominal");
  EXPECT_NE(error["message"].get<std::string>().find("negative"), std::string::npos) << error;
}

TEST_F(ApplyTest, MalformedQuantityIs400) {
  apply_example();
  std::string malformed = kResearchQuotaSix;
  malformed.replace(malformed.find("nominal: 6"), 10, "nominal: 6 GPUs");
  const nlohmann::json error = expect_refused("/api/v1/apply", malformed, 400, "invalid_argument");
  EXPECT_EQ(error["details"], "document 1 (Team/research): spec.quota[0].resources.gpu.nominal");
}

TEST_F(ApplyTest, WorkloadOfAnUnknownTeamIs400) {
  apply_example();
  const std::string workload =
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w, namespace: ghosts}\nspec:\n"
      "  priorityClass: batch\n  podSets: [{count: 1, resources: {gpu: 1}}]\n"
      "  command: [/bin/true]\n";
  const nlohmann::json in_batch =
      expect_refused("/api/v1/apply", std::string(kResearchQuotaSix) + "---\n" + workload, 400,
                     "invalid_argument");
  EXPECT_NE(in_batch["message"].get<std::string>().find("ghosts"), std::string::npos) << in_batch;
  const nlohmann::json posted =
      expect_refused("/api/v1/namespaces/ghosts/workloads", workload, 400, "invalid_argument");
  EXPECT_NE(posted["message"].get<std::string>().find("ghosts"), std::string::npos) << posted;
  EXPECT_NE(posted["details"].get<std::string>().find("metadata.namespace"), std::string::npos)
      << posted;
}

TEST_F(ApplyTest, WorkloadOfAnUnknownPriorityClassIs400) {
  apply_example();
  const nlohmann::json error =
      expect_refused("/api/v1/namespaces/research/workloads",
                     "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w}\nspec:\n"
                     "  priorityClass: platinum\n  podSets: [{count: 1, resources: {gpu: 1}}]\n"
                     "  command: [/bin/true]\n",
                     400, "invalid_argument");
  EXPECT_NE(error["message"].get<std::string>().find("platinum"), std::string::npos) << error;
  EXPECT_NE(error["details"].get<std::string>().find("priorityClass"), std::string::npos) << error;
}

TEST_F(ApplyTest, BatchWithABadSecondDocumentAppliesNothing) {
  apply_example();
  const nlohmann::json error = expect_refused(
      "/api/v1/apply",
      "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: lab}\n---\napiVersion: allot/v1\n"
      "kind: Team\nmetadata: {name: vision}\nspec: {cohort: no-such-cohort}\n",
      400, "invalid_argument");
  EXPECT_NE(error["message"].get<std::string>().find("no-such-cohort"), std::string::npos) << error;
  EXPECT_EQ(api_.get("/api/v1/cohorts/lab").status, 404);
  EXPECT_EQ(api_.get("/api/v1/teams/vision").status, 404);
}

TEST_F(ApplyTest, BodyOver4MiBIs413) {
  apply_example();
  std::string huge = kResearchQuotaSix;
  huge += "# " + std::string(size_t{4} << 20, 'x') + "\n";
  const nlohmann::json error = expect_refused("/api/v1/apply", huge, 413, "resource_exhausted");
  EXPECT_NE(error["message"].get<std::string>().find("4194304"), std::string::npos) << error;
}

TEST_F(ApplyTest, PlainTextContentTypeIs415) {
  apply_example();
  const nlohmann::json error = expect_refused("/api/v1/apply", kResearchQuotaSix, 415,
                                              "unsupported_media_type", "text/plain");
  EXPECT_NE(error["message"].get<std::string>().find("text/plain"), std::string::npos) << error;
}

TEST_F(ApplyTest, WorkloadNamespaceDifferentFromTheUrlIs400) {
  apply_example();
  const nlohmann::json error = expect_refused(
      "/api/v1/namespaces/research/workloads",
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w, namespace: vision-inference}\n"
      "spec:\n  priorityClass: batch\n  podSets: [{count: 1, resources: {gpu: 1}}]\n"
      "  command: [/bin/true]\n",
      400, "invalid_argument");
  EXPECT_NE(error["details"].get<std::string>().find("metadata.namespace"), std::string::npos)
      << error;
}

TEST_F(ApplyTest, DuplicateWorkloadNameIs409) {
  apply_example();
  const std::string workload =
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: sweep}\nspec:\n"
      "  priorityClass: batch\n  podSets: [{count: 1, resources: {gpu: 0, cpu: 1}}]\n"
      "  command: [/bin/true]\n";
  const Reply first = api_.post("/api/v1/namespaces/research/workloads", workload);
  ASSERT_EQ(first.status, 201) << first.describe();
  const nlohmann::json error =
      expect_refused("/api/v1/namespaces/research/workloads", workload, 409, "already_exists");
  EXPECT_NE(error["message"].get<std::string>().find("research/sweep"), std::string::npos) << error;
  const Reply list = api_.get("/api/v1/workloads");
  ASSERT_EQ(list.json["items"].size(), 1u) << list.body;
  EXPECT_EQ(list.json["items"][0]["metadata"]["uid"], first.json["metadata"]["uid"]);
}

TEST_F(ApplyTest, TopHasRowsForTheTeamsOfTheOrg) {
  apply_example();
  const Reply top = api_.get("/api/v1/top");
  ASSERT_EQ(top.status, 200) << top.describe();
  std::set<std::string> teams;
  for (const auto& row : top.json["teams"]) {
    teams.insert(row["team"].get<std::string>());
    EXPECT_EQ(row["cohort"], "org") << row;
    EXPECT_TRUE(row.contains("nominal") && row.contains("usage") && row.contains("borrowed") &&
                row.contains("lent"))
        << row;
  }
  EXPECT_EQ(teams, (std::set<std::string>{"llm-training", "research", "vision-inference"}));
}

// A team with no quota and no workload is still a row (issue 16: a platform
// engineer looks for the team just created): one GPU row of zeros.
TEST_F(ApplyTest, TopListsATeamWithNoQuotaAndNoUsage) {
  apply_example();
  apply(R"(apiVersion: allot/v1
kind: Team
metadata: {name: newcomers}
spec:
  cohort: org
  allowedPriorityClasses: [batch]
)");
  const Reply top = api_.get("/api/v1/top");
  ASSERT_EQ(top.status, 200) << top.describe();
  int rows = 0;
  for (const auto& row : top.json["teams"]) {
    if (row["team"] != "newcomers") continue;
    ++rows;
    EXPECT_EQ(row["cohort"], "org") << row;
    EXPECT_EQ(row["resource"], "gpu") << row;
    EXPECT_EQ(row["flavor"], "h100") << row;
    EXPECT_EQ(row["nominal"], "0") << row;
    EXPECT_EQ(row["usage"], "0") << row;
    EXPECT_EQ(row["pending"], 0) << row;
  }
  EXPECT_EQ(rows, 1) << top.body;
}

TEST_F(ApplyTest, TeamHasItsQuotaStatus) {
  apply_example();
  const Reply team = api_.get("/api/v1/teams/research");
  ASSERT_EQ(team.status, 200) << team.describe();
  const nlohmann::json& quota = team.json["status"]["quota"];
  ASSERT_EQ(quota.size(), 1u) << team.body;
  EXPECT_EQ(quota[0]["flavor"], "h100");
  EXPECT_EQ(quota[0]["resource"], "gpu");
  EXPECT_EQ(quota[0]["nominal"], "4");
  EXPECT_EQ(quota[0]["usage"], "0");
  EXPECT_EQ(quota[0]["pending"], 0);
}

}  // namespace
}  // namespace allot::server_test
