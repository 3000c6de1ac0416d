// InferenceEndpoint fields in manifests (api/endpoint_fields.h) and in the
// stored JSON of a workload (api/workload_json.h).
#include <gtest/gtest.h>

#include "api/manifest_parser.h"
#include "api/workload_json.h"
#include "manifest_fixtures.h"

namespace allot {
namespace {

std::string endpoint_doc(std::string_view fields, std::string_view kind = "InferenceEndpoint") {
  return document("Workload", "chat",
                  "{kind: " + std::string(kind) + ", podSets: [{resources: {gpu: 1}}]" +
                      (fields.empty() ? "" : ", " + std::string(fields)) + "}",
                  "serving");
}

constexpr std::string_view kWhere = "document 1 (Workload/chat): spec.";

TEST(EndpointManifest, ReadsReplicasSignalTargetAndWindow) {
  const ManifestBundle bundle = parse_ok(endpoint_doc(
      "replicas: {min: 1, max: 8}, scaleOn: queueDepth, target: 20, scaleDownWindowSeconds: 60"));
  ASSERT_EQ(bundle.workloads.size(), 1u);
  const std::optional<EndpointSpec>& endpoint = bundle.workloads[0].spec.endpoint;
  ASSERT_TRUE(endpoint.has_value());
  EXPECT_EQ(endpoint->min_replicas, 1);
  EXPECT_EQ(endpoint->max_replicas, 8);
  EXPECT_EQ(endpoint->scale_on, ScaleSignal::kQueueDepth);
  EXPECT_EQ(endpoint->target, 20.0);
  EXPECT_EQ(endpoint->scale_down_window, Duration::seconds(60));
  // Defaults: external, a 300 s window; min 0 is allowed (scale to zero).
  const ManifestBundle plain = parse_ok(endpoint_doc("replicas: {min: 0, max: 2}"));
  EXPECT_EQ(plain.workloads[0].spec.endpoint->scale_on, ScaleSignal::kExternal);
  EXPECT_EQ(plain.workloads[0].spec.endpoint->scale_down_window, Duration::seconds(300));
}

TEST(EndpointManifest, RefusesABadRangeNamingTheField) {
  const std::string where(kWhere);
  EXPECT_TRUE(fails_with(endpoint_doc(""), where + "replicas", "missing"));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 3, max: 2}"), where + "replicas.min",
                         "min 3 exceeds max 2"));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 0, max: 0}"), where + "replicas.max", ""));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: -1, max: 2}"), where + "replicas.min", ""));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 1, max: 1001}"), where + "replicas.max", "",
                         ErrorCode::kOutOfRange));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {max: 2}"), where + "replicas.min", "missing"));
}

TEST(EndpointManifest, TheSignalDecidesWhetherATargetIsNeeded) {
  const std::string where(kWhere);
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 1, max: 2}, scaleOn: cpu"), where + "target",
                         "missing"));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 1, max: 2}, scaleOn: cpu, target: 0"),
                         where + "target", "greater than 0"));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 1, max: 2}, target: 5"), where + "target",
                         "takes no target"));
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 1, max: 2}, scaleOn: rps, target: 5"),
                         where + "scaleOn", "expected one of external, queueDepth, cpu"));
}

TEST(EndpointManifest, OtherKindsMayNotDeclareReplicas) {
  const std::string where(kWhere);
  EXPECT_TRUE(fails_with(endpoint_doc("replicas: {min: 1, max: 2}", "Job"), where + "replicas",
                         "only a workload of kind InferenceEndpoint"));
  EXPECT_TRUE(fails_with(endpoint_doc("scaleOn: cpu", "TrainingJob"), where + "scaleOn",
                         "only a workload of kind InferenceEndpoint"));
}

TEST(EndpointJson, StoredEndpointRoundTripsAndReadsBackAsTheManifest) {
  const ManifestBundle bundle = parse_ok(endpoint_doc(
      "replicas: {min: 1, max: 8}, scaleOn: cpu, target: 62.5, scaleDownWindowSeconds: 90"));
  WorkloadDocument doc;
  doc.uid = WorkloadId(7);
  doc.workload = bundle.workloads[0];
  doc.status.created_at = Timestamp::from_millis(1'764'480'000'000);
  doc.status.queued_at = doc.status.created_at;
  const std::string text = encode_workload(doc);
  EXPECT_EQ(text, nlohmann::json::parse(text).dump());  // canonical
  const Result<WorkloadDocument> back = workload_from_json(nlohmann::json::parse(text));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, doc);
  nlohmann::json manifest = nlohmann::json::parse(text);
  manifest.erase("status");
  manifest["metadata"].erase("uid");
  const ManifestBundle again = parse_ok(manifest.dump());
  ASSERT_EQ(again.workloads.size(), 1u);
  EXPECT_EQ(again.workloads[0], doc.workload);
}

}  // namespace
}  // namespace allot
