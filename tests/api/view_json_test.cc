// The JSON of the service's read models (api/workload_view_json.h,
// api/cluster_view_json.h): what docs/api.md promises each answer holds.
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "api/rfc3339.h"
#include "api/workload_submission.h"
#include "api/workload_view_json.h"

namespace allot {
namespace {

using nlohmann::json;

TEST(WorkloadPageJson, JoinsTheStoredEncodingsAsTheyAreWithTheContinueToken) {
  WorkloadPage page;
  page.items.push_back(std::make_shared<const std::string>(R"({"metadata":{"uid":1}})"));
  page.items.push_back(std::make_shared<const std::string>(R"({"metadata":{"uid":2}})"));
  page.continue_token = "2";

  const std::string body = encode_workload_page(page);

  EXPECT_EQ(body, R"({"items":[{"metadata":{"uid":1}},{"metadata":{"uid":2}}],"continue":"2"})");
}

TEST(WorkloadPageJson, AnEmptyLastPageHasNoItemsAndAnEmptyToken) {
  EXPECT_EQ(json::parse(encode_workload_page({})), json::parse(R"({"items":[],"continue":""})"));
}

TEST(WorkloadViewJson, AWaitingWorkloadCarriesItsExplanationAndOthersNone) {
  WorkloadView view;
  view.doc.uid = WorkloadId(7);
  view.doc.workload.meta = {"job", "prod", {}};
  view.explanation =
      PendingExplanationView{"Unschedulable", std::nullopt, "no team", std::nullopt, std::nullopt};

  const json out = workload_view_json(view);
  view.explanation.reset();
  const json plain = workload_view_json(view);

  EXPECT_EQ(out["status"]["explanation"]["reason"], "Unschedulable");
  EXPECT_EQ(out["status"]["explanation"]["message"], "no team");
  EXPECT_TRUE(out["status"]["explanation"]["preemption"].is_null());
  EXPECT_TRUE(out["status"]["explanation"]["queuePosition"].is_null());
  EXPECT_TRUE(out["status"]["explanation"]["estimatedStart"].is_null());
  EXPECT_FALSE(plain["status"].contains("explanation"));
  EXPECT_EQ(plain["metadata"]["uid"], 7);
}

TEST(WorkloadViewJson, AnEstimatedStartIsRfc3339) {
  WorkloadView view;
  const Timestamp at = Timestamp::from_millis(1'800'000'000'000);
  view.explanation = PendingExplanationView{"QuotaExceeded", "NoCandidates", "waits", 3, at};

  const json out = workload_view_json(view)["status"]["explanation"];

  EXPECT_EQ(out["queuePosition"], 3);
  EXPECT_EQ(out["estimatedStart"], format_rfc3339(at));
}

TEST(WorkloadEventsJson, ListsEveryEventWithItsTime) {
  const Timestamp at = Timestamp::from_millis(1'800'000'000'000);
  const json out = workload_events_json(
      {{1, at, "Pending", "Submitted", "waiting"}, {2, at, "Warning", "X", "y"}});

  ASSERT_EQ(out["items"].size(), 2u);
  EXPECT_EQ(out["items"][0]["sequence"], 1);
  EXPECT_EQ(out["items"][0]["time"], format_rfc3339(at));
  EXPECT_EQ(out["items"][1]["type"], "Warning");
}

TEST(NodeViewJson, ShowsCapacityAllocationConditionAndWorkloads) {
  NodeView node;
  node.name = "pool-0";
  node.pool = "pool";
  node.flavor = "gpu";
  node.rack = 2;
  node.capacity[Resource::kGpu] = 8;
  node.allocated[Resource::kGpu] = 3;
  node.cordoned = true;
  node.reason = "cordoned by an operator";
  node.workloads = {"prod/job"};

  const json out = node_view_json(node);

  EXPECT_EQ(out["capacity"]["gpu"], "8");
  EXPECT_EQ(out["allocated"]["gpu"], "3");
  EXPECT_EQ(out["rack"], 2);
  EXPECT_TRUE(out["cordoned"].get<bool>());
  EXPECT_TRUE(out["lastHeartbeat"].is_null());
  EXPECT_EQ(out["workloads"], json::array({"prod/job"}));
  EXPECT_EQ(node_page_json({{node, node}, std::nullopt})["items"].size(), 2u);
  EXPECT_FALSE(node_page_json({{node}, std::nullopt}).contains("continue"));
  EXPECT_EQ(node_page_json({{node}, size_t{7}})["continue"], "7");
}

TEST(NodeViewJson, TheHealthHistoryIsNewestFirstWithItsTimesAndReasons) {
  NodeView node;
  node.name = "pool-0";
  node.health_history = {{Timestamp::from_millis(1'800'000'000'000), false, "Xid 79"},
                         {Timestamp::from_millis(1'800'000'060'000), true, ""}};
  NodeView quiet;

  const json out = node_view_json(node);

  EXPECT_EQ(out["healthHistory"],
            json::parse(R"([{"at": "2027-01-15T08:01:00.000Z", "healthy": true, "reason": ""},
                            {"at": "2027-01-15T08:00:00.000Z", "healthy": false, "reason": "Xid 79"}])"));
  EXPECT_EQ(node_view_json(quiet)["healthHistory"], json::array());
}

TEST(ApplyResultJson, SplitsAWorkloadsNamespaceFromItsNameAndJoinsTheDiff) {
  ApplyResult result{
      true,
      {{"Team", "prod", "configured", {"- a", "+ b"}}, {"Workload", "prod/job", "created", {}}}};

  const json out = apply_result_json(result);

  EXPECT_TRUE(out["dryRun"].get<bool>());
  EXPECT_EQ(out["changes"][0]["namespace"], "");
  EXPECT_EQ(out["changes"][0]["diff"], "- a\n+ b");
  EXPECT_EQ(out["changes"][1]["namespace"], "prod");
  EXPECT_EQ(out["changes"][1]["name"], "job");
}

TEST(PolicyObjectJson, ATeamGetsItsQuotaStatusAndABadDocumentIsAnInternalError) {
  QuotaUsageRow row;
  row.team = "prod";
  row.flavor = "gpu";
  row.nominal = 8;
  row.usage = 2;
  const PolicyObjectView team{"Team", "prod", R"({"kind":"Team"})", std::vector{row}};
  const PolicyObjectView cohort{"Cohort", "org", R"({"kind":"Cohort"})", std::nullopt};

  const Result<json> out = policy_object_json(team);

  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)["status"]["quota"][0]["nominal"], "8");
  EXPECT_EQ((*out)["status"]["quota"][0]["usage"], "2");
  EXPECT_FALSE((*policy_object_json(cohort)).contains("status"));
  EXPECT_EQ(policy_object_json({"Team", "x", "{not json", std::nullopt}).status().code(),
            ErrorCode::kInternal);
}

