// Issue 11's cross-team matrix, through the control plane: users of three
// teams, each in each built-in role (bound by RoleBindings applied as
// manifests: by user, by group, and a service account per team), a platform
// admin (a ClusterRoleBinding) and a user with no binding.
//   1. Every verb x every resource x every namespace through AccessControl,
//      compared with what the built-in roles mean (an oracle written here
//      from DESIGN.md section 4, not from authz).
//   2. Every use case (list, get, events, logs, submit, cancel, delete,
//      apply and delete of RBAC objects, the cluster-scoped policy and nodes)
//      by every user in every team's namespace: allowed exactly when the
//      oracle allows, and a refusal changes nothing.
//   3. Zero leaks: no successful read shows a user the name of a workload of
//      a namespace where it may not list workloads.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "api/workload_submission.h"
#include "api/workload_view_json.h"
#include "authz/resource_catalog.h"
#include "control_plane_fixture.h"
#include "service/metrics/prometheus_text.h"

namespace allot::testing {
namespace {

const std::vector<std::string> kTeams = {"vision", "research", "prod"};
const std::vector<std::string> kRoles = {"cluster-admin", "team-admin", "team-member",
                                         "team-viewer"};

// Three teams of 8 GPUs on three 8-GPU nodes.
std::string three_team_policy() {
  std::string yaml = R"(apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: local, flavor: gpu, count: 3, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: spare}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10}
)";
  for (const std::string& team : kTeams) {
    yaml += "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: " + team +
            "}\nspec: {cohort: org, quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]}\n";
  }
  return yaml;
}

// Each team's bindings: cluster-admin and team-viewer by user, team-admin
// and team-member by group, team-member also to the service account `ci`.
std::string team_bindings(const std::string& team) {
  const auto binding = [&](const std::string& role, const std::string& subject) {
    return "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: " +
           role + ", namespace: " + team + "}\nsubjects: [" + subject +
           "]\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: " + role +
           "}\n";
  };
  return binding("cluster-admin", "{kind: User, name: " + team + ".cluster-admin}") +
         binding("team-admin", "{kind: Group, name: " + team + "-admins}") +
         binding("team-member",
                 "{kind: Group, name: " + team + "-members}, {kind: ServiceAccount, name: ci}") +
         binding("team-viewer", "{kind: User, name: " + team + ".team-viewer}");
}

struct TestUser {
  Principal principal;
  std::string team;  // where its RoleBinding is
  std::string role;  // "" none; "*" every right everywhere
};

std::vector<TestUser> test_users() {
  std::vector<TestUser> users;
  for (const std::string& team : kTeams) {
    users.push_back({Principal::user(team + ".cluster-admin"), team, "cluster-admin"});
    users.push_back(
        {Principal::user(team + ".team-admin", {team + "-admins"}), team, "team-admin"});
    users.push_back(
        {Principal::user(team + ".team-member", {team + "-members"}), team, "team-member"});
    users.push_back({Principal::user(team + ".team-viewer"), team, "team-viewer"});
    users.push_back(
        {Principal::user("system:serviceaccount:" + team + ":ci"), team, "team-member"});
  }
  users.push_back({Principal::user("platform"), "", "*"});
  users.push_back({Principal::user("nobody", {"everyone"}), "", ""});
  return users;
}

bool contains(const std::set<std::string>& set, const std::string& item) {
  return set.contains(item);
}

// What the built-in roles mean (DESIGN.md section 4), independently of authz.
bool role_grants(const std::string& role, const std::string& verb, const std::string& resource) {
  if (role == "cluster-admin") return true;
  const std::set<std::string> reads = {"get", "list", "watch"};
  const std::set<std::string> team_reads = {"workloads", "workloads/logs", "events",
                                            "reports",   "metrics",        "budgets"};
  // A team's Budgets and policy exceptions: read by each of its roles in its
  // namespace, never written, but a team-admin requests (create, update)
  // policy exceptions for its team.
  if (resource == "budgets" || resource == "policyexceptions") {
    return (role != "" && contains(reads, verb)) ||
           (role == "team-admin" && resource == "policyexceptions" &&
            contains({"create", "update"}, verb));
  }
  if (role == "team-admin") {
    return contains({"get", "list", "watch", "create", "update", "patch", "delete",
                     "deletecollection", "cancel"},
                    verb) &&
           contains({"workloads", "workloads/logs", "workloads/exec", "workloads/scale",
                     "workloads/checkpoint", "workloads/resume", "events", "reports", "metrics",
                     "serviceaccounts", "serviceaccounts/token", "roles", "rolebindings"},
                    resource);
  }
  const bool reading = contains(reads, verb) && contains(team_reads, resource);
  if (role == "team-member") {
    return reading || ((verb == "create" || verb == "cancel") && resource == "workloads") ||
           (verb == "create" && resource == "workloads/checkpoint") ||
           (verb == "update" && resource == "workloads/resume");
  }
  if (role == "team-viewer") return reading;
  return false;
}

bool expected(const TestUser& user, const std::string& verb, const std::string& resource,
              const std::string& ns) {
  if (user.role == "*") return true;
  if (user.role.empty() || ns.empty() || ns != user.team) return false;
  return role_grants(user.role, verb, resource);
}

std::string job(const std::string& ns, const std::string& what) { return ns + "job-" + what; }

class CrossTeamAccess : public ControlPlaneTest {
 protected:
  void SetUp() override {
    std::string rbac = R"(apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: platform}
subjects: [{kind: User, name: platform}]
roleRef: {kind: ClusterRole, name: cluster-admin}
)";
    for (const std::string& team : kTeams) rbac += team_bindings(team);
    apply_policy(three_team_policy() + "---\n" + rbac);
    for (const std::string& team : kTeams) {
      submit(workload_yaml(job(team, "run"), team, 2), team);
      submit(workload_yaml(job(team, "wait"), team, 8, 4), team);  // more than the cluster
    }
    plane_->loop().run_once();
    ASSERT_NE(phase("vision", job("vision", "run")), "Pending");
    ASSERT_EQ(phase("vision", job("vision", "wait")), "Pending");
  }

