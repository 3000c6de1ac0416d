// Issue 11, item 4, through a real allotd over HTTP: Roles, ClusterRoles and
// bindings applied as manifests (Kubernetes RBAC files as they are), read
// and deleted through the REST API, enforced from the next request, kept
// across a restart; escalation refused with 403 and the reason; and a slice
// of the cross-team matrix (users of two teams and a user with no binding).
//
// Users other than the first administrator get API tokens the way allotd
// stores them (identity/credentials/api_token.h: the record, its hash only),
// written into the data folder's SQLite store while allotd is stopped: a
// test-only path, not a route (kind "ApiToken", as AccessControl stores them).
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"
#include "identity/credentials/api_token.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::server_test {
namespace {

struct TestUser {
  std::string name;
  std::vector<std::string> groups;
};

// A RoleBinding binding `user` to the ClusterRole `role` in `ns`.
std::string binding(const std::string& ns, const std::string& name, const std::string& user,
                    const std::string& role) {
  return "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: " + name +
         ", namespace: " + ns + "}\nsubjects: [{kind: User, name: " + user +
         "}]\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: " + role +
         "}\n";
}

// A Kubernetes RBAC file as Kubernetes users write them: annotations,
// apiGroup on subjects and roleRef, the core group "", resourceNames.
constexpr const char* kKubernetesRbac = R"(# research's on-call may read logs and cancel
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: log-reader
  labels: {team: platform}
  annotations: {rbac.authorization.kubernetes.io/autoupdate: "true"}
rules:
- apiGroups: ["allot"]
  resources: ["workloads", "workloads/logs"]
  verbs: ["get", "list", "watch"]
- apiGroups: [""]
  resources: ["configmaps"]
  resourceNames: ["on-call"]
  verbs: ["get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: canceller
  namespace: research
rules:
- apiGroups: ["allot"]
  resources: ["workloads"]
  verbs: ["cancel"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: on-call
  namespace: research
subjects:
- kind: Group
  name: research-on-call
  apiGroup: rbac.authorization.k8s.io
- kind: ServiceAccount
  name: pager
  namespace: research
roleRef:
  kind: Role
  name: canceller
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: on-call-logs
subjects:
- kind: Group
  name: research-on-call
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: ClusterRole
  name: log-reader
  apiGroup: rbac.authorization.k8s.io
)";

class RbacHttpTest : public AllotdTest {
 protected:
  // Stops allotd, stores an API token for each user, starts allotd again.
  void issue_tokens(const std::vector<TestUser>& users) {
    const ProcessExit exit = allotd_.stop();
    ASSERT_TRUE(exit.exited && exit.code == 0);
    {
      Result<std::unique_ptr<SqliteStore>> store =
          SqliteStore::open((allotd_.data_dir() / "allot.db").string());
      ASSERT_TRUE(store.ok()) << store.status().to_string();
      WriteBatch batch;
      const Timestamp now = Timestamp::from_millis(1'800'000'000'000);
      for (const TestUser& user : users) {
        identity::IssuedApiToken issued =
            identity::issue_api_token(user.name, user.name, user.groups, now);
        batch.put_objects.push_back(
            {"ApiToken", issued.record.id, identity::api_token_record_json(issued.record).dump()});
        tokens_[user.name] = issued.token;
      }
      ASSERT_TRUE((*store)->commit(std::move(batch)).ok());
    }
    ASSERT_EQ(allotd_.start(), "");
  }

  Reply call(const std::string& user, const std::string& method, const std::string& path,
             const std::string& body = "") const {
    httplib::Client http("127.0.0.1", allotd_.port());
    http.set_read_timeout(std::chrono::seconds(30));
    http.set_bearer_token_auth(tokens_.at(user));
    httplib::Result res = method == "GET"    ? http.Get(path)
                          : method == "POST" ? http.Post(path, body, "application/yaml")
                                             : http.Delete(path);
    Reply reply;
    if (!res) return reply;
    reply.status = res->status;
    reply.body = res->body;
    reply.json = nlohmann::json::parse(res->body, nullptr, false);
    return reply;
  }

  std::map<std::string, std::string> tokens_;
};

TEST_F(RbacHttpTest, ABindingGrantsItsUserOnTheNextRequestAndItsDeleteTakesItAway) {
  apply(kTestPolicy);
  submit("research", "r1", {.script = "sleep 600"});
  issue_tokens({{"ana", {}}, {"bob", {"research-engineers"}}});
  EXPECT_EQ(call("ana", "GET", "/api/v1/namespaces/research/workloads").status, 403);

  const Reply applied =
      api_.post("/api/v1/apply", binding("research", "members", "ana", "team-member") +
                                     "---\n"
                                     "apiVersion: allot/v1\nkind: RoleBinding\n"
                                     "metadata: {name: engineers, namespace: research}\n"
                                     "subjects: [{kind: Group, name: research-engineers}]\n"
                                     "roleRef: {kind: ClusterRole, name: team-viewer}\n");
  ASSERT_EQ(applied.status, 200) << applied.describe();
  EXPECT_EQ(applied.json["changes"][0]["namespace"], "research");
  EXPECT_EQ(applied.json["changes"][0]["name"], "members");
  EXPECT_EQ(applied.json["changes"][0]["action"], "created");

  const Reply listed = call("ana", "GET", "/api/v1/namespaces/research/workloads");
  ASSERT_EQ(listed.status, 200) << listed.describe();
  EXPECT_EQ(listed.json["items"].size(), 1u);
  EXPECT_EQ(call("bob", "GET", "/api/v1/namespaces/research/workloads/r1").status, 200);
  EXPECT_EQ(call("bob", "POST", "/api/v1/namespaces/research/workloads/r1/cancel").status, 403);
  const Reply got = api_.get("/api/v1/namespaces/research/rolebindings/members");
  ASSERT_EQ(got.status, 200) << got.describe();
  EXPECT_EQ(got.json["roleRef"]["name"], "team-member");
  EXPECT_EQ(got.json["metadata"]["namespace"], "research");
  EXPECT_EQ(api_.get("/api/v1/rolebindings").json["items"].size(), 2u);
  EXPECT_EQ(api_.get("/api/v1/namespaces/prod/rolebindings").json["items"].size(), 0u);

  const Reply deleted = api_.del("/api/v1/namespaces/research/rolebindings/members");
  ASSERT_EQ(deleted.status, 200) << deleted.describe();
  EXPECT_EQ(deleted.json["deleted"], "RoleBinding/research/members");
  EXPECT_EQ(call("ana", "GET", "/api/v1/namespaces/research/workloads").status, 403);
  EXPECT_EQ(api_.get("/api/v1/namespaces/research/rolebindings/members").status, 404);
}

TEST_F(RbacHttpTest, EscalationIsRefusedWith403AndTheAuthorizersReason) {
  apply(kTestPolicy);
  issue_tokens({{"lead", {}}});
  apply(binding("research", "leads", "lead", "team-admin"));

  const Reply member =
      call("lead", "POST", "/api/v1/apply", binding("research", "carl", "carl", "team-member"));
  EXPECT_EQ(member.status, 200) << member.describe();
  const Reply admin = call("lead", "POST", "/api/v1/apply",
                           binding("research", "carl-admin", "carl", "cluster-admin"));
  EXPECT_EQ(admin.status, 403) << admin.describe();
  EXPECT_EQ(admin.json["code"], "permission_denied");
  EXPECT_NE(admin.json["message"].get<std::string>().find(
                "User \"lead\" cannot create RoleBinding \"research/carl-admin\""),
            std::string::npos)
      << admin.describe();
  EXPECT_EQ(admin.json["details"], "RoleBinding/research/carl-admin");
  EXPECT_EQ(
      call("lead", "POST", "/api/v1/apply", binding("prod", "carl", "carl", "team-viewer")).status,
      403)
      << "not in another team's namespace";
  EXPECT_EQ(call("lead", "DELETE", "/api/v1/namespaces/prod/rolebindings/carl").status, 403);
  EXPECT_EQ(call("lead", "DELETE", "/api/v1/namespaces/research/rolebindings/carl").status, 200);
  EXPECT_EQ(call("lead", "DELETE", "/api/v1/clusterroles/team-admin").status, 403);
  EXPECT_EQ(api_.del("/api/v1/clusterroles/team-admin").status, 409) << "a built-in";
}

TEST_F(RbacHttpTest, AKubernetesRbacFileAppliesAsItIsAndSurvivesARestart) {
  apply(kTestPolicy);
  submit("research", "r1", {.script = "sleep 600"});
  issue_tokens({{"olga", {"research-on-call"}}, {"system:serviceaccount:research:pager", {}}});

  const Reply dry = api_.post("/api/v1/apply?dryRun=true", kKubernetesRbac);
  ASSERT_EQ(dry.status, 200) << dry.describe();
  EXPECT_EQ(dry.json["changes"].size(), 4u);
  EXPECT_EQ(call("olga", "GET", "/api/v1/namespaces/research/workloads/r1/logs").status, 403)
      << "a dry run grants nothing";
  const Reply applied = api_.post("/api/v1/apply", kKubernetesRbac);
  ASSERT_EQ(applied.status, 200) << applied.describe();
  ASSERT_EQ(allotd_.restart(), "");

  EXPECT_EQ(call("olga", "GET", "/api/v1/namespaces/research/workloads/r1/logs").status, 200);
  EXPECT_EQ(call("olga", "GET", "/api/v1/namespaces/prod/workloads").status, 200)
      << "a ClusterRoleBinding grants everywhere";
  EXPECT_EQ(call("olga", "POST", "/api/v1/namespaces/research/workloads/r1/cancel").status, 200);
  EXPECT_EQ(call("system:serviceaccount:research:pager", "GET",
                 "/api/v1/namespaces/research/workloads/r1")
                .status,
            403)
      << "the Role grants cancel only";
  const Reply role = api_.get("/api/v1/clusterroles/log-reader");
  ASSERT_EQ(role.status, 200);
  EXPECT_EQ(role.json["apiVersion"], "rbac.authorization.k8s.io/v1");
  EXPECT_EQ(role.json["rules"][1]["resourceNames"][0], "on-call");
  const Reply roles = api_.get("/api/v1/clusterroles");
  ASSERT_EQ(roles.status, 200);
  EXPECT_EQ(roles.json["items"].size(), 6u) << "the five built-ins and log-reader";
  EXPECT_EQ(api_.get("/api/v1/clusterrolebindings/system:admins").status, 200);
  EXPECT_EQ(api_.get("/api/v1/namespaces/research/roles/canceller").json["rules"][0]["verbs"][0],
            "cancel");
}

TEST_F(RbacHttpTest, UsersOfOneTeamNeitherSeeNorTouchAnothersWork) {
  apply(kTestPolicy);
  submit("prod", "prod-secret", {.script = "sleep 600"});
  submit("research", "research-sweep", {.script = "sleep 600"});
  issue_tokens({{"rita", {}}, {"pete", {}}, {"nobody", {}}});
  apply(binding("research", "rita", "rita", "team-viewer") + "---\n" +
        binding("prod", "pete", "pete", "team-member"));

  const std::map<std::string, std::string> own = {{"rita", "research"}, {"pete", "prod"}};
  for (const auto& [user, ns] : own) {
    const std::string other = ns == "prod" ? "research" : "prod";
    const std::string foreign = other == "prod" ? "prod-secret" : "research-sweep";
    const Reply everything = call(user, "GET", "/api/v1/workloads");
    ASSERT_EQ(everything.status, 200);
    EXPECT_EQ(everything.json["items"].size(), 1u) << user;
    EXPECT_EQ(everything.body.find(foreign), std::string::npos) << user << " saw " << foreign;
    for (const std::string& path :
         {"/api/v1/namespaces/" + other + "/workloads",
          "/api/v1/namespaces/" + other + "/workloads/" + foreign,
          "/api/v1/namespaces/" + other + "/workloads/" + foreign + "/events",
          "/api/v1/namespaces/" + other + "/workloads/" + foreign + "/logs",
          "/api/v1/namespaces/" + other + "/rolebindings"}) {
      EXPECT_EQ(call(user, "GET", path).status, 403) << user << " GET " << path;
    }
    EXPECT_EQ(
        call(user, "POST", "/api/v1/namespaces/" + other + "/workloads/" + foreign + "/cancel")
            .status,
        403);
    EXPECT_EQ(call(user, "DELETE", "/api/v1/namespaces/" + other + "/workloads/" + foreign).status,
              403);
    EXPECT_EQ(call(user, "GET", "/api/v1/rolebindings").json["items"].size(), 0u)
        << "neither role may list bindings";
  }
  EXPECT_EQ(call("nobody", "GET", "/api/v1/workloads").json["items"].size(), 0u);
  EXPECT_EQ(call("pete", "POST", "/api/v1/namespaces/prod/workloads/prod-secret/cancel").status,
            200);
  EXPECT_EQ(phase_of(wait_phase("research", "research-sweep", "Running")), "Running")
      << "untouched";
}

}  // namespace
}  // namespace allot::server_test
