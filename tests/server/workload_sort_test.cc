// Sorted workload listings against a real allotd: every `sort` key, paged
// with `continue` across page boundaries, and the 400s (docs/api.md).
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

class WorkloadSortTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
    // Names out of uid order, two namespaces, two priorities, two final phases.
    const std::vector<std::tuple<std::string, std::string, std::string, std::string>> made = {
        {"research", "delta", "low", "true"}, {"prod", "alpha", "high", "exit 1"},
        {"research", "echo", "high", "true"}, {"research", "bravo", "low", "exit 1"},
        {"prod", "foxtrot", "low", "true"},   {"research", "charlie", "high", "true"},
        {"prod", "golf", "high", "true"},
    };
    for (const auto& [ns, name, priority, script] : made) {
      submit(ns, name, {.script = script, .priority = priority});
    }
    ASSERT_TRUE(eventually([&] {
      return all_pages("/api/v1/workloads?phase=Succeeded,Failed", 100).size() == made.size();
    }));
  }

  // Every item of a listing, fetched `limit` at a time through the continue
  // tokens; a failure when a page is not 200.
  nlohmann::json all_pages(const std::string& path, int limit) {
    nlohmann::json out = nlohmann::json::array();
    std::string token;
    for (int page = 0; page < 100; ++page) {
      const std::string url = path + (path.find('?') == std::string::npos ? "?" : "&") +
                              "limit=" + std::to_string(limit) +
                              (token.empty() ? "" : "&continue=" + token);
      const Reply reply = api_.get(url);
      EXPECT_EQ(reply.status, 200) << url << ": " << reply.describe();
      if (reply.status != 200) break;
      EXPECT_LE(reply.json["items"].size(), static_cast<size_t>(limit)) << url;
      for (const auto& item : reply.json["items"]) out.push_back(item);
      token = reply.json["continue"];
      if (token.empty()) break;
    }
    return out;
  }

  static std::vector<std::string> sorted_names(const nlohmann::json& items) {
    std::vector<std::string> names;
    for (const auto& item : items) names.push_back(item["metadata"]["name"]);
    return names;
  }
};

// The priority classes' values in kTestPolicy; phases in lifecycle order.
int sort_test_priority(const nlohmann::json& item) {
  return item["spec"]["priorityClass"] == "high" ? 1000 : 10;
}
int sort_test_phase(const nlohmann::json& item) { return phase_of(item) == "Succeeded" ? 3 : 4; }

TEST_F(WorkloadSortTest, EveryKeyOrdersAcrossPagesWithTiesByUid) {
  const nlohmann::json by_uid = all_pages("/api/v1/workloads", 100);
  ASSERT_EQ(by_uid.size(), 7u);
  using Item = nlohmann::json;
  const auto uid = [](const Item& item) { return item["metadata"]["uid"].get<uint64_t>(); };
  const auto text = [](const char* a, const char* b) {
    return [=](const Item& item) { return item[a][b].get<std::string>(); };
  };
  const auto expect_order = [&](const std::string& sort, auto key, bool descending) {
    std::vector<Item> want(by_uid.begin(), by_uid.end());
    std::stable_sort(want.begin(), want.end(), [&](const Item& x, const Item& y) {
      return descending ? key(y) < key(x) : key(x) < key(y);
    });
    for (const int limit : {2, 3, 7}) {
      const nlohmann::json got = all_pages("/api/v1/workloads?sort=" + sort, limit);
      EXPECT_EQ(sorted_names(got), sorted_names(nlohmann::json(want)))
          << "sort=" << sort << " limit=" << limit;
    }
  };
  expect_order("age", uid, false);
  expect_order("-age", uid, true);
  expect_order("name", text("metadata", "name"), false);
  expect_order("-name", text("metadata", "name"), true);
  expect_order("namespace", text("metadata", "namespace"), false);
  expect_order("-namespace", text("metadata", "namespace"), true);
  expect_order("priority", sort_test_priority, false);
  expect_order("-priority", sort_test_priority, true);
  expect_order("phase", sort_test_phase, false);
  expect_order("-phase", sort_test_phase, true);
  expect_order("user", text("status", "submittedBy"), false);
  expect_order("-user", text("status", "submittedBy"), true);
  EXPECT_EQ(
      sorted_names(all_pages("/api/v1/workloads?sort=-priority", 3)),
      (std::vector<std::string>{"alpha", "echo", "charlie", "golf", "delta", "bravo", "foxtrot"}));
}