  Status submit_as(const Principal& caller, const std::string& ns, const std::string& name) {
    const WorkloadId id = plane_->workloads().allocate_id();
    ALLOT_ASSIGN_OR_RETURN(Workload workload,
                           decode_workload_submission(workload_yaml(name, ns, 1), ns, id));
    return plane_->workloads().create(caller, workload, id).status();
  }
  Status apply_as(const Principal& caller, const std::string& yaml) {
    ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(yaml));
    return plane_->policies().apply(caller, parsed, false).status();
  }

  // Records one outcome: allowed iff expected, and what a successful read showed.
  void check(const TestUser& user, const std::string& what, bool allowed, const Status& status,
             const std::string& shown = {}) {
    ++calls_;
    const std::string label = user.principal.subject + ": " + what;
    if (allowed) {
      EXPECT_NE(status.code(), ErrorCode::kPermissionDenied) << label << ": " << status.message();
      if (status.ok()) seen_[user.principal.subject] += shown + "\n";
    } else {
      EXPECT_EQ(status.code(), ErrorCode::kPermissionDenied) << label << ": " << status.to_string();
    }
  }

  void reads_in(const TestUser& user, const std::string& ns) {
    WorkloadQuery query;
    query.namespace_name = ns;
    const Result<WorkloadPage> page = plane_->workloads().list(user.principal, query);
    check(user, "list workloads in " + ns, expected(user, "list", "workloads", ns), page.status(),
          page.ok() ? encode_workload_page(*page) : "");
    for (const std::string& name : {job(ns, "run"), job(ns, "wait")}) {
      const Result<WorkloadView> view = plane_->workloads().get(user.principal, ns, name);
      check(user, "get " + name, expected(user, "get", "workloads", ns), view.status(),
            view.ok() ? workload_view_json(*view).dump() : "");
    }
    const auto events = plane_->workloads().events(user.principal, ns, job(ns, "run"));
    check(user, "events in " + ns, expected(user, "list", "events", ns), events.status(),
          events.ok() ? workload_events_json(*events).dump() : "");
    const Result<LogChunk> log = plane_->workloads().log(user.principal, ns, job(ns, "run"), 0, 0);
    check(user, "logs in " + ns, expected(user, "get", "workloads/logs", ns), log.status(),
          log.ok() ? log->data : "");
    const auto bindings = plane_->policies().list_objects(user.principal, "RoleBinding", ns);
    check(user, "list rolebindings in " + ns, expected(user, "list", "rolebindings", ns),
          bindings.status());
    const auto binding =
        plane_->policies().get_object(user.principal, "RoleBinding", "team-viewer", ns);
    check(user, "get rolebinding in " + ns, expected(user, "get", "rolebindings", ns),
          binding.status());
  }

  void writes_in(const TestUser& user, size_t index, const std::string& ns) {
    const std::string mine = job(ns, "target-" + std::to_string(index));
    check(user, "submit in " + ns, expected(user, "create", "workloads", ns),
          submit_as(user.principal, ns, job(ns, "new-" + std::to_string(index))));
    const std::string before = phase(ns, mine);
    const auto cancelled = plane_->workloads().cancel(user.principal, ns, mine);
    check(user, "cancel in " + ns, expected(user, "cancel", "workloads", ns), cancelled.status());
    if (!cancelled.ok()) {
      EXPECT_EQ(phase(ns, mine), before) << "a refusal changes nothing";
    }
    check(user, "delete in " + ns, expected(user, "delete", "workloads", ns),
          plane_->workloads().remove(user.principal, ns, mine));
    const std::string name = "granted-" + std::to_string(index);
    const std::string viewer = "apiVersion: allot/v1\nkind: RoleBinding\nmetadata: {name: " + name +
                               ", namespace: " + ns +
                               "}\nsubjects: [{kind: User, name: someone}]\n"
                               "roleRef: {kind: ClusterRole, name: team-viewer}\n";
    check(user, "bind team-viewer in " + ns, expected(user, "create", "rolebindings", ns),
          apply_as(user.principal, viewer));
    std::string admin = viewer;
    admin.replace(admin.find("team-viewer"), 11, "cluster-admin");
    admin.replace(admin.find(name), name.size(), "escalated-" + std::to_string(index));
    check(user, "bind cluster-admin in " + ns,
          user.role == "*" || (user.role == "cluster-admin" && user.team == ns),
          apply_as(user.principal, admin));
    check(user, "delete rolebinding in " + ns, expected(user, "delete", "rolebindings", ns),
          plane_->policies().delete_object(user.principal, "RoleBinding", name, ns));
    check(user, "create role in " + ns, expected(user, "create", "roles", ns),
          apply_as(user.principal, "apiVersion: allot/v1\nkind: Role\nmetadata: {name: r" +
                                       std::to_string(index) + ", namespace: " + ns +
                                       "}\nrules: [{verbs: [get], apiGroups: [allot], "
                                       "resources: [workloads]}]\n"));
  }

  void cluster_calls(const TestUser& user, size_t index) {
    const bool all = user.role == "*";
    check(user, "list teams", all,
          plane_->policies().list_objects(user.principal, "Team").status());
    check(user, "get team", all,
          plane_->policies().get_object(user.principal, "Team", "vision").status());
    check(user, "apply cohort", all,
          apply_as(user.principal, "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: c" +
                                       std::to_string(index) + "}\n"));
    check(user, "list nodes", all, plane_->nodes().list(user.principal, {}).status());
    check(user, "cordon node", all,
          plane_->nodes().act(user.principal, "pool-0", NodeAction::kUncordon).status());
    check(user, "list clusterroles", all,
          plane_->policies().list_objects(user.principal, "ClusterRole").status());
    check(user, "create clusterrolebinding", all,
          apply_as(user.principal,
                   "apiVersion: allot/v1\nkind: ClusterRoleBinding\nmetadata: "
                   "{name: crb" +
                       std::to_string(index) +
                       "}\nsubjects: [{kind: User, name: x}]\nroleRef: {kind: "
                       "ClusterRole, name: team-viewer}\n"));
    check(user, "delete cohort", all,
          plane_->policies().delete_object(user.principal, "Cohort", "spare"));
    const Result<WorkloadPage> everywhere = plane_->workloads().list(user.principal, {});
    check(user, "list every workload", true, everywhere.status(),
          everywhere.ok() ? encode_workload_page(*everywhere) : "");
    // Sorted (another path through the table): the same workloads, no others.
    WorkloadQuery by_user;
    by_user.sort = {WorkloadSortKey::kUser, true};
    const Result<WorkloadPage> sorted = plane_->workloads().list(user.principal, by_user);
    check(user, "list every workload by -user", true, sorted.status(),
          sorted.ok() ? encode_workload_page(*sorted) : "");
    if (sorted.ok() && everywhere.ok()) {
      EXPECT_EQ(sorted->items.size(), everywhere->items.size()) << user.principal.subject;
    }
    const Result<TopView> top = plane_->policies().top(user.principal);
    // Aggregate numbers, for whoever may list workloads somewhere; nothing
    // for a caller with no binding.
    check(user, "top",
          expected(user, "list", "workloads", user.team.empty() ? "vision" : user.team),
          top.status(), top.ok() ? top_json(*top).dump() : "");
    // Usage by workload: a team's roles see their team's rows only (workload names show it).
    const UsageReportRequest usage{clock_.now() - Duration::hours(1),
                                   clock_.now(),
                                   {GroupKey::kWorkload},
                                   IdleMode::kSeparate};
    const Result<UsageReportResult> report = plane_->reports().usage(user.principal, usage);
    std::string rows;
    if (report.ok()) {
      for (const UsageRow& row : report->report.rows) rows += row.keys.front() + "\n";
    }
    check(user, "usage report",
          expected(user, "get", "reports", user.team.empty() ? "vision" : user.team),
          report.status(), rows);
    // /metrics: a team's roles see their team's series only.
    const Result<MetricsSnapshot> metrics = plane_->metrics().snapshot(user.principal);
    check(user, "metrics",
          expected(user, "get", "metrics", user.team.empty() ? "vision" : user.team),
          metrics.status());
    if (metrics.ok()) {
      const std::string text = render_prometheus(*metrics);
      for (const std::string& ns : kTeams) {
        EXPECT_EQ(text.find("team=\"" + ns + "\"") == std::string::npos,
                  !expected(user, "get", "metrics", ns))
            << user.principal.subject << " and the metrics of " << ns;
      }
    }
  }

  size_t calls_ = 0;
  std::map<std::string, std::string> seen_;  // what each user's successful reads showed
};

