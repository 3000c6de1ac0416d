// How parse_manifests() rejects input: every error names its document and
// field path in details() and says why in message(), and no error leaves a
// partial bundle behind.
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>
#include <unistd.h>

#include "api/manifest_parser.h"
#include "manifest_fixtures.h"

namespace allot {
namespace {

TEST(ManifestErrors, RejectsNegativeGpuQuantityNamingTheField) {
  EXPECT_TRUE(fails_with(
      document("Team", "research", "{quota: [{flavor: h100, resources: {gpu: {nominal: -8}}}]}"),
      "document 1 (Team/research): spec.quota[0].resources.gpu.nominal", "negative quantity"));
}

TEST(ManifestErrors, PrefixesTheSourceNameAndCountsDocuments) {
  const Status status = parse_error(
      document("Cohort", "org", "{}") + "---\n" +
          document("Team", "research", "{quota: [{flavor: h100, resources: {gpu: {nominal: x}}}]}"),
      "teams.yaml");
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(),
            "teams.yaml: document 2 (Team/research): spec.quota[0].resources.gpu.nominal");
}

TEST(ManifestErrors, MessagesGiveTheLineAndColumnOfTheValue) {
  const Status status = parse_error(
      "apiVersion: allot/v1\nkind: Cluster\nmetadata: {name: c}\n"
      "spec:\n  backend: aws\n");
  EXPECT_EQ(status.details(), "document 1 (Cluster/c): spec.backend");
  EXPECT_NE(status.message().find("(line 5, column 12)"), std::string::npos) << status.message();
}

// Issue 10, large inputs 4: aliases would expand a small body without bound.
TEST(ManifestErrors, RefusesYamlAliasesSayingWhere) {
  const Status status = parse_error(
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w, namespace: ns}\n"
      "spec:\n  env: &e {A: '1'}\n  command: [*e]\n",
      "bomb.yaml");
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(status.message().find("aliases"), std::string::npos) << status.message();
  EXPECT_EQ(status.details(), "bomb.yaml: line 6, column 13");
}