TEST_F(WorkloadSortTest, SortsWithinTheFiltersAndTheNamespaceRoute) {
  EXPECT_EQ(sorted_names(all_pages("/api/v1/namespaces/prod/workloads?sort=-name", 2)),
            (std::vector<std::string>{"golf", "foxtrot", "alpha"}));
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?sort=name&phase=Failed", 1)),
            (std::vector<std::string>{"alpha", "bravo"}));
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?sort=priority&team=research", 2)),
            (std::vector<std::string>{"delta", "bravo", "echo", "charlie"}));
  // The priority class filter (the dashboard's Tasks), sorted or in uid order.
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?sort=name&priorityClass=high", 1)),
            (std::vector<std::string>{"alpha", "charlie", "echo", "golf"}));
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?priorityClass=low&team=research", 1)),
            (std::vector<std::string>{"delta", "bravo"}));
  EXPECT_TRUE(all_pages("/api/v1/workloads?priorityClass=none", 5).empty());
}

// Two users: the service account's workload sorts after admin's by user and
// first by -user, and `user` filters by submitter; the account lists, sorted, only the namespace it
// may.
TEST_F(WorkloadSortTest, UserSortsBySubmitterAndASortedListShowsOnlyWhatTheCallerMayList) {
  ASSERT_EQ(api_.post_json("/api/v1/namespaces/research/serviceaccounts", {{"name", "bot"}}).status,
            201);
  apply(
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
      "metadata: {name: bot-member, namespace: research}\n"
      "subjects: [{kind: ServiceAccount, name: bot, namespace: research}]\n"
      "roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-member}\n");
  const Reply issued = api_.post_json("/api/v1/namespaces/research/serviceaccounts/bot/tokens",
                                      nlohmann::json::object());
  ASSERT_EQ(issued.status, 201) << issued.describe();
  const ApiHttp bot(allotd_, issued.json.value("token", ""));
  const Reply created =
      bot.post_json("/api/v1/namespaces/research/workloads", workload_json("aaa-bot"));
  ASSERT_EQ(created.status, 201) << created.describe();

  const std::vector<std::string> by_user =
      sorted_names(all_pages("/api/v1/workloads?sort=user", 3));
  ASSERT_EQ(by_user.size(), 8u);
  EXPECT_EQ(by_user.back(), "aaa-bot");
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?sort=-user", 3)).front(), "aaa-bot");
  // The user filter (the dashboard's Tasks): the submitter's workloads only.
  const std::string bot_user = created.json["status"].value("submittedBy", "");
  ASSERT_FALSE(bot_user.empty()) << created.describe();
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?user=" + bot_user, 2)),
            (std::vector<std::string>{"aaa-bot"}));
  EXPECT_EQ(sorted_names(all_pages("/api/v1/workloads?sort=name&user=admin", 3)).size(), 7u);

  std::vector<std::string> seen;
  std::string token;
  for (int page = 0; page < 10; ++page) {
    const Reply reply = bot.get("/api/v1/workloads?sort=name&limit=2" +
                                (token.empty() ? "" : "&continue=" + token));
    ASSERT_EQ(reply.status, 200) << reply.describe();
    for (const auto& item : reply.json["items"]) {
      EXPECT_EQ(item["metadata"]["namespace"], "research") << item;
      seen.push_back(item["metadata"]["name"]);
    }
    token = reply.json["continue"];
    if (token.empty()) break;
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"aaa-bot", "bravo", "charlie", "delta", "echo"}));
}

TEST_F(WorkloadSortTest, AnUnknownSortOrAnotherSortsTokenIs400) {
  for (const char* sort : {"gpus", "Name", "--age", "name,age"}) {
    const Reply reply = api_.get(std::string("/api/v1/workloads?sort=") + sort);
    EXPECT_EQ(reply.status, 400) << sort << ": " << reply.describe();
    EXPECT_EQ(reply.json["code"], "invalid_argument") << sort;
    EXPECT_EQ(reply.json["details"], "sort") << sort;
    EXPECT_NE(reply.json.value("message", "").find("-priority"), std::string::npos)
        << reply.describe();
  }
  const Reply first = api_.get("/api/v1/workloads?sort=name&limit=2");
  ASSERT_EQ(first.status, 200) << first.describe();
  const std::string by_name = first.json["continue"];
  ASSERT_FALSE(by_name.empty());
  for (const std::string& path :
       {"/api/v1/workloads?sort=priority&continue=" + by_name,
        "/api/v1/workloads?continue=" + by_name, "/api/v1/workloads?sort=-name&continue=" + by_name,
        std::string("/api/v1/workloads?sort=name&continue=3"),
        std::string("/api/v1/workloads?sort=name&continue=name.0.zz.1")}) {
    const Reply reply = api_.get(path);
    EXPECT_EQ(reply.status, 400) << path << ": " << reply.describe();
    EXPECT_EQ(reply.json["details"], "continue") << path;
  }
  EXPECT_EQ(api_.get("/api/v1/workloads?sort=name&continue=" + by_name).status, 200);
}

}  // namespace
}  // namespace allot::server_test
