// The JSON codecs allotd serves and stores: workloads with status, RFC 3339
// times, YAML to JSON, JSON diffs, and manifests with their documents.
#include <gtest/gtest.h>

#include "api/json_diff.h"
#include "api/json_unique_keys.h"
#include "api/manifest_parser.h"
#include "api/rfc3339.h"
#include "api/workload_json.h"
#include "api/yaml_json.h"

namespace allot {
namespace {

WorkloadDocument sample_document() {
  WorkloadDocument doc;
  doc.uid = WorkloadId(42);
  doc.workload.meta = {"train", "llm", {{"project", "llama"}}};
  WorkloadSpec& spec = doc.workload.spec;
  spec.kind = WorkloadKind::kTrainingJob;
  spec.priority_class = "production";
  spec.pod_sets = {{"workers", 4, 2, ResourceVector(8, 96'000, int64_t{512} << 30), "h100"}};
  spec.command = {"python3", "train.py"};
  spec.env = {{"EPOCHS", "3"}};
  spec.max_runtime = Duration::seconds(3600);
  spec.checkpoint = CheckpointSpec{"CKPT", Duration::seconds(600)};
  WorkloadStatus& status = doc.status;
  status.phase = WorkloadPhase::kRunning;
  status.team = "llm-training";
  status.created_at = Timestamp::from_millis(1'764'480'000'123);
  status.queued_at = status.created_at;
  status.first_admitted_at = Timestamp::from_millis(1'764'480'001'000);
  status.admitted_at = Timestamp::from_millis(1'764'480'002'000);
  status.started_at = Timestamp::from_millis(1'764'480'002'500);
  status.flavor = "h100";
  status.pod_sets = {{"workers", {{"node-0", {0, 1, 2, 3}}, {"node-1", {4, 5}}}}};
  status.restarts = 2;
  status.preempted_by = "prod/urgent";
  status.reason = "Started";
  status.message = "2 pods running";
  status.submitted_by = "system:serviceaccount:llm-training:ci";
  return doc;
}

TEST(WorkloadJson, RoundTripsEveryField) {
  const WorkloadDocument doc = sample_document();
  const nlohmann::json json = workload_to_json(doc);
  const Result<WorkloadDocument> back = workload_from_json(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, doc);
  EXPECT_EQ(json["status"]["phase"], "Running");
  EXPECT_EQ(json["spec"]["podSets"][0]["resources"]["memory"], "512Gi");
}

TEST(WorkloadJson, TheSubmitterIsStoredAndADocumentStoredBeforeItWasKeptStillLoads) {
  nlohmann::json json = workload_to_json(sample_document());
  EXPECT_EQ(json["status"]["submittedBy"], "system:serviceaccount:llm-training:ci");

  json["status"].erase("submittedBy");  // as stored before issue 11
  const Result<WorkloadDocument> old = workload_from_json(json);
  ASSERT_TRUE(old.ok()) << old.status().to_string();
  EXPECT_EQ(old->status.submitted_by, "");

  json["status"]["submittedBy"] = 7;
  EXPECT_EQ(workload_from_json(json).status().code(), ErrorCode::kInvalidArgument);
}

// status.backend: the backend's job (Slurm's id, state, reason, nodes);
// absent where the backend has none (and in documents stored before it).
TEST(WorkloadJson, TheBackendsJobRoundTripsAndIsAbsentWithoutOne) {
  WorkloadDocument doc = sample_document();
  EXPECT_FALSE(workload_to_json(doc)["status"].contains("backend"));
  doc.status.backend = BackendJob{"slurm", "4711", "RUNNING", "None", "node[1-2]", ""};

  const nlohmann::json json = workload_to_json(doc);
  EXPECT_EQ(json["status"]["backend"], (nlohmann::json{{"kind", "slurm"},
                                                       {"jobId", "4711"},
                                                       {"state", "RUNNING"},
                                                       {"reason", "None"},
                                                       {"nodes", "node[1-2]"}}));
  const Result<WorkloadDocument> back = workload_from_json(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, doc);

  nlohmann::json idless = json;
  idless["status"]["backend"].erase("jobId");
  EXPECT_EQ(workload_from_json(idless).status().code(), ErrorCode::kInvalidArgument);
}

// A job Slurm runs elsewhere than allot placed it: allot's placement beside
// Slurm's nodes (status.backend.placedNodes), only then.
TEST(WorkloadJson, AllotsPlacementBesideSlurmsNodesRoundTripsWhenTheyDiffer) {
  WorkloadDocument doc = sample_document();
  doc.status.backend = BackendJob{"slurm", "4711", "RUNNING", "None", "node[2-3]", "node1,node3"};

  const nlohmann::json json = workload_to_json(doc);
  EXPECT_EQ(json["status"]["backend"]["placedNodes"], "node1,node3");
  EXPECT_EQ(json["status"]["backend"]["nodes"], "node[2-3]");
  const Result<WorkloadDocument> back = workload_from_json(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, doc);
}

TEST(WorkloadJson, AStopInProgressIsStoredWithItsCauseAndADeletion) {
  WorkloadDocument doc = sample_document();
  doc.status.stopping_for = StopCause::kCancel;
  doc.status.deleting = true;
  const nlohmann::json json = workload_to_json(doc);
  EXPECT_EQ(json["status"]["stopping"], true);
  EXPECT_EQ(json["status"]["stopReason"], "Cancelled");
  EXPECT_EQ(json["status"]["deleting"], true);

  const Result<WorkloadDocument> back = workload_from_json(nlohmann::json::parse(json.dump()));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, doc);
}

TEST(WorkloadJson, AStopStoredWithoutItsCauseReadsAsARequeue) {
  nlohmann::json json = workload_to_json(sample_document());
  json["status"]["stopping"] = true;  // as stored before stop causes were kept

  const Result<WorkloadDocument> back = workload_from_json(json);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->status.stopping_for, StopCause::kEvict);

  json["status"]["stopReason"] = "Bored";
  EXPECT_FALSE(workload_from_json(json).ok());
}

TEST(WorkloadJson, StoredTextIsTheCanonicalJsonAndRoundTrips) {
  WorkloadDocument sleeper = sample_document();
  sleeper.workload.spec.command = {"sleep", "1.5"};
  sleeper.workload.spec.idle_timeout = Duration::millis(90'500);
  sleeper.workload.meta.labels.clear();
  sleeper.status.phase = WorkloadPhase::kFailed;
  sleeper.status.exit_code = -9;
  sleeper.status.finished_at = Timestamp::from_millis(1'764'480'009'999);
  sleeper.status.message = "pod 0 said \"no\"\n\tand left";
  sleeper.status.pod_sets.clear();
  for (const WorkloadDocument& doc : {sample_document(), sleeper}) {
    const std::string text = encode_workload(doc);
    // Byte for byte what nlohmann writes: keys sorted, same numbers and escapes.
    EXPECT_EQ(text, nlohmann::json::parse(text).dump());
    const Result<WorkloadDocument> back = workload_from_json(nlohmann::json::parse(text));
    ASSERT_TRUE(back.ok()) << back.status().to_string();
    EXPECT_EQ(*back, doc);
  }
}

TEST(WorkloadJson, SpecReadsBackAsTheSameManifest) {
  const WorkloadDocument doc = sample_document();
  nlohmann::json manifest = workload_to_json(doc);
  manifest.erase("status");
  manifest["metadata"].erase("uid");
  const Result<ManifestBundle> parsed = parse_manifests(manifest.dump());
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->workloads.size(), 1u);
  EXPECT_EQ(parsed->workloads[0], doc.workload);
}

TEST(WorkloadJson, MalformedDocumentsNameTheField) {
  nlohmann::json json = workload_to_json(sample_document());
  json["status"]["phase"] = "Sleeping";
  EXPECT_NE(workload_from_json(json).status().message().find("Sleeping"), std::string::npos);
  json = workload_to_json(sample_document());
  json["spec"]["podSets"][0]["count"] = "four";
  const Status status = workload_from_json(json).status();
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "workload.spec.podSets[0].count");
  EXPECT_FALSE(workload_from_json(nlohmann::json::array()).ok());
}

// Found by tests/fuzz (manifest_json, UBSan): nlohmann casts a float to an
// integer type, undefined beyond the type's range, and cuts a wider integer
// down; a stored record with 1e300 where an integer belongs (a damaged
// database) was undefined behaviour instead of a named error.
TEST(WorkloadJson, NumbersBeyondTheirFieldsRangeAreMalformed) {
  const auto error_at = [](const char* pointer, const nlohmann::json& value) {
    nlohmann::json json = workload_to_json(sample_document());
    json[nlohmann::json::json_pointer(pointer)] = value;
    return workload_from_json(json).status().details();
  };
  EXPECT_EQ(error_at("/metadata/uid", 1e300), "workload.metadata.uid");
  EXPECT_EQ(error_at("/metadata/uid", -1), "workload.metadata.uid");
  EXPECT_EQ(error_at("/spec/podSets/0/count", 1e300), "workload.spec.podSets[0].count");
  EXPECT_EQ(error_at("/spec/podSets/0/count", int64_t{1} << 40), "workload.spec.podSets[0].count");
  EXPECT_EQ(error_at("/status/restarts", -1e300), "workload.status.restarts");
  EXPECT_EQ(error_at("/status/podSets/0/pods/0/gpus", nlohmann::json::array({1e300})),
            "workload.status.podSets[0].pods[0].gpus");
  EXPECT_EQ(error_at("/spec/maxRuntimeSeconds", 1e300), "workload.spec.maxRuntimeSeconds");
  EXPECT_EQ(error_at("/spec/maxRuntimeSeconds", -1), "workload.spec.maxRuntimeSeconds");
  EXPECT_EQ(error_at("/spec/maxRuntimeSeconds", 3600), "");
}

TEST(Rfc3339, FormatsAndParsesUtcWithMilliseconds) {
  const Timestamp at = Timestamp::from_millis(1'764'480'000'123);
  EXPECT_EQ(format_rfc3339(at), "2025-11-30T05:20:00.123Z");
  EXPECT_EQ(*parse_rfc3339("2025-11-30T05:20:00.123Z"), at);
  EXPECT_EQ(*parse_rfc3339("2025-11-30T07:20:00.123+02:00"), at);
  EXPECT_EQ(parse_rfc3339("2025-11-30T05:20:00Z")->ms(), 1'764'480'000'000);
  EXPECT_EQ(format_rfc3339(Timestamp::epoch()), "1970-01-01T00:00:00.000Z");
  EXPECT_FALSE(parse_rfc3339("2025-13-30T05:20:00Z").ok());
  EXPECT_FALSE(parse_rfc3339("2026-02-29T05:20:00Z").ok());
  EXPECT_TRUE(parse_rfc3339("2028-02-29T05:20:00Z").ok());
  EXPECT_FALSE(parse_rfc3339("yesterday").ok());
  EXPECT_FALSE(parse_rfc3339("2025-11-30T05:20:00").ok());
}

TEST(Rfc3339, CalendarEdgesAndTimesBeyondFourDigitYears) {
  EXPECT_EQ(format_rfc3339(Timestamp::from_millis(-1)), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(format_rfc3339(Timestamp::from_millis(951'825'600'000)), "2000-02-29T12:00:00.000Z");
  EXPECT_FALSE(parse_rfc3339("1900-02-29T00:00:00Z").ok());
  EXPECT_TRUE(parse_rfc3339("2000-02-29T00:00:00Z").ok());
  EXPECT_FALSE(parse_rfc3339("2025-04-31T00:00:00Z").ok());
  EXPECT_EQ(*parse_rfc3339("2016-12-31T23:59:60Z"), *parse_rfc3339("2017-01-01T00:00:00Z"));
  // What format writes, parse reads back: the first and last times of RFC 3339.
  EXPECT_EQ(format_rfc3339(Timestamp::infinite_future()), "9999-12-31T23:59:59.999Z");
  EXPECT_EQ(format_rfc3339(Timestamp::from_millis(-62'167'219'200'001)),
            "0000-01-01T00:00:00.000Z");
  EXPECT_TRUE(parse_rfc3339(format_rfc3339(Timestamp::infinite_future())).ok());
}

TEST(YamlJson, KeepsQuotedScalarsAsStringsAndTypesPlainOnes) {
  const YAML::Node node =
      YAML::Load("{a: 8, b: '8', c: 0.5, d: true, e: null, f: 500m, g: [1, x], h: 1e5}");
  const nlohmann::json json = yaml_to_json(node);
  EXPECT_EQ(json["a"], 8);
  EXPECT_EQ(json["b"], "8");
  EXPECT_EQ(json["c"], 0.5);
  EXPECT_EQ(json["d"], true);
  EXPECT_TRUE(json["e"].is_null());
  EXPECT_EQ(json["f"], "500m");
  EXPECT_EQ(json["g"], nlohmann::json::parse(R"([1, "x"])"));
  EXPECT_EQ(json["h"], "1e5");
}

// Found by tests/fuzz (manifest_yaml): "1.10" was stored as the number 1.1
// and read back as the name "1.1"; a policy with a ResourceFlavor `1.10` then
// no longer loaded after a restart. Numbers JSON would write differently stay
// text, as the user wrote them.
TEST(YamlJson, KeepsTheTextOfNumbersJsonWouldWriteDifferently) {
  const nlohmann::json json =
      yaml_to_json(YAML::Load("{a: 1.10, b: -0, c: 0.50, d: 1.0, e: -3, f: 0.25}"));
  EXPECT_EQ(json["a"], "1.10");
  EXPECT_EQ(json["b"], "-0");
  EXPECT_EQ(json["c"], "0.50");
  EXPECT_EQ(json["d"], 1.0);
  EXPECT_EQ(json["e"], -3);
  EXPECT_EQ(json["f"], 0.25);

  const Result<ParsedManifests> parsed = parse_manifests_with_documents(
      "apiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: 1.10}\n"
      "spec: {nodeLabels: {gpu.model: 1.10, zone: -0}}\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  const Result<ManifestBundle> stored = parse_manifests(parsed->documents.at(0).json.dump());
  ASSERT_TRUE(stored.ok()) << stored.status().to_string();
  EXPECT_EQ(stored->policy, parsed->bundle.policy);
  EXPECT_EQ(stored->policy.flavors.at(0).meta.name, "1.10");
}

TEST(JsonDiff, ListsChangedLeavesWithPaths) {
  const auto before =
      nlohmann::json::parse(R"({"spec": {"quota": [{"gpu": 8}], "cohort": "org"}})");
  const auto after = nlohmann::json::parse(R"({"spec": {"quota": [{"gpu": 6}, {"gpu": 1}]}})");
  EXPECT_EQ(
      json_diff(before, after),
      (std::vector<std::string>{"spec.cohort: \"org\" -> (absent)", "spec.quota[0].gpu: 8 -> 6",
                                "spec.quota[1]: (absent) -> {\"gpu\":1}"}));
  EXPECT_TRUE(json_diff(before, before).empty());
}

TEST(ParseWithDocuments, FillsWorkloadDefaultsAndKeepsEachDocument) {
  const Result<ParsedManifests> parsed = parse_manifests_with_documents(
      "apiVersion: allot/v1\nkind: Workload\nspec: {podSets: [{count: 1, resources: {gpu: 1}}], "
      "command: [x]}\n",
      {"research", "wl-7"});
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->documents.size(), 1u);
  EXPECT_EQ(parsed->documents[0].name, "wl-7");
  EXPECT_EQ(parsed->documents[0].namespace_name, "research");
  EXPECT_EQ(parsed->bundle.workloads.at(0).meta.namespace_name, "research");
  EXPECT_EQ(parsed->documents[0].json["spec"]["command"][0], "x");
}

TEST(ParseWithDocuments, SleepIsNotAWorkloadFieldAnyMore) {
  // Sleep mode left the public schema: a pod that only waits runs [sleep, N].
  const Result<ParsedManifests> sleeper = parse_manifests_with_documents(
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: a, namespace: b}\n"
      "spec: {podSets: [{count: 1, resources: {gpu: 1}}], sleep: 250ms}\n");
  ASSERT_FALSE(sleeper.ok());
  EXPECT_EQ(sleeper.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(sleeper.status().details().find("sleep"), std::string::npos)
      << sleeper.status().to_string();
}

}  // namespace
}  // namespace allot

namespace allot {
namespace {

TEST(JsonBodies, DecodeLikeTheSameTextThroughYaml) {
  const std::string json_text =
      R"({"apiVersion": "allot/v1", "kind": "Workload", "metadata": {"name": "w", "namespace": "r"},
          "spec": {"priorityClass": "batch", "podSets": [{"count": 2, "resources": {"gpu": 1, "cpu": 0.5, "memory": "1Gi"}}],
                   "command": ["x", "8"], "maxRuntimeSeconds": 60}})";
  const Result<ParsedManifests> fast = parse_manifests_with_documents(json_text);
  const Result<ManifestBundle> slow = parse_manifests("---\n" + json_text);  // yaml-cpp parses it
  ASSERT_TRUE(fast.ok()) << fast.status().to_string();
  ASSERT_TRUE(slow.ok()) << slow.status().to_string();
  EXPECT_EQ(fast->bundle.workloads, slow->workloads);
  EXPECT_EQ(fast->documents.at(0).json, nlohmann::json::parse(json_text));
}

TEST(JsonBodies, AnArrayOrAListCarriesSeveralDocuments) {
  const std::string flavor = R"({"apiVersion": "allot/v1", "kind": "ResourceFlavor",
                                 "metadata": {"name": "h100"}})";
  const std::string cohort = R"({"apiVersion": "allot/v1", "kind": "Cohort",
                                 "metadata": {"name": "all"}})";
  for (const std::string& body :
       {"[" + flavor + ", null, " + cohort + "]",
        R"({"apiVersion": "v1", "kind": "List", "items": [)" + flavor + "," + cohort + "]}"}) {
    const Result<ParsedManifests> parsed = parse_manifests_with_documents(body);
    ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
    ASSERT_EQ(parsed->documents.size(), 2u) << body;
    EXPECT_EQ(parsed->documents[0].kind, "ResourceFlavor");
    EXPECT_EQ(parsed->documents[1].name, "all");
    EXPECT_EQ(parsed->documents[1].json, nlohmann::json::parse(cohort));
    EXPECT_EQ(parsed->bundle.policy.flavors.size(), 1u);
    EXPECT_EQ(parsed->bundle.policy.cohorts.size(), 1u);
  }
}

