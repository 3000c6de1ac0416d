// Issue 15, items 2 to 4, over HTTP against a real allotd: contracts applied
// by one directory user and approved by another through
// POST /api/v1/contracts/{name}/{action}; self-approval, a caller without
// the contract-approver role and another team's member refused with 403; a
// missing reason 400; the wrong phase 409; each transition in the audit log
// with its verb; the contract's status served with its history. A revocation
// (item 5) stops the project's running pod (real processes) with its grace
// and cancels its pending work, removes its RoleBindings (its member loses
// access), and leaves another project's work running.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "contract_documents.h"
#include "scim_client.h"

namespace allot::server_test {
namespace {

using json = nlohmann::json;

class ContractHttpTest : public ScimTest {
 protected:
  void SetUp() override {
    ScimTest::SetUp();
    for (const char* user : {"ana", "bob", "carol"}) create_user(user, "allot-canary-pw-contract");
    create_group("ml-ops");
    const Reply applied = call("POST", "/api/v1/apply", allotd_.admin_token(),
                               std::string(kTestPolicy) + kContractGovernance);
    ASSERT_EQ(applied.status, 200) << applied.describe();
    // Only a cluster admin opens a cluster-wide session: the approvers log in
    // as contract-approver (cluster scope), carol as a member of her team.
    for (const char* user : {"ana", "bob"}) {
      tokens_[user] = login(user, "allot-canary-pw-contract", "contract-approver");
      ASSERT_FALSE(tokens_[user].empty()) << user;
    }
    tokens_["carol"] = login("carol", "allot-canary-pw-contract", "team-member", "research");
    ASSERT_FALSE(tokens_["carol"].empty());
  }

  Reply act(const std::string& who, const std::string& action, const std::string& body) {
    return call("POST", "/api/v1/contracts/research-local/" + action, tokens_.at(who), body);
  }

  std::map<std::string, std::string> tokens_;
};

TEST_F(ContractHttpTest, TransitionsAreAuthorisedByRoleAndNeverByTheRequester) {
  const Reply created = call("POST", "/api/v1/apply", tokens_.at("ana"), kResearchContract);
  ASSERT_EQ(created.status, 200) << created.describe();
  const std::string reason = R"({"reason": "data owner agreed"})";
  EXPECT_EQ(act("ana", "approve", reason).status, 403) << "the requester";
  EXPECT_EQ(act("carol", "approve", reason).status, 403) << "no contract-approver role";
  EXPECT_EQ(call("GET", "/api/v1/contracts", tokens_.at("carol")).status, 403);
  EXPECT_EQ(act("bob", "approve", "{}").status, 400);
  EXPECT_EQ(act("bob", "renew", reason).status, 409);
  const Reply approved = act("bob", "approve", reason);
  ASSERT_EQ(approved.status, 200) << approved.describe();
  EXPECT_EQ(approved.json["status"]["phase"], "Approved");
  const Reply active = act("ana", "activate", R"({"reason": "go live"})");
  ASSERT_EQ(active.status, 200) << active.describe();

  const Reply got = call("GET", "/api/v1/contracts/research-local", tokens_.at("bob"));
  ASSERT_EQ(got.status, 200) << got.describe();
  EXPECT_EQ(got.json["status"]["phase"], "Active");
  EXPECT_EQ(got.json["status"]["requestedBy"], "ana");
  EXPECT_EQ(got.json["status"]["history"][1]["by"], "bob");
  EXPECT_EQ(got.json["status"]["history"][1]["reason"], "data owner agreed");

  // Each transition is in the audit log as its own verb on contracts.
  const Reply audit = call("GET", "/api/v1/audit?verb=approve", allotd_.admin_token());
  ASSERT_EQ(audit.status, 200) << audit.describe();
  const json items = audit.json.value("items", json::array());
  size_t allowed = 0;
  for (const json& record : items) {
    EXPECT_EQ(record["objectRef"]["resource"], "contracts");
    if (record["responseStatus"]["code"] == 200) {
      ++allowed;
      EXPECT_EQ(record["user"]["username"], "bob");
    }
  }
  EXPECT_EQ(items.size(), 4u) << audit.body;  // 403, 403, 400, 200 (renew is its own verb)
  EXPECT_EQ(allowed, 1u);
}

// The web UI's cookie session (POST /ui/session) of a user whose only right
// is the contract-approver ClusterRole: it opens with that role and no team,
// acts on contracts (with the CSRF header), and sees no workload, node,
// quota or metric: what its API session sees.
TEST_F(ContractHttpTest, ABrowserSessionOfAContractApproverActsOnContractsOnly) {
  ASSERT_EQ(call("POST", "/api/v1/apply", tokens_.at("ana"), kResearchContract).status, 200);
  submit("research", "hidden-job", {.script = "sleep 300", .gpus = 1});
  httplib::Client http("127.0.0.1", allotd_.port());
  http.set_read_timeout(std::chrono::seconds(30));
  const json login_body = {
      {"username", "bob"}, {"password", "allot-canary-pw-contract"}, {"role", "contract-approver"}};
  const httplib::Result opened = http.Post("/ui/session", login_body.dump(), "application/json");
  ASSERT_TRUE(opened);
  ASSERT_EQ(opened->status, 201) << opened->body;
  const json session = json::parse(opened->body);
  EXPECT_EQ(session["role"], "contract-approver");
  EXPECT_EQ(session["team"], "");
  const std::string set_cookie = opened->get_header_value("Set-Cookie");
  const httplib::Headers cookie = {{"Cookie", set_cookie.substr(0, set_cookie.find(';'))}};
  httplib::Headers with_csrf = cookie;
  with_csrf.emplace("X-CSRF-Token", session["csrfToken"].get<std::string>());

  const std::string reason = R"({"reason": "reviewed in the browser"})";
  const std::string approve = "/api/v1/contracts/research-local/approve";
  const httplib::Result bare = http.Post(approve, cookie, reason, "application/json");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->status, 403) << "no CSRF header: " << bare->body;
  const httplib::Result approved = http.Post(approve, with_csrf, reason, "application/json");
  ASSERT_TRUE(approved);
  ASSERT_EQ(approved->status, 200) << approved->body;
  EXPECT_EQ(json::parse(approved->body)["status"]["approvedBy"], "bob");
  const httplib::Result contracts = http.Get("/api/v1/contracts", cookie);
  ASSERT_TRUE(contracts);
  EXPECT_EQ(contracts->status, 200) << contracts->body;

