// What parse_manifests() produces from valid input: the DESIGN.md examples,
// every kind, defaults, JSON and document order.
#include "api/manifest_parser.h"

#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "manifest_fixtures.h"

namespace allot {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;

std::string example_path() {
  return std::string(ALLOT_SOURCE_DIR) + "/examples/design-example.yaml";
}

TEST(ManifestParser, DesignExampleFileParsesToTheValuesItStates) {
  Result<ManifestBundle> loaded = load_manifest_file(example_path());
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  const Policy& policy = loaded->policy;

  ASSERT_EQ(policy.flavors.size(), 1u);
  const ResourceFlavor& h100 = policy.flavors[0];
  EXPECT_EQ(h100.meta.name, "h100");
  EXPECT_EQ(h100.node_labels.at("gpu.model"), "h100");
  EXPECT_DOUBLE_EQ(h100.price.gpu_hour, 4.50);
  EXPECT_DOUBLE_EQ(h100.price.cpu_hour, 0.04);
  EXPECT_DOUBLE_EQ(h100.price.memory_gib_hour, 0.005);
  EXPECT_EQ(h100.price.currency, "USD");

  ASSERT_EQ(policy.clusters.size(), 1u);
  const Cluster& main = policy.clusters[0];
  EXPECT_EQ(main.meta.name, "main");
  EXPECT_EQ(main.backend, BackendKind::kLocal);
  EXPECT_EQ(main.region, "eu-west-1");
  EXPECT_EQ(main.account, "capacity");
  EXPECT_EQ(main.max_data_classification, "confidential");
  EXPECT_FALSE(main.scheduling.fair_sharing);
  EXPECT_EQ(main.scheduling.cycle, Duration::seconds(1));
  EXPECT_EQ(main.scheduling.min_cycle_interval, Duration()) << "by default a cycle at every change";

  ASSERT_EQ(policy.node_pools.size(), 1u);
  const NodePool& pool = policy.node_pools[0];
  EXPECT_EQ(pool.meta.name, "h100-pool");
  EXPECT_EQ(pool.cluster, "main");
  EXPECT_EQ(pool.flavor, "h100");
  EXPECT_EQ(pool.count, 16);
  EXPECT_EQ(pool.resources, ResourceVector(8, 96'000, 1024 * kGi));
  EXPECT_EQ(pool.topology.nodes_per_rack, 4);
  EXPECT_EQ(pool.topology.racks_per_block, 2);

  ASSERT_EQ(policy.cohorts.size(), 1u);
  EXPECT_EQ(policy.cohorts[0].meta.name, "org");
  EXPECT_EQ(policy.cohorts[0].parent, "");
  EXPECT_DOUBLE_EQ(policy.cohorts[0].fair_share_weight, 1.0);

  ASSERT_EQ(policy.priority_classes.size(), 1u);
  const PriorityClass& production = policy.priority_classes[0];
  EXPECT_EQ(production.meta.name, "production");
  EXPECT_EQ(production.value, 1000);
  EXPECT_EQ(production.preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(production.min_runtime, Duration());
  EXPECT_EQ(production.preemption_grace_period, Duration::seconds(30));
}

TEST(ManifestParser, DesignExampleTeamHasItsQuotaPreemptionAndOwners) {
  Result<ManifestBundle> loaded = load_manifest_file(example_path());
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  ASSERT_EQ(loaded->policy.teams.size(), 1u);
  const Team& team = loaded->policy.teams[0];
  EXPECT_EQ(team.meta.name, "llm-training");
  EXPECT_EQ(team.namespace_name, "llm-training");
  EXPECT_EQ(team.cohort, "org");
  EXPECT_DOUBLE_EQ(team.fair_share_weight, 3.0);

  ASSERT_EQ(team.quota.size(), 1u);
  const FlavorQuota& quota = team.quota[0];
  EXPECT_EQ(quota.flavor, "h100");
  EXPECT_EQ(quota.of(Resource::kGpu).nominal, 77);
  EXPECT_EQ(quota.of(Resource::kGpu).borrowing_limit, 51);
  EXPECT_EQ(quota.of(Resource::kGpu).lending_limit, 77);
  EXPECT_EQ(quota.of(Resource::kCpu).nominal, 920'000);
  EXPECT_EQ(quota.of(Resource::kCpu).borrowing_limit, std::nullopt);
  EXPECT_EQ(quota.of(Resource::kCpu).lending_limit, std::nullopt);
  EXPECT_TRUE(quota.declared[static_cast<size_t>(Resource::kGpu)]);
  EXPECT_TRUE(quota.declared[static_cast<size_t>(Resource::kCpu)]);
  EXPECT_FALSE(quota.declared[static_cast<size_t>(Resource::kMemory)]);

  EXPECT_EQ(team.preemption.reclaim_within_cohort, ReclaimPolicy::kAny);
  EXPECT_EQ(team.preemption.within_team, WithinTeamPolicy::kLowerPriority);
  EXPECT_EQ(team.preemption.borrow_within_cohort, BorrowWithinCohortPolicy::kNever);
  EXPECT_EQ(team.preemption.borrow_max_priority_threshold, 100);
  EXPECT_EQ(team.queueing, QueueingStrategy::kBestEffortFifo);
  EXPECT_EQ(team.allowed_priority_classes, (std::vector<std::string>{"production", "batch"}));
  EXPECT_EQ(team.owners.business, "ana@example.com");
  EXPECT_EQ(team.owners.operations, "ops@example.com");
  EXPECT_EQ(team.owners.cost, "finance@example.com");
}

TEST(ManifestParser, TeamNetworkEgressNamespacesAreReadSorted) {
  Result<ManifestBundle> bundle = parse_manifests(
      document("Team", "t", "{network: {egressNamespaces: [shared-data, monitoring]}}"), "t.yaml");
  ASSERT_TRUE(bundle.ok()) << bundle.status().to_string();
  EXPECT_EQ(bundle->policy.teams.at(0).network.egress_namespaces,
            (std::vector<std::string>{"monitoring", "shared-data"}));
  Result<ManifestBundle> none = parse_manifests(document("Team", "t", "{}"), "t.yaml");
  ASSERT_TRUE(none.ok()) << none.status().to_string();
  EXPECT_TRUE(none->policy.teams.at(0).network.egress_namespaces.empty());
}

TEST(ManifestParser, DesignExampleWorkloadHasItsPodSetsAndRuntime) {
  Result<ManifestBundle> loaded = load_manifest_file(example_path());
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_FALSE(loaded->scenario.has_value());
  ASSERT_EQ(loaded->workloads.size(), 1u);
  const Workload& workload = loaded->workloads[0];
  EXPECT_EQ(workload.meta.name, "llama-pretrain");
  EXPECT_EQ(workload.meta.namespace_name, "llm-training");
  EXPECT_EQ(workload.spec.kind, WorkloadKind::kTrainingJob);
  EXPECT_EQ(workload.spec.priority_class, "production");
  ASSERT_EQ(workload.spec.pod_sets.size(), 1u);
  const PodSet& workers = workload.spec.pod_sets[0];
  EXPECT_EQ(workers.name, "workers");
  EXPECT_EQ(workers.count, 4);
  EXPECT_EQ(workers.min_count, 4);
  EXPECT_EQ(workers.resources, ResourceVector(8, 96'000, 512 * kGi));
  EXPECT_EQ(workers.flavor, "");
  EXPECT_EQ(workload.spec.command, (std::vector<std::string>{"python3", "train.py"}));
  EXPECT_EQ(workload.spec.max_runtime, Duration::seconds(86'400));
  ASSERT_TRUE(workload.spec.checkpoint.has_value());
  EXPECT_EQ(workload.spec.checkpoint->env, "ALLOT_CHECKPOINT_DIR");
  EXPECT_EQ(workload.spec.idle_timeout, std::nullopt);
}

TEST(ManifestParser, DesignExampleParsesToAPolicyThatValidates) {
  Result<ManifestBundle> loaded = load_manifest_file(example_path());
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  // The example names a "batch" class it does not define; add it to close the references.
  Policy policy = loaded->policy;
  PriorityClass batch;
  batch.meta.name = "batch";
  policy.priority_classes.push_back(batch);
  EXPECT_TRUE(validate_policy(policy).ok()) << validate_policy(policy).to_string();
}

TEST(ManifestParser, DesignScenarioExampleParsesArrivalsAndGenerators) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Scenario
metadata: {name: seed-reclaim}
spec:
  cycle: 1s                        # scheduling period in virtual time (overrides the Cluster's)
  workloads:                       # explicit arrivals
    - {at: 0s, name: sweep, namespace: research, priorityClass: batch, runtime: 2h,
       podSets: [{count: 6, resources: {gpu: 8}}]}
  generators:                      # repeated arrivals
    - {namespace: research, priorityClass: batch, count: 350, every: 100ms, start: 0s,
       runtime: 200ms, maxRuntimeSeconds: 60, podSets: [{count: 1, resources: {cpu: 1}}]}
)");
  ASSERT_TRUE(bundle.scenario.has_value());
  const Scenario& scenario = *bundle.scenario;
  EXPECT_EQ(scenario.meta.name, "seed-reclaim");
  EXPECT_EQ(scenario.cycle, Duration::seconds(1));

  ASSERT_EQ(scenario.workloads.size(), 1u);
  const ScenarioArrival& sweep = scenario.workloads[0];
  EXPECT_EQ(sweep.at, Duration());
  EXPECT_EQ(sweep.runtime, Duration::hours(2));
  EXPECT_EQ(sweep.workload.meta.name, "sweep");
  EXPECT_EQ(sweep.workload.meta.namespace_name, "research");
  EXPECT_EQ(sweep.workload.spec.priority_class, "batch");
  ASSERT_EQ(sweep.workload.spec.pod_sets.size(), 1u);
  EXPECT_EQ(sweep.workload.spec.pod_sets[0].name, "main");
  EXPECT_EQ(sweep.workload.spec.pod_sets[0].count, 6);
  EXPECT_EQ(sweep.workload.spec.pod_sets[0].resources, ResourceVector(8, 0, 0));

  ASSERT_EQ(scenario.generators.size(), 1u);
  const ScenarioGenerator& generator = scenario.generators[0];
  EXPECT_EQ(generator.name_prefix, "research-batch");
  EXPECT_EQ(generator.namespace_name, "research");
  EXPECT_EQ(generator.count, 350);
  EXPECT_EQ(generator.every, Duration::millis(100));
  EXPECT_EQ(generator.start, Duration());
  EXPECT_EQ(generator.runtime, Duration::millis(200));
  EXPECT_EQ(generator.spec.priority_class, "batch");
  EXPECT_EQ(generator.spec.max_runtime, Duration::seconds(60));
  ASSERT_EQ(generator.spec.pod_sets.size(), 1u);
  EXPECT_EQ(generator.spec.pod_sets[0].resources, ResourceVector(0, 1000, 0));
  EXPECT_TRUE(scenario.node_events.empty());
}

TEST(ManifestParser, ScenarioReadsNodeEventsCheckpointsAndExplicitPrefixes) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Scenario
metadata: {name: failures}
spec:
  workloads:
    - at: 5s
      name: train
      namespace: research
      kind: TrainingJob
      runtime: 1h
      maxRuntimeSeconds: 7200
      checkpoint: {env: CKPT, intervalSeconds: 600}
      podSets: [{name: workers, count: 2, minCount: 1, resources: {gpu: 8}, flavor: h100}]
  generators:
    - {namePrefix: probe, namespace: research, count: 3, every: 1m, start: 10s,
       runtime: 30s, podSets: [{resources: {cpu: 500m}}]}
  nodeEvents:
    - {at: 30m, node: h100-pool-3, healthy: false}
    - {at: 1h, node: h100-pool-3, healthy: true}
)");
  ASSERT_TRUE(bundle.scenario.has_value());
  const Scenario& scenario = *bundle.scenario;
  EXPECT_EQ(scenario.cycle, std::nullopt);
  ASSERT_EQ(scenario.workloads.size(), 1u);
  const WorkloadSpec& train = scenario.workloads[0].workload.spec;
  EXPECT_EQ(scenario.workloads[0].at, Duration::seconds(5));
  EXPECT_EQ(train.kind, WorkloadKind::kTrainingJob);
  EXPECT_EQ(train.max_runtime, Duration::hours(2));
  ASSERT_TRUE(train.checkpoint.has_value());
  EXPECT_EQ(train.checkpoint->env, "CKPT");
  EXPECT_EQ(train.checkpoint->interval, Duration::minutes(10));
  EXPECT_EQ(train.pod_sets[0].min_count, 1);
  EXPECT_EQ(train.pod_sets[0].flavor, "h100");

  ASSERT_EQ(scenario.generators.size(), 1u);
  EXPECT_EQ(scenario.generators[0].name_prefix, "probe");
  EXPECT_EQ(scenario.generators[0].start, Duration::seconds(10));
  EXPECT_EQ(scenario.generators[0].every, Duration::minutes(1));
  EXPECT_EQ(scenario.generators[0].spec.kind, WorkloadKind::kJob);

  ASSERT_EQ(scenario.node_events.size(), 2u);
  EXPECT_EQ(scenario.node_events[0],
            (ScenarioNodeEvent{Duration::minutes(30), "h100-pool-3", false}));
  EXPECT_EQ(scenario.node_events[1], (ScenarioNodeEvent{Duration::hours(1), "h100-pool-3", true}));
}

TEST(ManifestParser, ScenarioReadsPodLatenciesWithOnePerPriorityClass) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Scenario
metadata: {name: latencies}
spec:
  podStartLatency: 100ms
  podStartLatencyByPriorityClass: {small: 1.9s, large: 80ms}
  podStopLatency: 2s
)");
  ASSERT_TRUE(bundle.scenario.has_value());
  EXPECT_EQ(bundle.scenario->pod_start_latency, Duration::millis(100));
  EXPECT_EQ(bundle.scenario->pod_start_latency_by_class,
            (std::map<std::string, Duration>{{"large", Duration::millis(80)},
                                             {"small", Duration::millis(1900)}}));
  EXPECT_EQ(bundle.scenario->pod_stop_latency, Duration::seconds(2));
}

TEST(ManifestParser, ScenarioSpaceArrivalReadsItsUse) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Scenario
metadata: {name: spaces}
spec:
  workloads:
    - {at: 0s, name: notebook, namespace: research, kind: Space, runtime: 1h,
       idleTimeoutSeconds: 600, idleAfter: 20m, resumeAfter: 1h,
       podSets: [{resources: {gpu: 1}}]}
)");
  ASSERT_TRUE(bundle.scenario.has_value());
  ASSERT_EQ(bundle.scenario->workloads.size(), 1u);
  const ScenarioArrival& notebook = bundle.scenario->workloads[0];
  EXPECT_EQ(notebook.workload.spec.kind, WorkloadKind::kSpace);
  EXPECT_EQ(notebook.workload.spec.idle_timeout, Duration::minutes(10));
  EXPECT_EQ(notebook.idle_after, Duration::minutes(20));
  EXPECT_EQ(notebook.resume_after, Duration::hours(1));
}

TEST(ManifestParser, GeneratorPrefixDefaultsToTheNamespaceWithoutAPriorityClass) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Scenario
metadata: {name: s}
spec:
  generators: [{namespace: research, count: 1, every: 1s, runtime: 1s,
                podSets: [{resources: {gpu: 1}}]}]
)");
  ASSERT_TRUE(bundle.scenario.has_value());
  EXPECT_EQ(bundle.scenario->generators[0].name_prefix, "research");
}

