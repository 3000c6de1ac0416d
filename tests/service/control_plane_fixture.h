// Test fixture for ControlPlane: an in-memory store, a recording executor and
// health checker, a manual clock, and the loop driven by hand (run_once).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "backends/executor.h"
#include "backends/node_health.h"
#include "base/clock.h"
#include "base/logger.h"
#include "control_plane_calls.h"
#include "service/control/control_plane.h"
#include "store/group_committer.h"
#include "store/memory_store.h"

namespace allot::testing {

// Two 8-GPU nodes; teams `prod` (reclaims) and `research` (borrows) share a
// cohort with 8 GPUs each.
inline constexpr const char* kTwoTeamPolicy = R"(
apiVersion: allot/v1
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
spec: {cluster: local, flavor: gpu, count: 2, resources: {gpu: 8, cpu: 64, memory: 256Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: high}
spec: {value: 1000, preemptionGracePeriod: 30s}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionGracePeriod: 30s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: prod}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
  preemption: {reclaimWithinCohort: Any, withinTeam: LowerPriority}
---
apiVersion: allot/v1
kind: Team
metadata: {name: research}
spec:
  cohort: org
  quota: [{flavor: gpu, resources: {gpu: {nominal: 8}}}]
)";

// A workload manifest for `team` asking for `pods` pods of `gpus` GPUs.
inline std::string workload_yaml(const std::string& name, const std::string& team, int gpus,
                                 int pods = 1, const std::string& priority = "low",
                                 const std::string& extra = "") {
  return "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: " + name + ", namespace: " + team +
         "}\nspec:\n  priorityClass: " + priority +
         "\n  podSets: [{count: " + std::to_string(pods) +
         ", resources: {gpu: " + std::to_string(gpus) + "}}]\n  command: [/bin/true]\n" + extra;
}

// One launched pod as the tests look at it.
struct RecordedPod {
  uint64_t workload_id = 0;
  int32_t pod_index = 0;
  std::string team;
  std::string node;
  std::vector<int32_t> gpus;
  std::vector<std::string> command;
  std::map<std::string, std::string> env;
};

// Records launches and stops; reports each launched pod as started (or, with
// fail_launches, as unable to start) to the sink, as a backend that starts
// pods itself does before launch() returns.
class RecordingExecutor final : public Executor {
 public:
  void launch(const WorkloadLaunch& launch) override {
    record_launch(launch);
    if (after_launch) after_launch(launch);  // no lock held: it may report to the sink
  }
  void record_launch(const WorkloadLaunch& launch) {
    std::lock_guard lock(mu_);
    calls.push_back("launch " + std::to_string(launch.workload.value()));
    workload_launches.push_back(launch);
    for (const PlacedPod& pod : launch.pods) {
      launches.push_back({launch.workload.value(), pod.index, launch.team.str(), pod.node.str(),
                          pod.gpus, launch.command, launch.env});
      PodEvent event;
      event.pod = {launch.workload, pod.index};
      if (fail_launches) {
        event.phase = PodPhase::kExited;
        event.exit_code = 127;
        event.launch_error = "cannot fork";
      }
      if (sink != nullptr) sink->on_pod_event(event);
    }
  }
  // Recorded; taken (as a backend that holds jobs ready, Slurm, does) only
  // with accept_handovers. A turnover's comes on the action runner's thread.
  bool hand_over(const WorkloadLaunch& launch, const std::vector<WorkloadId>& /*after*/) override {
    {
      std::lock_guard lock(mu_);
      calls.push_back("hand_over " + std::to_string(launch.workload.value()));
      handed_over.push_back(launch.workload.value());
    }
    handed_cv_.notify_all();
    return accept_handovers;
  }
  // The workloads handed over so far, in order, once `workload` is among
  // them or after `deadline`.
  std::vector<uint64_t> handed_over_once(uint64_t workload, std::chrono::milliseconds deadline) {
    std::unique_lock lock(mu_);
    handed_cv_.wait_for(lock, deadline, [&] {
      return std::find(handed_over.begin(), handed_over.end(), workload) != handed_over.end();
    });
    return handed_over;
  }
  void stop(WorkloadId workload, Duration grace) override {
    std::lock_guard lock(mu_);
    calls.push_back("stop " + std::to_string(workload.value()));
    stops.emplace_back(workload.value(), grace);
  }
  // Safe while other threads launch and stop.
  size_t stop_count() {
    std::lock_guard lock(mu_);
    return stops.size();
  }
  Result<std::string> read_log(PodId pod, int64_t offset, int64_t) override {
    const std::string text =
        "log of " + std::to_string(pod.workload.value()) + "/" + std::to_string(pod.index);
    return offset >= static_cast<int64_t>(text.size()) ? std::string() : text.substr(offset);
  }
  [[nodiscard]] std::string log_location(PodId pod) const override {
    return "/logs/" + std::to_string(pod.workload.value()) + "/pod-" + std::to_string(pod.index) +
           ".log";
  }
  // With keeps_checkpoints: a folder per workload, whose newest file's time
  // is what checkpoint_times says (set between passes of the loop).
  [[nodiscard]] std::string checkpoint_dir(const CheckpointOwner& owner) const override {
    if (!keeps_checkpoints) return {};
    return "/checkpoints/" + owner.team.str() + "/" + owner.namespace_name + "/" + owner.name +
           "-" + std::to_string(owner.workload.value());
  }
  [[nodiscard]] std::optional<Timestamp> last_checkpoint(const std::string& dir) const override {
    const auto it = checkpoint_times.find(dir);
    return it == checkpoint_times.end() ? std::nullopt : std::optional<Timestamp>(it->second);
  }
  // What the test says a workload's pods are doing (idle Spaces); none: no reading.
  std::optional<ActivitySample> activity(WorkloadId workload) override {
    std::lock_guard lock(mu_);
    auto it = activity_samples.find(workload.value());
    if (it == activity_samples.end()) return std::nullopt;
    return it->second;
  }
  void set_activity(uint64_t workload, ActivitySample sample) {
    std::lock_guard lock(mu_);
    activity_samples[workload] = sample;
  }
  // What the test says the GPUs measure (GPU utilisation); empty: not measured.
  std::vector<GpuUsageSample> gpu_usage() override {
    std::lock_guard lock(mu_);
    return gpu_samples;
  }
  void set_gpu_usage(std::vector<GpuUsageSample> samples) {
    std::lock_guard lock(mu_);
    gpu_samples = std::move(samples);
  }

