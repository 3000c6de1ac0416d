// ControlPlane: allotd's use cases (DESIGN.md section 10): apply policy,
// submit, cancel and delete workloads, operate nodes, and the admission loop
// that decides with the scheduler and runs the work on an Executor.
//
// Contract:
// - Durability: a write returns only after the Store committed it (fsync). A
//   submit that fails to commit changes nothing and reports kUnavailable.
//   Decisions of the admission loop are committed before they are carried
//   out (pods launched or stopped); a failed commit there ends the process
//   (the state on disk is the truth a restart rebuilds from).
// - Ordering: creations (submits) commit concurrently, sharing group
//   commits. Every change of existing state (the loop's decisions, cancels,
//   deletes, node operations, policy changes) holds one writer lock from
//   the change in memory to its commit, so commits land in the order the
//   changes were made.
// - Reads answer only what is stored: a read that saw a change still being
//   committed waits, without holding the state, until that commit landed
//   (DurableWatermark). No answer shows a decision a crash could undo.
// - start() loads the store and recovers: work that was admitted or running
//   when the previous process stopped is requeued at its original position
//   (its processes are gone or were killed by the executor's own recovery).
// - Thread-safe. The loop runs on its own thread after start(), unless
//   options.run_loop_thread is false; tests then call run_once().
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "backends/executor.h"
#include "backends/node_health.h"
#include "base/clock.h"
#include "base/result.h"
#include "service/durable_watermark.h"
#include "service/ordered_workers.h"
#include "service/server_state.h"
#include "store/store.h"

namespace allot {

struct ControlPlaneOptions {
  bool run_loop_thread = true;
  // Threads that launch and stop pods off the loop (none without the loop
  // thread: actions then run on the caller's thread).
  size_t action_threads = 4;
  // Longest wait between cycles when nothing happens; the Cluster's
  // scheduling.cycle replaces it when shorter.
  Duration idle_cycle = Duration::seconds(1);
  Duration health_interval = Duration::seconds(10);
  std::string checkpoint_root;
};

struct WorkloadQuery {
  std::string namespace_name;         // empty: all
  std::vector<WorkloadPhase> phases;  // empty: all
  std::string team;
  size_t limit = 500;
  uint64_t after_uid = 0;  // from the `continue` token
};

struct WorkloadPage {
  std::string items;  // a JSON array, already encoded
  size_t count = 0;
  std::string continue_token;  // empty on the last page
};

struct ApplyResult {
  bool dry_run = false;
  std::vector<PolicyChange> changes;  // Workload entries too ("created")
};

struct LogChunk {
  std::string data;
  int64_t next_offset = 0;
  std::string path;
};

enum class NodeAction : uint8_t { kCordon, kDrain, kUncordon };

// The manifest kind of an API resource name ("teams" -> "Team"); empty when
// unknown.
std::string plural_to_kind(const std::string& plural);

class ControlPlane final : public PodExitSink {
 public:
  ControlPlane(Store& store, Executor& executor, NodeHealthChecker* health, const Clock& clock,
               ControlPlaneOptions options);
  ~ControlPlane() override;
  ControlPlane(const ControlPlane&) = delete;
  ControlPlane& operator=(const ControlPlane&) = delete;

  Status start();
  void shutdown();
  [[nodiscard]] bool ready() const { return ready_.load(); }

  // Writes.
  Result<ApplyResult> apply(std::string_view manifests, bool dry_run);
  // Returns the workload as stored: its JSON text (docs/api.md).
  Result<std::string> create_workload(const std::string& ns, std::string_view manifest);
  Result<nlohmann::json> cancel_workload(const std::string& ns, const std::string& name);
  Status delete_workload(const std::string& ns, const std::string& name);
  // `kind` is the manifest kind ("Team").
  Status delete_object(const std::string& kind, const std::string& name);
  Result<nlohmann::json> node_action(const std::string& name, NodeAction action);

  // Reads.
  [[nodiscard]] Result<WorkloadPage> list_workloads(const WorkloadQuery& query) const;
  [[nodiscard]] Result<nlohmann::json> get_workload(const std::string& ns,
                                                    const std::string& name) const;
  [[nodiscard]] Result<nlohmann::json> workload_events(const std::string& ns,
                                                       const std::string& name) const;
  [[nodiscard]] Result<LogChunk> workload_log(const std::string& ns, const std::string& name,
                                              int32_t pod, int64_t offset) const;
  [[nodiscard]] Result<nlohmann::json> list_objects(const std::string& kind) const;
  [[nodiscard]] Result<nlohmann::json> get_object(const std::string& kind,
                                                  const std::string& name) const;
  [[nodiscard]] nlohmann::json list_nodes() const;
  [[nodiscard]] Result<nlohmann::json> get_node(const std::string& name) const;
  [[nodiscard]] nlohmann::json top() const;