TEST(ManifestParser, OmittedFieldsTakeTheirDefaults) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Cluster
metadata: {name: c}
---
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: f}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: p}
spec: {value: -5}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
---
apiVersion: allot/v1
kind: Workload
metadata: {name: w, namespace: research}
spec:
  podSets: [{resources: {gpu: 1}}]
)");
  ASSERT_EQ(bundle.policy.clusters.size(), 1u);
  EXPECT_EQ(bundle.policy.clusters[0].backend, BackendKind::kLocal);
  EXPECT_EQ(bundle.policy.clusters[0].scheduling, SchedulingSettings{});
  ASSERT_EQ(bundle.policy.flavors.size(), 1u);
  EXPECT_EQ(bundle.policy.flavors[0].price, FlavorPrice{});
  ASSERT_EQ(bundle.policy.cohorts.size(), 1u);
  EXPECT_EQ(bundle.policy.cohorts[0].parent, "");
  EXPECT_DOUBLE_EQ(bundle.policy.cohorts[0].fair_share_weight, 1.0);

  ASSERT_EQ(bundle.policy.priority_classes.size(), 1u);
  const PriorityClass& p = bundle.policy.priority_classes[0];
  EXPECT_EQ(p.value, -5);
  EXPECT_EQ(p.preemption_policy, PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(p.min_runtime, Duration());
  EXPECT_EQ(p.preemption_grace_period, Duration::seconds(30));

  ASSERT_EQ(bundle.policy.teams.size(), 1u);
  const Team& team = bundle.policy.teams[0];
  EXPECT_EQ(team.namespace_name, "research");
  EXPECT_EQ(team.cohort, "");
  EXPECT_DOUBLE_EQ(team.fair_share_weight, 1.0);
  EXPECT_TRUE(team.quota.empty());
  EXPECT_EQ(team.preemption, TeamPreemption{});
  EXPECT_EQ(team.queueing, QueueingStrategy::kBestEffortFifo);
  EXPECT_TRUE(team.storage.empty());

  ASSERT_EQ(bundle.workloads.size(), 1u);
  const WorkloadSpec& spec = bundle.workloads[0].spec;
  EXPECT_EQ(spec.kind, WorkloadKind::kJob);
  EXPECT_EQ(spec.priority_class, "");
  ASSERT_EQ(spec.pod_sets.size(), 1u);
  EXPECT_EQ(spec.pod_sets[0].name, "main");
  EXPECT_EQ(spec.pod_sets[0].count, 1);
  EXPECT_EQ(spec.pod_sets[0].min_count, 0);
  EXPECT_EQ(spec.max_runtime, std::nullopt);
  EXPECT_EQ(spec.checkpoint, std::nullopt);
}