TEST_F(CrossTeamAccess, EveryVerbOnEveryResourceInEveryNamespaceIsWhatTheRolesMean) {
  const std::vector<std::string> namespaces = {"vision", "research", "prod", "elsewhere", ""};
  size_t decisions = 0;
  size_t wrong = 0;
  for (const TestUser& user : test_users()) {
    for (std::string_view verb : allot_verbs()) {
      for (const ResourceInfo& resource : allot_resources()) {
        for (const std::string& ns : namespaces) {
          if (!resource.namespaced && !ns.empty()) continue;
          const std::string v(verb);
          const std::string r(resource.name);
          const bool allowed = plane_->access().authorize(user.principal, v, r, ns).ok();
          ++decisions;
          if (allowed != expected(user, v, r, ns) && ++wrong <= 10) {
            ADD_FAILURE() << user.principal.subject << " " << v << " " << r << " in '" << ns
                          << "': " << (allowed ? "allowed" : "denied");
          }
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0u);
  // 13 namespaced resources in 5 namespaces, 16 cluster-scoped ones (among
  // them auditevents: the audit log, cluster-admin's only; budgets; signals;
  // organizations, contracts, contracts/evidence and policyexceptions).
  EXPECT_EQ(decisions, test_users().size() * allot_verbs().size() * (13 * 5 + 16));
}

TEST_F(CrossTeamAccess, EveryUseCaseIsAllowedExactlyWhereTheRolesSayAndNothingLeaks) {
  const std::vector<TestUser> users = test_users();
  for (size_t i = 0; i < users.size(); ++i) {
    for (const std::string& ns : kTeams) {
      ASSERT_NE(submit(workload_yaml(job(ns, "target-" + std::to_string(i)), ns, 1), ns), 0u);
    }
  }
  clock_.advance(Duration::minutes(1));  // usage to report
  for (size_t i = 0; i < users.size(); ++i) {
    for (const std::string& ns : kTeams) {
      reads_in(users[i], ns);
      writes_in(users[i], i, ns);
    }
    cluster_calls(users[i], i);
  }
  EXPECT_GT(calls_, users.size() * kTeams.size() * 13);
  for (const TestUser& user : users) {
    const std::string& shown = seen_[user.principal.subject];
    for (const std::string& ns : kTeams) {
      if (expected(user, "list", "workloads", ns)) {
        EXPECT_NE(shown.find(job(ns, "run")), std::string::npos) << user.principal.subject;
      } else {
        EXPECT_EQ(shown.find(ns + "job-"), std::string::npos)
            << user.principal.subject << " saw a workload of " << ns;
      }
    }
  }
}

}  // namespace
}  // namespace allot::testing