TEST(ManifestErrors, RefusesYamlNestedTooDeep) {
  const std::string deep = "spec: " + std::string(10'000, '[') + std::string(10'000, ']') + "\n";
  const Status status = parse_error(deep);
  EXPECT_NE(status.message().find("nested deeper than 64"), std::string::npos) << status.message();
}

TEST(ManifestErrors, AnAnchorWithoutAnAliasIsFine) {
  const Result<ManifestBundle> bundle =
      parse_manifests(document("Cohort", "org", "&shared {}"), "ok.yaml");
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
}

// Issue 10, clear errors 13: an environment a process cannot receive is
// refused at submit instead of failing the pod with exit 127 at launch.
TEST(ManifestErrors, RefusesEnvironmentNamesAProcessCannotReceive) {
  const std::string pod_sets = "podSets: [{count: 1, resources: {gpu: 1}}], command: [x], ";
  for (const std::string bad : {"'A=B'", "''", "'1X'", "'A B'"}) {
    const Status status =
        parse_error(document("Workload", "w", "{" + pod_sets + "env: {" + bad + ": v}}", "ns"));
    EXPECT_EQ(status.details(), "document 1 (Workload/w): spec.env") << bad;
    EXPECT_NE(status.message().find("not a valid environment variable name"), std::string::npos)
        << status.message();
  }
  EXPECT_EQ(
      parse_error(document("Workload", "w", "{" + pod_sets + "checkpoint: {env: 'A=B'}}", "ns"))
          .details(),
      "document 1 (Workload/w): spec.checkpoint.env");
  const Status no_interval = parse_error(document(
      "Workload", "w", "{" + pod_sets + "checkpoint: {env: C, intervalSeconds: 0}}", "ns"));
  EXPECT_EQ(no_interval.details(), "document 1 (Workload/w): spec.checkpoint.intervalSeconds");
  EXPECT_NE(no_interval.message().find("at least 1"), std::string::npos) << no_interval.message();
  EXPECT_TRUE(parse_manifests(
                  document("Workload", "w", "{" + pod_sets + "env: {MY_VAR.x-1: v, _B: w}}", "ns"))
                  .ok());
}

TEST(ManifestErrors, RejectsMalformedMemoryQuantity) {
  EXPECT_TRUE(
      fails_with(document("NodePool", "p", "{flavor: f, count: 1, resources: {memory: 12XB}}"),
                 "document 1 (NodePool/p): spec.resources.memory", "unknown quantity suffix"));
}

TEST(ManifestErrors, RejectsFractionalGpus) {
  EXPECT_TRUE(fails_with(document("NodePool", "p", "{flavor: f, count: 1, resources: {gpu: 0.5}}"),
                         "document 1 (NodePool/p): spec.resources.gpu", "not a whole number"));
}

TEST(ManifestErrors, OversizedQuantityIsOutOfRange) {
  EXPECT_TRUE(fails_with(
      document("NodePool", "p", "{flavor: f, count: 1, resources: {memory: 9Pi}}"),
      "document 1 (NodePool/p): spec.resources.memory", "too large", ErrorCode::kOutOfRange));
}

TEST(ManifestErrors, QuantityMustBeAScalar) {
  EXPECT_TRUE(fails_with(document("NodePool", "p", "{flavor: f, count: 1, resources: {gpu: [8]}}"),
                         "document 1 (NodePool/p): spec.resources.gpu", "got a list"));
}

TEST(ManifestErrors, RejectsUnknownResourceNames) {
  EXPECT_TRUE(fails_with(document("Workload", "w", "{podSets: [{resources: {tpu: 4}}]}", "ns"),
                         "document 1 (Workload/w): spec.podSets[0].resources.tpu",
                         "unknown field 'tpu'; expected one of gpu, cpu, memory"));
}

TEST(ManifestErrors, RejectsUnknownFieldsAtEveryLevel) {
  EXPECT_TRUE(fails_with("apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: org}\nspek: {}\n",
                         "document 1 (Cohort/org): spek", "unknown field 'spek'"));
  EXPECT_TRUE(
      fails_with("apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: org, annotations: {a: b}}\n",
                 "document 1 (Cohort/org): metadata.annotations", "unknown field 'annotations'"));
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{backend: local, regoin: eu}"),
                         "document 1 (Cluster/c): spec.regoin", "unknown field 'regoin'"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{preemption: {withinTeam: Never, foo: 1}}"),
                         "document 1 (Team/t): spec.preemption.foo", "unknown field 'foo'"));
  EXPECT_TRUE(fails_with(
      document("Team", "t", "{quota: [{flavor: h, resources: {gpu: {nominal: 1, max: 2}}}]}"),
      "document 1 (Team/t): spec.quota[0].resources.gpu.max", "unknown field 'max'"));
  EXPECT_TRUE(
      fails_with(document("Workload", "w", "{podSets: [{replicas: 2, resources: {}}]}", "n"),
                 "document 1 (Workload/w): spec.podSets[0].replicas", "unknown field 'replicas'"));
  EXPECT_TRUE(fails_with(document("Scenario", "s",
                                  "{nodeEvents: [{at: 1s, node: n, healthy: true, "
                                  "why: x}]}"),
                         "document 1 (Scenario/s): spec.nodeEvents[0].why", "unknown field 'why'"));
}

TEST(ManifestErrors, UnknownFieldMessageListsTheKnownFields) {
  EXPECT_TRUE(fails_with(document("Cohort", "org", "{parnet: x}"),
                         "document 1 (Cohort/org): spec.parnet",
                         "unknown field 'parnet'; expected one of parent, fairShareWeight, quota"));
}

TEST(ManifestErrors, StatusIsWrittenByAllotNotByUsers) {
  EXPECT_TRUE(fails_with(document("Team", "t", "{}") + "status: {admitted: 3}\n",
                         "document 1 (Team/t): status",
                         "status is written by allot, not by users"));
}