TEST(ManifestParser, ClusterFlavorCohortAndPriorityClassReadTheirOptionalFields) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Cluster
metadata: {name: hpc, labels: {site: lyon}}
spec: {backend: slurm, orchestratorVersion: "23.11", scheduling: {fairSharing: true, cycle: 1h30m, minCycleInterval: 250ms, consolidation: WithinNominal}}
---
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: a100}
spec: {topologyLevels: [block, rack], price: {gpuHour: 2, currency: EUR}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: child}
spec:
  parent: org
  fairShareWeight: 0.5
  quota: [{flavor: a100, resources: {memory: {nominal: 1Ti, lendingLimit: 512Gi}}}]
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 10, preemptionPolicy: Never, minRuntimeSeconds: 600, preemptionGracePeriod: 100ms}
)");
  const Policy& policy = bundle.policy;
  ASSERT_EQ(policy.clusters.size(), 1u);
  EXPECT_EQ(policy.clusters[0].meta.labels.at("site"), "lyon");
  EXPECT_EQ(policy.clusters[0].backend, BackendKind::kSlurm);
  EXPECT_EQ(policy.clusters[0].orchestrator_version, "23.11");
  EXPECT_TRUE(policy.clusters[0].scheduling.fair_sharing);
  EXPECT_EQ(policy.clusters[0].scheduling.cycle, Duration::minutes(90));
  EXPECT_EQ(policy.clusters[0].scheduling.min_cycle_interval, Duration::millis(250));
  EXPECT_EQ(policy.clusters[0].scheduling.consolidation, ConsolidationPolicy::kWithinNominal);
  ASSERT_EQ(policy.flavors.size(), 1u);
  EXPECT_EQ(policy.flavors[0].topology_levels, (std::vector<std::string>{"block", "rack"}));
  EXPECT_DOUBLE_EQ(policy.flavors[0].price.gpu_hour, 2.0);
  EXPECT_EQ(policy.flavors[0].price.currency, "EUR");
  ASSERT_EQ(policy.cohorts.size(), 1u);
  EXPECT_EQ(policy.cohorts[0].parent, "org");
  EXPECT_DOUBLE_EQ(policy.cohorts[0].fair_share_weight, 0.5);
  ASSERT_EQ(policy.cohorts[0].quota.size(), 1u);
  EXPECT_EQ(policy.cohorts[0].quota[0].of(Resource::kMemory).nominal, 1024 * kGi);
  EXPECT_EQ(policy.cohorts[0].quota[0].of(Resource::kMemory).lending_limit, 512 * kGi);
  ASSERT_EQ(policy.priority_classes.size(), 1u);
  EXPECT_EQ(policy.priority_classes[0].preemption_policy, PreemptionPolicy::kNever);
  EXPECT_EQ(policy.priority_classes[0].min_runtime, Duration::minutes(10));
  EXPECT_EQ(policy.priority_classes[0].preemption_grace_period, Duration::millis(100));
}

