// LiveWorkload: allotd's in-memory record of one workload, and the table of
// them.
//
// Contract: `doc` is the truth that is stored; `stored` is its encoding,
// kept equal to what the last WriteBatch holds (so listings serve it without
// re-encoding). `request` is the scheduler's view of the spec under the
// current policy, or `unschedulable` says why there is none. The pod counters
// and `stop` drive the pod lifecycle (pod_lifecycle.h). Not thread-safe: the
// ControlPlane's locks guard it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "api/workload_json.h"
#include "model/views/workload_view.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"

namespace allot {

// Why a workload's pods are being stopped.
enum class StopIntent : uint8_t {
  kNone,
  kPreempt,     // requeued (Preempted) once stopped
  kEvict,       // its node failed or was drained: requeued once stopped
  kCancel,      // Cancelled once stopped
  kFail,        // a pod failed: the others are stopped, then Failed
  kMaxRuntime,  // ran past maxRuntimeSeconds: Failed once stopped
};

struct LiveWorkload {
  WorkloadDocument doc;
  StoredWorkload stored;  // doc as JSON text (never null once stored)

  PendingWorkload request;
  std::string unschedulable;  // non-empty: why the current policy cannot run it

  int32_t pods = 0;          // pods of the current run
  int32_t pods_started = 0;  // launched successfully
  int32_t pods_exited = 0;
  std::optional<int32_t> failed_exit_code;
  StopIntent stop = StopIntent::kNone;
  // Stopped with no grace by a preemption: the scheduler already counts its
  // capacity as free, so it is left out of snapshots until its pods exit.
  bool released = false;
  uint64_t preempted_by = 0;    // uid of the last preemptor
  uint64_t preempting_for = 0;  // while stopping for a preemption: the beneficiary
  std::optional<PendingExplanation> explanation;

  [[nodiscard]] uint64_t uid() const { return doc.uid; }
  [[nodiscard]] WorkloadPhase phase() const { return doc.status.phase; }
  [[nodiscard]] std::string key() const {
    return doc.workload.meta.namespace_name + "/" + doc.workload.meta.name;
  }
};

class WorkloadTable {
 public:
  [[nodiscard]] LiveWorkload* find(uint64_t uid);
  [[nodiscard]] const LiveWorkload* find(uint64_t uid) const;
  [[nodiscard]] LiveWorkload* find(const std::string& ns, const std::string& name);
  [[nodiscard]] const LiveWorkload* find(const std::string& ns, const std::string& name) const;

  // Names of workloads being created (not yet durable) count as taken.
  [[nodiscard]] bool name_taken(const std::string& key) const;
  // False when the name is taken.
  bool reserve_name(const std::string& key);
  void release_name(const std::string& key);

  void insert(LiveWorkload workload);
  void erase(uint64_t uid);

  [[nodiscard]] std::map<uint64_t, LiveWorkload>& all() { return by_uid_; }
  [[nodiscard]] const std::map<uint64_t, LiveWorkload>& all() const { return by_uid_; }

  // The workloads that were not final when last pruned, by uid: the loop
  // walks these, not the whole history. May hold workloads that have become
  // final since: callers skip them, and prune_finished() drops them.
  [[nodiscard]] const std::map<uint64_t, LiveWorkload*>& active() const { return active_; }
  void prune_finished();

 private:
  std::map<uint64_t, LiveWorkload> by_uid_;
  std::unordered_map<std::string, uint64_t> by_key_;
  std::map<uint64_t, LiveWorkload*> active_;  // map nodes never move: stable pointers
  std::set<std::string> reserved_;
};

}  // namespace allot