  // One iteration of the admission loop: pod reports, health checks when
  // due, maxRuntime, and a scheduling cycle when something changed or the
  // cycle period passed. Returns when it will next be due.
  Timestamp run_once();

  // For tests: returns once `count` reads wait for a commit to land.
  void wait_until_reads_wait(size_t count) const { stored_.wait_until_waiting(count); }

  // PodExitSink: called from executor threads.
  void on_pod_exit(const PodExit& exit) override;

 private:
  class CommittedRead;

  struct LaunchReport {
    uint64_t uid = 0;
    int32_t started = 0;
    std::vector<std::pair<int32_t, std::string>> failures;  // pod index, why
  };

  Status load();
  // Decodes records[i] into out[i] (same size); moves the documents.
  Status decode_workloads(std::vector<WorkloadRecord>& records,
                          std::vector<LiveWorkload>& out) const;
  Status recover(Timestamp now);
  void install_policy(PolicyState policy);
  void compile_request(LiveWorkload& live) const;
  static Result<LiveWorkload> new_workload(const PolicyState& policy, const Workload& workload,
                                           uint64_t uid, Timestamp now);
  void drain_reports(Timestamp now, WriteBatch& batch, Actions& actions);
  // Returns whether a node's health changed (a cycle is then due).
  bool apply_health(const std::vector<NodeHealthReport>& reports, Timestamp now, WriteBatch& batch);
  void put_node_condition(const std::string& name, WriteBatch& batch) const;
  void erase_finished_deletes(WriteBatch& batch);
  Status cancel_workload_in(LiveWorkload& live, WriteBatch& batch, Actions& actions);
  void drain_node(const std::string& name, Timestamp now, WriteBatch& batch, Actions& actions);
  bool plan_cycle(Timestamp now, WriteBatch& batch, Actions& actions);
  // Locks the state to change it ahead of a commit_or_die(), numbering the
  // change for the watermark. REQUIRES: writer_mu_ held.
  [[nodiscard]] std::unique_lock<std::shared_mutex> lock_for_change();
  // Commits, then marks every change made so far as stored.
  void commit_or_die(WriteBatch batch);
  void carry_out(Actions actions);
  void launch_pods(const std::vector<PodLaunch>& pods);
  // Why the loop is woken: a new workload, or a change of existing state
  // (which ends the loop's longer rest between submit bursts; see loop()).
  enum class Wake : uint8_t { kSubmit, kChange };
  // Which wakes end the loop's current wait.
  enum class Listen : uint8_t { kStopOnly, kChanges, kAnyWake };
  void wake(Wake why = Wake::kChange);
  void loop();
  [[nodiscard]] Duration cycle_period() const;
  [[nodiscard]] nlohmann::json workload_view(const LiveWorkload& live, Timestamp now) const;
  [[nodiscard]] nlohmann::json node_view(size_t index) const;
  [[nodiscard]] const LiveWorkload* find_locked(const std::string& ns,
                                                const std::string& name) const;

  Store& store_;
  Executor& executor_;
  NodeHealthChecker* health_;
  const Clock& clock_;
  ControlPlaneOptions options_;

  mutable std::shared_mutex mu_;           // guards state_
  std::atomic<uint64_t> changes_made_{0};  // by lock_for_change(), under writer_mu_
  DurableWatermark stored_;
  std::mutex writer_mu_;  // orders changes of existing state with their commits
  std::mutex apply_mu_;   // one apply at a time
  ServerState state_;
  std::vector<uint64_t> erase_when_stopped_;
  std::atomic<uint64_t> next_uid_{1};
  std::atomic<bool> ready_{false};

  std::mutex reports_mu_;  // guards the queues fed by executor threads
  std::vector<PodExit> exits_;
  std::vector<LaunchReport> launches_;

  std::mutex wake_mu_;
  std::condition_variable wake_cv_;
  bool dirty_ = true;
  bool stopping_ = false;
  bool changed_ = false;  // a Wake::kChange came since the last pass
  Listen listening_ = Listen::kStopOnly;
  Timestamp last_cycle_;
  Timestamp next_health_;
  std::thread loop_thread_;
  // Carries out launches and stops; declared last so that it is destroyed
  // (finishing its queue) before the state its tasks report into.
  std::unique_ptr<OrderedWorkers> workers_;
};

}  // namespace allot