TEST(ManifestParser, TeamAndWorkloadReadTheirOptionalFields) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Team
metadata: {name: vision}
spec:
  namespace: cv
  queueingStrategy: StrictFIFO
  preemption: {reclaimWithinCohort: LowerPriority, withinTeam: Never,
               borrowWithinCohort: {policy: LowerPriority}}
  storage: {class: fast-ssd, size: 10Ti}
---
apiVersion: allot/v1
kind: Workload
metadata: {name: notebook, namespace: cv}
spec:
  kind: Space
  podSets: [{resources: {gpu: 1, cpu: "0.5", memory: 16Gi}}]
  env: {HOME: /data}
  idleTimeoutSeconds: 3600
)");
  const Policy& policy = bundle.policy;
  ASSERT_EQ(policy.teams.size(), 1u);
  const Team& team = policy.teams[0];
  EXPECT_EQ(team.namespace_name, "cv");
  EXPECT_EQ(team.queueing, QueueingStrategy::kStrictFifo);
  EXPECT_EQ(team.preemption.reclaim_within_cohort, ReclaimPolicy::kLowerPriority);
  EXPECT_EQ(team.preemption.within_team, WithinTeamPolicy::kNever);
  EXPECT_EQ(team.preemption.borrow_within_cohort, BorrowWithinCohortPolicy::kLowerPriority);
  EXPECT_EQ(team.preemption.borrow_max_priority_threshold, std::nullopt);
  EXPECT_EQ(team.storage,
            (std::map<std::string, std::string>{{"class", "fast-ssd"}, {"size", "10Ti"}}));
  ASSERT_EQ(bundle.workloads.size(), 1u);
  const WorkloadSpec& notebook = bundle.workloads[0].spec;
  EXPECT_EQ(notebook.kind, WorkloadKind::kSpace);
  EXPECT_EQ(notebook.pod_sets[0].resources, ResourceVector(1, 500, 16 * kGi));
  EXPECT_EQ(notebook.env.at("HOME"), "/data");
  EXPECT_EQ(notebook.idle_timeout, Duration::hours(1));
}