  const httplib::Result workloads = http.Get("/api/v1/workloads", cookie);
  ASSERT_TRUE(workloads);
  EXPECT_EQ(workloads->body.find("hidden-job"), std::string::npos) << workloads->body;
  for (const char* path : {"/api/v1/top", "/api/v1/top/stats", "/api/v1/nodes", "/metrics",
                           "/api/v1/namespaces/research/workloads/hidden-job"}) {
    const httplib::Result refused = http.Get(path, cookie);
    ASSERT_TRUE(refused) << path;
    EXPECT_EQ(refused->status, 403) << path << ": " << refused->body;
  }
  // A cluster-wide session (no role) stays a cluster admin's.
  const json wide = {{"username", "bob"}, {"password", "allot-canary-pw-contract"}};
  const httplib::Result refused = http.Post("/ui/session", wide.dump(), "application/json");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 403) << refused->body;
}

TEST_F(ContractHttpTest, RevocationStopsTheProjectsPodsRemovesItsBindingsAndSparesOthers) {
  std::string prod_contract = kResearchContract;
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"name: research-local", "name: prod-local"},
           {"project: research", "project: prod"},
           {"namespaces: [research]", "namespaces: [prod]"}}) {
    prod_contract.replace(prod_contract.find(from), from.size(), to);
  }
  for (const std::string& contract : {std::string(kResearchContract), prod_contract}) {
    ASSERT_EQ(call("POST", "/api/v1/apply", tokens_.at("ana"), contract).status, 200);
  }
  for (const char* name : {"research-local", "prod-local"}) {
    const std::string path = std::string("/api/v1/contracts/") + name + "/";
    ASSERT_EQ(call("POST", path + "approve", tokens_.at("bob"), R"({"reason": "ok"})").status, 200);
    ASSERT_EQ(call("POST", path + "activate", tokens_.at("ana"), R"({"reason": "go"})").status,
              200);
  }
  // Pods that run until stopped; research's second job waits for GPUs.
  submit("research", "long", {.script = "sleep 300", .gpus = 4});
  submit("prod", "other", {.script = "sleep 300", .gpus = 4});
  wait_phase("research", "long", "Running");
  wait_phase("prod", "other", "Running");
  submit("research", "queued", {.script = "true", .gpus = 4, .pods = 2});
  EXPECT_EQ(call("GET", "/api/v1/namespaces/research/workloads", tokens_.at("carol")).status, 200);

  const Reply revoked = act("bob", "revoke", R"({"reason": "project ended"})");
  ASSERT_EQ(revoked.status, 200) << revoked.describe();
  EXPECT_EQ(revoked.json["status"]["phase"], "Revoked");
  EXPECT_EQ(workload("research", "queued")["status"]["phase"], "Cancelled");
  const nlohmann::json stopped = wait_phase("research", "long", "Cancelled");
  EXPECT_EQ(stopped["status"]["phase"], "Cancelled") << stopped.dump();
  const std::vector<std::string> types = event_types("research", "long");
  EXPECT_NE(std::find(types.begin(), types.end(), "Warning"), types.end());
  EXPECT_EQ(workload("prod", "other")["status"]["phase"], "Running") << "another project's";

  // Research's RoleBinding is gone: carol no longer sees the namespace.
  const Reply bindings =
      call("GET", "/api/v1/namespaces/research/rolebindings", allotd_.admin_token());
  ASSERT_EQ(bindings.status, 200) << bindings.describe();
  EXPECT_TRUE(bindings.json["items"].empty()) << bindings.body;
  EXPECT_EQ(call("GET", "/api/v1/namespaces/research/workloads", tokens_.at("carol")).status, 403);

  // Audited as allotd's own acts.
  const Reply audit = call("GET", "/api/v1/audit?user=system:allotd", allotd_.admin_token());
  ASSERT_EQ(audit.status, 200) << audit.describe();
  std::vector<std::string> acts;
  for (const json& record : audit.json.value("items", json::array())) {
    if (record["verb"] == "cancel" || record["verb"] == "delete") {
      acts.push_back(record["verb"].get<std::string>() + " " +
                     record["objectRef"]["resource"].get<std::string>() + " " +
                     record["objectRef"]["name"].get<std::string>());
    }
  }
  EXPECT_EQ(acts, (std::vector<std::string>{"delete rolebindings members", "cancel workloads long",
                                            "cancel workloads queued"}))
      << audit.body;
}

}  // namespace
}  // namespace allot::server_test