TEST(WorkloadSubmission, NamesAnUnnamedWorkloadAfterItsUidAndTakesTheUrlsNamespace) {
  const Result<Workload> workload = decode_workload_submission(
      "apiVersion: allot/v1\nkind: Workload\nspec:\n  podSets: [{count: 1, resources: {gpu: 1}}]\n"
      "  command: [/bin/true]\n",
      "prod", WorkloadId(42));

  ASSERT_TRUE(workload.ok()) << workload.status().to_string();
  EXPECT_EQ(workload->meta.name, "wl-42");
  EXPECT_EQ(workload->meta.namespace_name, "prod");
}

TEST(WorkloadSubmission, RefusesTwoDocumentsAndAnotherNamespaceSayingWhere) {
  const std::string doc =
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: a, namespace: other}\nspec:\n"
      "  podSets: [{count: 1, resources: {gpu: 1}}]\n  command: [/bin/true]\n";

  const Result<Workload> elsewhere = decode_workload_submission(doc, "prod", WorkloadId(1));
  const Result<Workload> two =
      decode_workload_submission(doc + "---\n" + doc, "other", WorkloadId(1));

  EXPECT_EQ(elsewhere.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(elsewhere.status().details().find("metadata.namespace"), std::string::npos);
  EXPECT_EQ(two.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(two.status().message().find("exactly one Workload"), std::string::npos);
}

}  // namespace
}  // namespace allot