TEST(ManifestParser, QuantitiesAcceptIntegersStringsAndSuffixes) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: NodePool
metadata: {name: cpu-pool}
spec: {flavor: cpu, count: 2, resources: {gpu: "0", cpu: 500m, memory: 512Mi}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: big-pool}
spec: {flavor: cpu, count: 0, resources: {cpu: 96, memory: 2G}}
)");
  ASSERT_EQ(bundle.policy.node_pools.size(), 2u);
  EXPECT_EQ(bundle.policy.node_pools[0].resources, ResourceVector(0, 500, 512 << 20));
  EXPECT_EQ(bundle.policy.node_pools[1].resources, ResourceVector(0, 96'000, 2'000'000'000));
  EXPECT_EQ(bundle.policy.node_pools[1].count, 0);
}

TEST(ManifestParser, UnnamedPodSetsAreNumberedWhenThereAreSeveral) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Workload
metadata: {name: w, namespace: research}
spec:
  podSets: [{resources: {gpu: 1}}, {name: driver, resources: {cpu: 1}}, {resources: {cpu: 2}}]
)");
  ASSERT_EQ(bundle.workloads.size(), 1u);
  const std::vector<PodSet>& pod_sets = bundle.workloads[0].spec.pod_sets;
  ASSERT_EQ(pod_sets.size(), 3u);
  EXPECT_EQ(pod_sets[0].name, "podset-0");
  EXPECT_EQ(pod_sets[1].name, "driver");
  EXPECT_EQ(pod_sets[2].name, "podset-2");
}