TEST(ManifestErrors, RejectsAWrongOrMissingApiVersion) {
  EXPECT_TRUE(fails_with("apiVersion: v1\nkind: Cohort\nmetadata: {name: org}\n",
                         "document 1 (Cohort/org): apiVersion",
                         "unsupported apiVersion 'v1'; expected allot/v1"));
  EXPECT_TRUE(fails_with("kind: Cohort\nmetadata: {name: org}\n",
                         "document 1 (Cohort/org): apiVersion",
                         "missing required field 'apiVersion'"));
}

TEST(ManifestErrors, RejectsAnUnknownKind) {
  EXPECT_TRUE(fails_with("apiVersion: allot/v1\nkind: Frobnicator\nmetadata: {name: f}\n",
                         "document 1 (Frobnicator/f): kind", "unknown kind 'Frobnicator'"));
  EXPECT_TRUE(fails_with("apiVersion: allot/v1\nmetadata: {name: f}\n", "document 1 (f): kind",
                         "missing required field 'kind'"));
}

TEST(ManifestErrors, APolicyExceptionNamesTheFieldAtFault) {
  const std::string base = "owner: ana, reason: deadline, approver: bob, ";
  EXPECT_TRUE(fails_with(document("PolicyException", "x",
                                  "{team: vision, relaxes: {priorityClass: high, workloadKind: "
                                  "Job}, " +
                                      base + "expires: '2026-12-10T00:00:00Z'}"),
                         "document 1 (PolicyException/x): spec.relaxes", "exactly one of"));
  EXPECT_TRUE(fails_with(document("PolicyException", "x",
                                  "{team: vision, relaxes: {quota: {flavor: h100, resources: "
                                  "{gpu: 0}}}, " +
                                      base + "expires: '2026-12-10T00:00:00Z'}"),
                         "document 1 (PolicyException/x): spec.relaxes.quota.resources",
                         "positive amount"));
  EXPECT_TRUE(fails_with(document("PolicyException", "x",
                                  "{team: vision, relaxes: {workloadKind: Batch}, " + base +
                                      "expires: '2026-12-10T00:00:00Z'}"),
                         "document 1 (PolicyException/x): spec.relaxes.workloadKind",
                         "unknown value 'Batch'"));
  EXPECT_TRUE(fails_with(
      document("PolicyException", "x",
               "{team: vision, relaxes: {priorityClass: high}, " + base + "expires: next week}"),
      "document 1 (PolicyException/x): spec.expires", ""));
  EXPECT_TRUE(fails_with(document("PolicyException", "x",
                                  "{team: vision, relaxes: {priorityClass: high}, owner: ana, "
                                  "reason: r, expires: '2026-12-10T00:00:00Z'}"),
                         "document 1 (PolicyException/x): spec.approver",
                         "missing required field 'approver'"));
}

TEST(ManifestErrors, ABudgetNamesTheFieldAtFaultWithItsPosition) {
  EXPECT_TRUE(fails_with(document("Budget", "b",
                                  "{team: research, amount: 5, currency: EUR, "
                                  "thresholds: [0.5, 1.5]}"),
                         "document 1 (Budget/b): spec.thresholds[1]", "in (0, 1]"));
  EXPECT_TRUE(fails_with(document("Budget", "b", "{team: research, amount: 0, currency: EUR}"),
                         "document 1 (Budget/b): spec.amount", "positive"));
  EXPECT_TRUE(fails_with(document("Budget", "b", "{team: research, amount: 5}"),
                         "document 1 (Budget/b): spec.currency", "currency"));
  const Status status = parse_error(document("Budget", "b",
                                             "{team: research, amount: 5, currency: EUR, "
                                             "period: fortnightly}"));
  EXPECT_NE(status.message().find("line"), std::string::npos) << status.to_string();
  EXPECT_NE(status.message().find("monthly, weekly"), std::string::npos) << status.to_string();
}

TEST(ManifestErrors, MetadataNeedsANonEmptyName) {
  EXPECT_TRUE(fails_with("apiVersion: allot/v1\nkind: Cohort\n", "document 1 (Cohort): metadata",
                         "missing required field 'metadata'"));
  EXPECT_TRUE(fails_with("apiVersion: allot/v1\nkind: Cohort\nmetadata: {labels: {a: b}}\n",
                         "document 1 (Cohort): metadata.name", "missing required field 'name'"));
  EXPECT_TRUE(fails_with("apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: ''}\n",
                         "document 1 (Cohort): metadata.name", "cannot be empty"));
}

