// Issue 15, items 2 to 4, over HTTP against a real allotd: contracts applied
// by one directory user and approved by another through
// POST /api/v1/contracts/{name}/{action}; self-approval, a caller without
// the contract-approver role and another team's member refused with 403; a
// missing reason 400; the wrong phase 409; each transition in the audit log
// with its verb; the contract's status served with its history.
#include <string>

#include <gtest/gtest.h>
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

}  // namespace
}  // namespace allot::server_test