TEST(ManifestParser, KeepsDocumentsInFileOrder) {
  std::string text;
  for (const char* name : {"charlie", "alpha", "bravo"}) {
    text += "apiVersion: allot/v1\nkind: Team\nmetadata: {name: " + std::string(name) +
            "}\n---\napiVersion: allot/v1\nkind: Workload\nmetadata: {name: " + name +
            ", namespace: ns}\nspec: {podSets: [{resources: {cpu: 1}}]}\n---\n";
  }
  const ManifestBundle bundle = parse_ok(text);
  ASSERT_EQ(bundle.policy.teams.size(), 3u);
  EXPECT_EQ(bundle.policy.teams[0].meta.name, "charlie");
  EXPECT_EQ(bundle.policy.teams[1].meta.name, "alpha");
  EXPECT_EQ(bundle.policy.teams[2].meta.name, "bravo");
  ASSERT_EQ(bundle.workloads.size(), 3u);
  EXPECT_EQ(bundle.workloads[0].meta.name, "charlie");
  EXPECT_EQ(bundle.workloads[2].meta.name, "bravo");
}

TEST(ManifestParser, KeepsDuplicatesForValidatePolicyToReport) {
  const ManifestBundle bundle = parse_ok(R"(
apiVersion: allot/v1
kind: Team
metadata: {name: research}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
)");
  ASSERT_EQ(bundle.policy.teams.size(), 2u);
  EXPECT_FALSE(validate_policy(bundle.policy).ok());
}