TEST(ManifestErrors, NamesFollowKubernetesRules) {
  EXPECT_TRUE(fails_with(document("Team", "Research_Team", "{}"),
                         "document 1 (Team/Research_Team): metadata.name",
                         "'Research_Team' is not a valid name"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{namespace: -ns}"),
                         "document 1 (Team/t): spec.namespace", "'-ns' is not a valid name"));
  EXPECT_TRUE(
      fails_with(document("Workload", "w", "{podSets: [{name: Workers, resources: {}}]}", "n"),
                 "document 1 (Workload/w): spec.podSets[0].name", "not a valid name"));
  EXPECT_TRUE(fails_with(document("Workload", "w", "{podSets: [{resources: {}}]}", "a b"),
                         "document 1 (Workload/w): metadata.namespace", "not a valid name"));
  EXPECT_TRUE(fails_with(document("Cohort", std::string(254, 'a'), "{}"),
                         "document 1 (Cohort/" + std::string(254, 'a') + "): metadata.name",
                         "not a valid name"));
}

TEST(ManifestErrors, WorkloadNeedsANamespace) {
  EXPECT_TRUE(fails_with(document("Workload", "w", "{podSets: [{resources: {gpu: 1}}]}"),
                         "document 1 (Workload/w): metadata.namespace",
                         "missing required field 'namespace'"));
}

TEST(ManifestErrors, ClusterScopedKindsTakeNoNamespace) {
  EXPECT_TRUE(fails_with(document("Team", "t", "{}", "research"),
                         "document 1 (Team/t): metadata.namespace", "cluster-scoped"));
}

TEST(ManifestErrors, LendingLimitAboveNominalIsRejected) {
  EXPECT_TRUE(fails_with(
      document("Team", "t",
               "{quota: [{flavor: h100, resources: {gpu: {nominal: 8, lendingLimit: 9}}}]}"),
      "document 1 (Team/t): spec.quota[0].resources.gpu.lendingLimit",
      "lendingLimit 9 exceeds nominal 8"));
}

TEST(ManifestErrors, QuotaEntriesNeedAFlavorAndResources) {
  EXPECT_TRUE(fails_with(document("Cohort", "c", "{quota: [{resources: {gpu: {nominal: 1}}}]}"),
                         "document 1 (Cohort/c): spec.quota[0].flavor",
                         "missing required field 'flavor'"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{quota: [{flavor: h100}]}"),
                         "document 1 (Team/t): spec.quota[0].resources",
                         "missing required field 'resources'"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{quota: [{flavor: h, resources: {gpu: 8}}]}"),
                         "document 1 (Team/t): spec.quota[0].resources.gpu",
                         "expected a map, got a scalar"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{quota: {flavor: h}}"),
                         "document 1 (Team/t): spec.quota", "expected a list, got a map"));
}

TEST(ManifestErrors, FairShareWeightMustNotBeNegative) {
  EXPECT_TRUE(fails_with(document("Team", "t", "{fairShareWeight: -1}"),
                         "document 1 (Team/t): spec.fairShareWeight", "must be at least 0"));
  EXPECT_TRUE(fails_with(document("Cohort", "c", "{fairShareWeight: .nan}"),
                         "document 1 (Cohort/c): spec.fairShareWeight", "expected a number"));
}

TEST(ManifestErrors, EnumsListTheirAllowedValues) {
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{backend: aws}"),
                         "document 1 (Cluster/c): spec.backend",
                         "unknown value 'aws'; expected one of local, slurm, kubernetes"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{preemption: {reclaimWithinCohort: Always}}"),
                         "document 1 (Team/t): spec.preemption.reclaimWithinCohort",
                         "expected one of Never, LowerPriority, Any"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{queueingStrategy: LIFO}"),
                         "document 1 (Team/t): spec.queueingStrategy",
                         "expected one of BestEffortFIFO, StrictFIFO"));
  EXPECT_TRUE(fails_with(document("PriorityClass", "p", "{value: 1, preemptionPolicy: Sometimes}"),
                         "document 1 (PriorityClass/p): spec.preemptionPolicy",
                         "expected one of PreemptLowerPriority, Never"));
  EXPECT_TRUE(
      fails_with(document("Workload", "w", "{kind: Batch, podSets: [{resources: {}}]}", "n"),
                 "document 1 (Workload/w): spec.kind",
                 "expected one of TrainingJob, InferenceEndpoint, Space, Job"));
}