TEST(JsonBodies, ABadDocumentInAnArrayIsNamedAndNothingIsReturned) {
  const Result<ParsedManifests> bad = parse_manifests_with_documents(
      R"([{"apiVersion": "allot/v1", "kind": "Cohort", "metadata": {"name": "all"}},
          {"apiVersion": "allot/v1", "kind": "Cohort", "metadata": {"name": "x"}, "spec": {"colour": 1}},
          "not a manifest"])");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().details(), "document 2 (Cohort/x): spec.colour");
  const Result<ParsedManifests> scalar =
      parse_manifests_with_documents(R"([{"apiVersion": "allot/v1", "kind": "Cohort",
                                          "metadata": {"name": "all"}}, 3])");
  ASSERT_FALSE(scalar.ok());
  EXPECT_EQ(scalar.status().details(), "document 2");
}

TEST(JsonBodies, ErrorsStillNameTheField) {
  const Result<ParsedManifests> bad = parse_manifests_with_documents(
      R"({"apiVersion": "allot/v1", "kind": "Workload", "metadata": {"name": "w", "namespace": "r"},
          "spec": {"podSets": [{"count": 1, "resources": {"gpu": -1}}], "command": ["x"]}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().details().find("spec.podSets[0].resources.gpu"), std::string::npos)
      << bad.status().to_string();
  const Result<ParsedManifests> broken = parse_manifests_with_documents(R"({"apiVersion": )");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.status().message().find("invalid YAML"), std::string::npos);
}