  // What accounted_jobs() answers (the backend's own accounting).
  Result<std::vector<BackendJobRecord>> accounted_jobs() override { return accounted; }
  // What account_usage() answers (the accounts of `account_usage_answer`
  // over the hours asked, or `account_usage_error`); each ask is recorded.
  Result<BackendUsage> account_usage(Timestamp from, Timestamp to) override {
    std::lock_guard lock(mu_);
    account_usage_asks.emplace_back(from, to);
    if (!account_usage_error.ok()) return account_usage_error;
    return BackendUsage{"test accounting", from, to, account_usage_answer};
  }
  // What backend_job() answers per workload (a backend with jobs: Slurm).
  [[nodiscard]] std::optional<BackendJob> backend_job(WorkloadId workload) const override {
    std::lock_guard lock(mu_);
    const auto it = backend_jobs.find(workload.value());
    if (it == backend_jobs.end()) return std::nullopt;
    return it->second;
  }
  void set_backend_job(uint64_t workload, BackendJob job) {
    std::lock_guard lock(mu_);
    backend_jobs[workload] = std::move(job);
  }
  void forget_backend_job(uint64_t workload) {
    std::lock_guard lock(mu_);
    backend_jobs.erase(workload);
  }

  PodEventSink* sink = nullptr;
  // Called at the end of each launch (a slow fork, a pod that ends at once).
  std::function<void(const WorkloadLaunch&)> after_launch;
  std::vector<BackendJobRecord> accounted;
  std::vector<BackendAccountUsage> account_usage_answer;
  Status account_usage_error;
  std::vector<std::pair<Timestamp, Timestamp>> account_usage_asks;
  std::map<uint64_t, BackendJob> backend_jobs;
  std::vector<RecordedPod> launches;
  std::vector<WorkloadLaunch> workload_launches;
  std::vector<std::pair<uint64_t, Duration>> stops;
  std::vector<std::string> calls;  // "launch <uid>", "stop <uid>", "hand_over <uid>", in order
  std::vector<uint64_t> handed_over;
  bool accept_handovers = false;
  bool fail_launches = false;
  bool keeps_checkpoints = false;
  std::map<std::string, Timestamp> checkpoint_times;

 private:
  std::map<uint64_t, ActivitySample> activity_samples;
  std::vector<GpuUsageSample> gpu_samples;
  mutable std::mutex mu_;
  std::condition_variable handed_cv_;
};

class ScriptedHealth final : public NodeHealthChecker {
 public:
  std::vector<NodeHealthReport> check(const std::vector<std::string>& nodes) override {
    std::vector<NodeHealthReport> reports;
    for (const std::string& node : nodes) {
      const bool sick = unhealthy.contains(node);
      reports.push_back({node, !sick, sick ? unhealthy.at(node) : ""});
    }
    return reports;
  }
  std::map<std::string, std::string> unhealthy;
};