TEST(ManifestErrors, WrongTypesSayWhatWasExpected) {
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{scheduling: {fairSharing: maybe}}"),
                         "document 1 (Cluster/c): spec.scheduling.fairSharing",
                         "expected true or false"));
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{region: [eu, us]}"),
                         "document 1 (Cluster/c): spec.region", "expected a string, got a list"));
  EXPECT_TRUE(fails_with(document("ResourceFlavor", "f", "{nodeLabels: [a]}"),
                         "document 1 (ResourceFlavor/f): spec.nodeLabels",
                         "expected a map of strings, got a list"));
  EXPECT_TRUE(fails_with(
      document("Workload", "w", "{podSets: [{count: many, resources: {}}]}", "n"),
      "document 1 (Workload/w): spec.podSets[0].count", "expected an integer, got 'many'"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{allowedPriorityClasses: [a, {b: c}]}"),
                         "document 1 (Team/t): spec.allowedPriorityClasses[1]",
                         "expected a string, got a map"));
  EXPECT_TRUE(fails_with(document("Cohort", "c", "[parent]"), "document 1 (Cohort/c): spec",
                         "expected a map, got a list"));
}

TEST(ManifestErrors, AContractsMonitoringSignalsAreNamesListedOnce) {
  const std::string contract =
      "{project: p, owners: {business: a, operations: b, cost: c}, cluster: {name: local}, "
      "approvedWorkloadKinds: [Job], dataClassification: internal, schedulingPolicyOwner: b, "
      "exceptionOwner: c, monitoringSignals: ";
  EXPECT_TRUE(fails_with(document("Contract", "c", contract + "[spend, spend]}"),
                         "document 1 (Contract/c): spec.monitoringSignals[1]", "listed twice"));
  EXPECT_TRUE(fails_with(document("Contract", "c", contract + "[Spend]}"),
                         "document 1 (Contract/c): spec.monitoringSignals[0]",
                         "is not a valid name"));
  EXPECT_TRUE(fails_with(document("Contract", "c", contract + "spend}"),
                         "document 1 (Contract/c): spec.monitoringSignals", "expected a list"));
}

TEST(ManifestErrors, RejectsEgressNamespacesThatAreNotNamespaceNamesOrRepeat) {
  EXPECT_TRUE(fails_with(document("Team", "t", "{network: {egressNamespaces: [data, Data]}}"),
                         "document 1 (Team/t): spec.network.egressNamespaces[1]",
                         "is not a valid name"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{network: {egressNamespaces: [data.sets]}}"),
                         "document 1 (Team/t): spec.network.egressNamespaces[0]",
                         "is not a namespace name"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{network: {egressNamespaces: [data, data]}}"),
                         "document 1 (Team/t): spec.network.egressNamespaces[1]", "listed twice"));
  EXPECT_TRUE(fails_with(document("Team", "t", "{network: {ingressNamespaces: [data]}}"),
                         "document 1 (Team/t): spec.network.ingressNamespaces",
                         "unknown field 'ingressNamespaces'"));
}

TEST(ManifestErrors, RejectsMalformedDurations) {
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{scheduling: {cycle: 5 parsecs}}"),
                         "document 1 (Cluster/c): spec.scheduling.cycle", "unknown unit"));
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{scheduling: {cycle: 0s}}"),
                         "document 1 (Cluster/c): spec.scheduling.cycle", "must be at least 1ms"));
  EXPECT_TRUE(
      fails_with(document("Cluster", "c", "{scheduling: {cycle: 1s, minCycleInterval: 2s}}"),
                 "document 1 (Cluster/c): spec.scheduling",
                 "minCycleInterval (2s) must not exceed cycle (1s)"));
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{scheduling: {consolidation: Always}}"),
                         "document 1 (Cluster/c): spec.scheduling.consolidation", "Always"));
  EXPECT_TRUE(fails_with(document("PriorityClass", "p", "{value: 1, preemptionGracePeriod: -5s}"),
                         "document 1 (PriorityClass/p): spec.preemptionGracePeriod",
                         "malformed duration"));
}