TEST(JsonBodies, ARepeatedKeyIsRejectedWithItsDocumentAndField) {
  const Result<ParsedManifests> top = parse_manifests_with_documents(
      R"({"apiVersion": "allot/v1", "kind": "Team", "kind": "Team", "metadata": {"name": "t"}})");
  ASSERT_FALSE(top.ok());
  EXPECT_EQ(top.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(top.status().details(), "document 1 (Team/t): kind");
  EXPECT_NE(top.status().message().find("duplicate key 'kind'"), std::string::npos)
      << top.status().to_string();
  const Result<ParsedManifests> nested = parse_manifests_with_documents(
      R"({"apiVersion": "allot/v1", "kind": "Workload", "metadata": {"name": "w", "namespace": "r"},
          "spec": {"podSets": [{"count": 1, "resources": {"gpu": 1, "cpu": 1, "gpu": 2}}],
                   "command": ["x"]}})");
  ASSERT_FALSE(nested.ok());
  EXPECT_EQ(nested.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(nested.status().details(), "document 1 (Workload/w): spec.podSets[0].resources.gpu");
  EXPECT_NE(nested.status().message().find("duplicate key 'gpu'"), std::string::npos);
}

TEST(JsonBodies, ARepeatedKeyInAnArrayOrAListNamesItsDocument) {
  const std::string cohort = R"({"apiVersion": "allot/v1", "kind": "Cohort",
                                 "metadata": {"name": "all"}})";
  const std::string repeated = R"({"apiVersion": "allot/v1", "kind": "Cohort",
                                   "metadata": {"name": "x", "labels": {"a": "1", "a": "2"}}})";
  const Result<ParsedManifests> in_array =
      parse_manifests_with_documents("[" + cohort + ", 7, " + repeated + "]", {}, "body.json");
  ASSERT_FALSE(in_array.ok());
  EXPECT_EQ(in_array.status().details(), "body.json: document 3 (Cohort/x): metadata.labels.a");
  const Result<ParsedManifests> in_list = parse_manifests_with_documents(
      R"({"apiVersion": "v1", "kind": "List", "items": [)" + cohort + "," + repeated + "]}");
  ASSERT_FALSE(in_list.ok());
  EXPECT_EQ(in_list.status().details(), "document 2 (Cohort/x): metadata.labels.a");
  const Result<ParsedManifests> list_itself = parse_manifests_with_documents(
      R"({"apiVersion": "v1", "apiVersion": "v1", "kind": "List", "items": [)" + cohort + "]}");
  ASSERT_FALSE(list_itself.ok());
  EXPECT_EQ(list_itself.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(list_itself.status().details(), "apiVersion");
}

TEST(JsonBodies, RepeatedKeysAreFoundAtAnyDepthAndPosition) {
  EXPECT_TRUE(parse_json_unique_keys(R"({"a": 1, "b": {"a": 2}, "c": [{"a": 3}, {"a": 4}]})")
                  .repeated_key.empty());
  const UniqueKeysJson deep =
      parse_json_unique_keys(R"({"a": [1, "x", [2], {"b": 1}, {"c": {"d": 1, "d": 2}}]})");
  EXPECT_EQ(deep.repeated_key, (std::vector<JsonStep>{std::string("a"), size_t{4}, std::string("c"),
                                                      std::string("d")}));
  EXPECT_EQ(deep.value["a"][4]["c"]["d"], 2);  // nlohmann's choice: the last
  const UniqueKeysJson first = parse_json_unique_keys(R"({"x": 1, "y": 1, "y": 2, "x": 2})");
  EXPECT_EQ(first.repeated_key, (std::vector<JsonStep>{std::string("y")}));
  const UniqueKeysJson broken = parse_json_unique_keys(R"({"x": 1, "x": )");
  EXPECT_TRUE(broken.value.is_discarded());
  EXPECT_TRUE(broken.repeated_key.empty());
}

}  // namespace
}  // namespace allot