// A MemoryStore behind a queue whose commits can be held: close() keeps
// queued batches from being committed (after counting them as entered)
// until open(). Batches commit in the order they were queued, as a database
// store's (store/group_committer.h).
class GatedStore final : public Store {
 public:
  Result<StoredState> load() override { return store_.load(); }
  Status commit(WriteBatch batch) override { return queue_commit(std::move(batch)).get(); }
  std::future<Status> queue_commit(WriteBatch batch) override {
    {
      std::lock_guard lock(mu_);
      ++entered_;
    }
    changed_.notify_all();
    return committer_.queue(std::move(batch));
  }
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after = 0) override {
    return store_.events(workload_id, after);
  }
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override {
    return store_.allocations(from_ms, to_ms);
  }
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override {
    return store_.gpu_utilization(from_ms, to_ms);
  }

  void close() { committer_.pause(); }
  void open() { committer_.resume(); }
  // Returns once `count` commits entered since the store was made.
  void wait_until_entered(size_t count) {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return entered_ >= count; });
  }
  // As wait_until_entered(), for at most `limit`: false when fewer came. For
  // a commit that must not happen (the passing case waits the whole limit).
  bool wait_until_entered_for(size_t count, std::chrono::milliseconds limit) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, limit, [&] { return entered_ >= count; });
  }
  [[nodiscard]] size_t entered() {
    std::lock_guard lock(mu_);
    return entered_;
  }

 private:
  MemoryStore store_;
  std::mutex mu_;
  std::condition_variable changed_;
  size_t entered_ = 0;
  // Last: its writer thread commits into store_.
  GroupCommitter committer_{[this](const std::vector<GroupCommitter::Pending*>& group) {
    for (GroupCommitter::Pending* pending : group) {
      pending->status = store_.commit(std::move(pending->batch));
    }
    return true;
  }};
};

// The event of a pod's exit.
inline PodEvent exited(uint64_t uid, int32_t pod, int exit_code, int signal, bool stopped) {
  PodEvent event;
  event.pod = {WorkloadId(uid), pod};
  event.phase = PodPhase::kExited;
  event.exit_code = exit_code;
  event.signal = signal;
  event.stopped = stopped;
  return event;
}

class ControlPlaneTest : public ::testing::Test {
 protected:
  ControlPlaneTest() { restart(); }

  void restart() {
    executor_.sink = nullptr;
    calls_.reset();
    plane_.reset();
    ControlPlaneOptions options;
    options.run_loop_thread = run_loop_thread_;
    options.health_interval = Duration::seconds(10);
    options.webhook_sender = webhook_sender_;
    options.audit = audit_sink_;
    options.metering = metering_;
    options.scheduler = scheduler_options_;
    options.after_planning = [this] {
      if (after_planning_) after_planning_();
    };
    plane_ = std::make_unique<ControlPlane>(store_, executor_, &health_, clock_, logger_, options);
    calls_ = std::make_unique<ControlPlaneCalls>(*plane_);
    executor_.sink = plane_.get();
    const Status started = plane_->start();
    ASSERT_TRUE(started.ok()) << started.to_string();
  }

  void apply_policy(const std::string& yaml = kTwoTeamPolicy) {
    const Result<ApplyResult> applied = calls_->apply(yaml, false);
    ASSERT_TRUE(applied.ok()) << applied.status().to_string();
  }

  uint64_t submit(const std::string& yaml, const std::string& ns) {
    const Result<std::string> created = calls_->create_workload(ns, yaml);
    EXPECT_TRUE(created.ok()) << created.status().to_string();
    return created.ok() ? nlohmann::json::parse(*created)["metadata"]["uid"].get<uint64_t>() : 0;
  }

  std::string phase(const std::string& ns, const std::string& name) {
    const Result<nlohmann::json> view = calls_->get_workload(ns, name);
    return view.ok() ? (*view)["status"]["phase"].get<std::string>() : view.status().to_string();
  }

  // Reports every launched pod of `uid` as started, then runs a loop pass.
  void exit_pods(uint64_t uid, int exit_code, bool stopped = false) {
    for (const RecordedPod& pod : executor_.launches) {
      if (pod.workload_id == uid)
        plane_->on_pod_event(exited(uid, pod.pod_index, exit_code, 0, stopped));
    }
    plane_->loop().run_once();
  }

  std::vector<std::string> event_types(const std::string& ns, const std::string& name) {
    std::vector<std::string> types;
    const Result<nlohmann::json> events = calls_->workload_events(ns, name);
    if (!events.ok()) return {events.status().to_string()};
    for (const auto& event : (*events)["items"]) types.push_back(event["type"]);
    return types;
  }

  bool run_loop_thread_ = false;  // read by restart()
  GatedStore store_;
  RecordingExecutor executor_;
  ScriptedHealth health_;
  MemoryLogger logger_;
  ManualClock clock_{Timestamp::from_millis(1'800'000'000'000)};
  std::unique_ptr<ControlPlane> plane_;
  std::unique_ptr<ControlPlaneCalls> calls_;
  // Called by the loop between a cycle's plan and its application.
  std::function<void()> after_planning_;
  // The Signals' webhooks (set before restart()); null: none.
  WebhookSender* webhook_sender_ = nullptr;
  // The control plane's own audit records (set before restart()); empty: none.
  ControlAuditSink audit_sink_;
  // allotd --metering (set before restart()): false stores no ledger.
  bool metering_ = true;
  // How the scheduler plans (set before restart()).
  SchedulerOptions scheduler_options_;
};

}  // namespace allot::testing