TEST(ManifestErrors, SecondsFieldsTakeWholeNonNegativeSeconds) {
  EXPECT_TRUE(fails_with(document("PriorityClass", "p", "{value: 1, minRuntimeSeconds: 30s}"),
                         "document 1 (PriorityClass/p): spec.minRuntimeSeconds",
                         "expected an integer, got '30s'"));
  EXPECT_TRUE(fails_with(document("PriorityClass", "p", "{value: 1, minRuntimeSeconds: -1}"),
                         "document 1 (PriorityClass/p): spec.minRuntimeSeconds",
                         "must be at least 0"));
  EXPECT_TRUE(fails_with(
      document("Workload", "w",
               "{maxRuntimeSeconds: 99999999999999999999, podSets: [{resources: {}}]}", "n"),
      "document 1 (Workload/w): spec.maxRuntimeSeconds", "too large", ErrorCode::kOutOfRange));
}

TEST(ManifestErrors, IntegersBeyondTheirTypeAreOutOfRange) {
  EXPECT_TRUE(fails_with(document("PriorityClass", "p", "{value: 2147483648}"),
                         "document 1 (PriorityClass/p): spec.value", "must be at most 2147483647",
                         ErrorCode::kOutOfRange));
  EXPECT_TRUE(fails_with(document("NodePool", "p", "{flavor: f, count: 100000000, resources: {}}"),
                         "document 1 (NodePool/p): spec.count", "must be at most 100000",
                         ErrorCode::kOutOfRange));
  EXPECT_TRUE(fails_with(document("PriorityClass", "p", "{}"),
                         "document 1 (PriorityClass/p): spec.value",
                         "missing required field 'value'"));
}

TEST(ManifestErrors, PodSetCountsMustBeConsistent) {
  EXPECT_TRUE(fails_with(document("Workload", "w", "{podSets: [{count: 0, resources: {}}]}", "n"),
                         "document 1 (Workload/w): spec.podSets[0].count", "must be at least 1"));
  EXPECT_TRUE(fails_with(
      document("Workload", "w", "{podSets: [{count: 2, minCount: 3, resources: {}}]}", "n"),
      "document 1 (Workload/w): spec.podSets[0].minCount", "minCount 3 exceeds count 2"));
  EXPECT_TRUE(
      fails_with(document("Workload", "w", "{podSets: [{minCount: 0, resources: {}}]}", "n"),
                 "document 1 (Workload/w): spec.podSets[0].minCount", "must be at least 1"));
}

TEST(ManifestErrors, WorkloadNeedsUniquelyNamedPodSets) {
  EXPECT_TRUE(fails_with(document("Workload", "w", "{priorityClass: batch}", "n"),
                         "document 1 (Workload/w): spec.podSets",
                         "missing required field 'podSets'"));
  EXPECT_TRUE(fails_with(document("Workload", "w", "{podSets: []}", "n"),
                         "document 1 (Workload/w): spec.podSets", "at least one pod set"));
  EXPECT_TRUE(
      fails_with(document("Workload", "w",
                          "{podSets: [{name: a, resources: {}}, {name: a, resources: {}}]}", "n"),
                 "document 1 (Workload/w): spec.podSets[1]", "pod set name 'a' is used twice"));
}

TEST(ManifestErrors, WorkloadTotalsThatCouldOverflowAreOutOfRange) {
  EXPECT_TRUE(fails_with(
      document("Workload", "w", "{podSets: [{count: 100000, resources: {memory: 1Pi}}]}", "n"),
      "document 1 (Workload/w): spec.podSets[0]", "too large", ErrorCode::kOutOfRange));
}