TEST(ManifestParser, SkipsEmptyDocuments) {
  const ManifestBundle bundle = parse_ok(R"(---
# only a comment
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
---
)");
  ASSERT_EQ(bundle.policy.cohorts.size(), 1u);
  EXPECT_EQ(bundle.policy.cohorts[0].meta.name, "org");
}

TEST(ManifestParser, EmptyInputIsAnEmptyBundle) {
  const ManifestBundle bundle = parse_ok("");
  EXPECT_EQ(bundle.policy, Policy{});
  EXPECT_TRUE(bundle.workloads.empty());
  EXPECT_FALSE(bundle.scenario.has_value());
}

TEST(ManifestParser, AcceptsJsonBecauseJsonIsYaml) {
  const ManifestBundle bundle = parse_ok(R"({
  "apiVersion": "allot/v1",
  "kind": "Team",
  "metadata": {"name": "research", "labels": {"org": "ai"}},
  "spec": {
    "cohort": "org",
    "fairShareWeight": 2.5,
    "quota": [{"flavor": "h100", "resources": {"gpu": {"nominal": 16, "borrowingLimit": 8}}}],
    "allowedPriorityClasses": ["batch"]
  }
})");
  ASSERT_EQ(bundle.policy.teams.size(), 1u);
  const Team& team = bundle.policy.teams[0];
  EXPECT_EQ(team.meta.labels.at("org"), "ai");
  EXPECT_EQ(team.cohort, "org");
  EXPECT_DOUBLE_EQ(team.fair_share_weight, 2.5);
  EXPECT_EQ(team.quota[0].of(Resource::kGpu).nominal, 16);
  EXPECT_EQ(team.quota[0].of(Resource::kGpu).borrowing_limit, 8);
  EXPECT_EQ(team.allowed_priority_classes, std::vector<std::string>{"batch"});
}

TEST(ManifestParser, AcceptsAStreamOfJsonDocuments) {
  const ManifestBundle bundle =
      parse_ok(R"({"apiVersion": "allot/v1", "kind": "Cohort", "metadata": {"name": "org"}})"
               "\n---\n"
               R"({"apiVersion": "allot/v1", "kind": "Workload",
          "metadata": {"name": "w", "namespace": "research"},
          "spec": {"podSets": [{"count": 2, "resources": {"gpu": 8, "memory": "64Gi"}}]}})");
  ASSERT_EQ(bundle.policy.cohorts.size(), 1u);
  ASSERT_EQ(bundle.workloads.size(), 1u);
  EXPECT_EQ(bundle.workloads[0].spec.pod_sets[0].resources, ResourceVector(8, 0, 64 * kGi));
}

}  // namespace
}  // namespace allot
