// LiveWorkload: allotd's in-memory record of one workload, and the table of
// them.
//
// Contract: `doc` is the truth that is stored; `stored` is its encoding,
// kept equal to what the last WriteBatch holds (so listings serve it without
// re-encoding). `request` is the scheduler's view of the spec under the
// current policy, or `unschedulable` says why there is none. `run` and the
// pod counters drive the pod lifecycle (pod_lifecycle.h). Not thread-safe: the
// ControlPlane's locks guard it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "api/workload_json.h"
#include "model/views/workload_view.h"
#include "scheduler/plan.h"
#include "scheduler/plan_effects.h"
#include "scheduler/snapshot.h"
#include "scheduler/space_idle.h"
#include "scheduler/workload_run.h"
#include "store/store.h"

namespace allot {

struct LiveWorkload {
  WorkloadDocument doc;
  StoredWorkload stored;  // doc as JSON text (never null once stored)

  PendingWorkload request;
  std::string unschedulable;  // non-empty: why the current policy cannot run it

  // Where it stands for the plan-effects core (scheduler/workload_run.h):
  // kept in step with doc.status.phase by the transitions that change either.
  WorkloadRun run;
  int32_t pods = 0;          // pods of the current run
  int32_t pods_started = 0;  // launched successfully
  int32_t pods_exited = 0;
  std::optional<int32_t> failed_exit_code;
  bool pods_all_succeeded = true;  // so far in this run: exit 0, not stopped
  std::optional<PendingExplanation> explanation;
  // A running Space's activity (space_lifecycle.h); in memory only: after a
  // restart its run starts again, and so does the record.
  SpaceActivity activity;
  // The open interval of the metering ledger while it holds quota (metering.h).
  std::optional<AllocationRecord> allocation;

  [[nodiscard]] WorkloadId id() const { return doc.uid; }
  [[nodiscard]] WorkloadPhase phase() const { return doc.status.phase; }
  [[nodiscard]] std::string key() const {
    return doc.workload.meta.namespace_name + "/" + doc.workload.meta.name;
  }
};

// The reason of a run that allotd's restart interrupted and requeued.
inline constexpr std::string_view kRequeuedAtRestart = "Requeued";

// Whether the workload waits to resume the run a restart interrupted (its
// launch then names the run's job, or the run's admission, below).
bool waits_to_resume_run(const LiveWorkload& live);
// The backend's job of the run a restart interrupted, while the workload
// waits to resume it: its stored status.backend (set once the backend had
// that run's job, cleared at each admission), which the launch that resumes
// the run names (WorkloadLaunch::resume_job). "" for none. Stored, so that
// it outlives a second restart before the run is admitted again.
std::string resume_job_of(const LiveWorkload& live);
// The admission of the run a restart interrupted, while the workload waits
// to resume it and no backend job of that run was stored (allotd stopped
// before it could store it, or the backend keeps none): the launch that
// resumes the run names it (WorkloadLaunch::resume_since). nullopt otherwise.
std::optional<Timestamp> resume_since_of(const LiveWorkload& live);

// The live workloads; the RunTable of the plan-effects core.
class WorkloadTable final : public RunTable {
 public:
  WorkloadRun* find_run(WorkloadId workload) override;

  [[nodiscard]] LiveWorkload* find(WorkloadId id);
  [[nodiscard]] const LiveWorkload* find(WorkloadId id) const;
  [[nodiscard]] LiveWorkload* find(const std::string& ns, const std::string& name);
  [[nodiscard]] const LiveWorkload* find(const std::string& ns, const std::string& name) const;

  // Names of workloads being created (not yet durable) count as taken.
  [[nodiscard]] bool name_taken(const std::string& key) const;
  // False when the name is taken.
  bool reserve_name(const std::string& key);
  void release_name(const std::string& key);

  // Sets the workload's run from its document (phase, restarts, stop).
  void insert(LiveWorkload workload);
  void erase(WorkloadId id);

  [[nodiscard]] std::map<WorkloadId, LiveWorkload>& all() { return by_id_; }
  [[nodiscard]] const std::map<WorkloadId, LiveWorkload>& all() const { return by_id_; }

  // The workloads that were not final when last pruned, by id: the loop
  // walks these, not the whole history. May hold workloads that have become
  // final since: callers skip them, and prune_finished() drops them.
  [[nodiscard]] const std::map<WorkloadId, LiveWorkload*>& active() const { return active_; }
  void prune_finished();

 private:
  std::map<WorkloadId, LiveWorkload> by_id_;
  std::unordered_map<std::string, WorkloadId> by_key_;
  std::map<WorkloadId, LiveWorkload*> active_;  // map nodes never move: stable pointers
  std::set<std::string> reserved_;
};

}  // namespace allot