TEST(ManifestErrors, ScenarioEntriesNeedTheirRequiredFields) {
  EXPECT_TRUE(fails_with(document("Scenario", "s",
                                  "{workloads: [{at: 0s, name: a, namespace: n, podSets: "
                                  "[{resources: {}}]}]}"),
                         "document 1 (Scenario/s): spec.workloads[0].runtime",
                         "missing required field 'runtime'"));
  EXPECT_TRUE(fails_with(document("Scenario", "s",
                                  "{generators: [{namespace: n, count: -1, every: 1s, runtime: 1s, "
                                  "podSets: [{resources: {}}]}]}"),
                         "document 1 (Scenario/s): spec.generators[0].count",
                         "must be at least 0"));
  EXPECT_TRUE(
      fails_with(document("Scenario", "s", "{nodeEvents: [{at: 1s, node: n, healthy: yes}]}"),
                 "document 1 (Scenario/s): spec.nodeEvents[0].healthy", "expected true or false"));
  EXPECT_TRUE(fails_with(document("Scenario", "s",
                                  "{workloads: [{at: 0s, name: a, namespace: n, runtime: 1s, "
                                  "podSets: [{resources: {}}], command: [x]}]}"),
                         "document 1 (Scenario/s): spec.workloads[0].command",
                         "unknown field 'command'"));
}

TEST(ManifestErrors, StartLatencyByPriorityClassIsAMapOfDurations) {
  EXPECT_TRUE(fails_with(document("Scenario", "s", "{podStartLatencyByPriorityClass: [1s]}"),
                         "document 1 (Scenario/s): spec.podStartLatencyByPriorityClass",
                         "expected a map"));
  EXPECT_TRUE(
      fails_with(document("Scenario", "s", "{podStartLatencyByPriorityClass: {small: soon}}"),
                 "document 1 (Scenario/s): spec.podStartLatencyByPriorityClass.small",
                 "malformed duration 'soon'"));
  EXPECT_TRUE(
      fails_with(document("Scenario", "s", "{podStartLatencyByPriorityClass: {small: -1s}}"),
                 "document 1 (Scenario/s): spec.podStartLatencyByPriorityClass.small",
                 "malformed duration '-1s'"));
  EXPECT_TRUE(fails_with(
      document("Scenario", "s", "{podStartLatencyByPriorityClass: {small: 1s, small: 2s}}"),
      "document 1 (Scenario/s): spec.podStartLatencyByPriorityClass.small", "duplicate"));
}

TEST(ManifestErrors, IdleAfterAndResumeAfterDescribeASpace) {
  EXPECT_TRUE(fails_with(document("Scenario", "s",
                                  "{workloads: [{at: 0s, name: a, namespace: n, runtime: 1s, "
                                  "kind: Job, idleAfter: 1m, podSets: [{resources: {}}]}]}"),
                         "document 1 (Scenario/s): spec.workloads[0]", "needs kind: Space"));
  EXPECT_TRUE(fails_with(document("Scenario", "s",
                                  "{workloads: [{at: 0s, name: a, namespace: n, runtime: 1s, "
                                  "kind: Space, idleTimeoutSeconds: 60, idleAfter: soon, "
                                  "podSets: [{resources: {}}]}]}"),
                         "document 1 (Scenario/s): spec.workloads[0].idleAfter", ""));
}

TEST(ManifestErrors, ABundleHoldsAtMostOneScenario) {
  EXPECT_TRUE(
      fails_with(document("Scenario", "a", "{}") + "---\n" + document("Scenario", "b", "{}"),
                 "document 2 (Scenario/b)", "at most one Scenario; 'a' came first"));
}

TEST(ManifestErrors, YamlSyntaxErrorsGiveTheLineAndColumn) {
  const Status status =
      parse_error("apiVersion: allot/v1\nkind: Team\nmetadata: {name: x}}\n", "teams.yaml");
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "teams.yaml: line 3, column 20");
  EXPECT_EQ(status.message(), "invalid YAML: illegal flow end");
}

// Found by tests/fuzz (yaml_shape, manifest_json): yaml-cpp 0.7 never ends a
// document that starts with ',' (jbeder/yaml-cpp#1040); its loader added an
// empty document per turn until memory ran out. A body of one comma hung a
// request thread of allotd for good. Without the fix the alarm kills the child.
TEST(ManifestErrorsDeathTest, AStrayCommaIsAnErrorNotAHang) {
  for (const char* text : {",\n", "!a ,\n", "{\"kind\": \"Team\"}, {\"kind\": \"Cohort\"}\n"}) {
    EXPECT_EXIT(
        {
          alarm(10);
          const Status status = parse_error(text, "comma.yaml");
          std::exit(status.message() == "invalid YAML: unexpected ','" ? 0 : 1);
        },
        testing::ExitedWithCode(0), "")
        << text;
  }
}

TEST(ManifestErrors, RepeatedKeysAreRejected) {
  EXPECT_TRUE(fails_with(document("Cluster", "c", "{region: eu, region: us}"),
                         "document 1 (Cluster/c): spec.region", "duplicate field 'region'"));
}

TEST(ManifestErrors, DocumentsMustBeMaps) {
  EXPECT_TRUE(fails_with("just a string\n", "document 1", "must be a map"));
  EXPECT_TRUE(fails_with("- apiVersion: allot/v1\n", "document 1", "must be a map"));
}

TEST(ManifestErrors, OneBadDocumentFailsTheWholeBatch) {
  const std::string text = document("Cohort", "org", "{}") + "---\n" +
                           document("Team", "good", "{cohort: org}") + "---\n" +
                           document("Team", "bad", "{cohort: org, fairShareWeight: heavy}");
  Result<ManifestBundle> bundle = parse_manifests(text);
  ASSERT_FALSE(bundle.ok());
  EXPECT_EQ(bundle.status().details(), "document 3 (Team/bad): spec.fairShareWeight");
}

TEST(ManifestErrors, HostileInputIsAnErrorNotACrash) {
  const std::string deep_lists = std::string(100'000, '[') + std::string(100'000, ']');
  EXPECT_FALSE(parse_manifests(deep_lists).ok());
  const std::string deep_maps = [] {
    std::string text;
    for (int i = 0; i < 5000; ++i) text += "{a: ";
    return text + "1" + std::string(5000, '}');
  }();
  EXPECT_FALSE(parse_manifests(deep_maps).ok());
  for (const char* garbage :
       {"{", "key: [", ": :", "\t- x", "\x01\x02", "*undefined", "!!binary x", "? [a]\n: b\n"}) {
    EXPECT_FALSE(parse_manifests(garbage).ok()) << garbage;
  }
}

// Issue 13: a Slurm cluster says where it is (spec.slurm, optional until allotd
// runs the Slurm backend), and only a Slurm cluster may.
TEST(ManifestErrors, ASlurmClusterNeedsItsClusterNameAndPartition) {
  EXPECT_TRUE(fails_with(document("Cluster", "hpc", "{backend: slurm, slurm: {clusterName: c}}"),
                         "document 1 (Cluster/hpc): spec.slurm", "needs clusterName"));
  EXPECT_TRUE(fails_with(
      document("Cluster", "hpc",
               "{backend: slurm, slurm: {clusterName: c, partition: gpu, rest: 'ftp://x'}}"),
      "document 1 (Cluster/hpc): spec.slurm", "slurmrestd's URL"));
  EXPECT_TRUE(fails_with(
      document("Cluster", "main", "{backend: local, slurm: {clusterName: c, partition: gpu}}"),
      "document 1 (Cluster/main): spec", "backend slurm only"));
}

TEST(ManifestErrors, ASlurmClusterParsesWhereItIs) {
  const ManifestBundle bundle = parse_ok(document(
      "Cluster", "hpc",
      "{backend: slurm, slurm: {clusterName: c1, partition: gpu, rest: 'http://127.0.0.1:6820'}}"));
  ASSERT_EQ(bundle.policy.clusters.size(), 1u);
  EXPECT_EQ(bundle.policy.clusters[0].slurm, (SlurmSettings{"c1", "gpu", "http://127.0.0.1:6820"}));
}

}  // namespace
}  // namespace allot
