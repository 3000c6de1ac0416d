// WorkloadActivity: an index of the stored workloads kept up to date as they
// change, so that the dashboard's charts and figures over time cost
// O(teams x buckets x log changes) per request, not a walk of every stored
// workload: the workloads pending and running over time (GET
// /api/v1/top/workloads) and the admission waits (GET /api/v1/top/stats).
//
// Contract: not thread-safe: part of ServerState, guarded by its lock.
// - Each workload's history is its creation, its runs (the metering
//   ledger's allocations: an admission to the release of its quota, fed by
//   the batches' allocation puts), its finish and whether it waits now
//   (accounting/activity_series.h workload_activity_spans(): a requeued
//   workload is pending again from the release of its quota until it is
//   admitted again). Without any run recorded (metering off) its first
//   admission stands for one run to its finish.
// - The spans are kept per (namespace, team) as two ActivityTimelines; an
//   update applies only the difference from the workload's previous spans
//   (changes now: appended), so a deleted workload is taken back out of
//   its namespace's past (O(changes after it)).
// - track_batch() is called for every batch queued with the state held
//   (ClusterState's ChangeLock), track() for a workload inserted without one
//   (a submit, a policy's new workloads), rebuild() at startup from the
//   stored workloads and the ledger.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "accounting/activity_series.h"
#include "accounting/activity_timeline.h"
#include "model/ids.h"
#include "store/store.h"

namespace allot {

struct LiveWorkload;
class WorkloadTable;

class WorkloadActivity {
 public:
  // Sets what `live` says of its workload now (namespace, team, creation,
  // finish, whether it waits, first admission); its runs stay.
  void track(const LiveWorkload& live);
  // An allocation of the ledger put (opened or closed); the workload's spans
  // follow at its next track() (track_batch() does both).
  void note_run(const AllocationRecord& allocation);
  void erase(WorkloadId id);
  // Every part of `batch` that changes a workload, with the table the batch
  // was made from (the workloads as they are now).
  void track_batch(const WriteBatch& batch, const WorkloadTable& table);
  // Forgets everything and tracks every workload of `table` with `ledger`'s
  // allocations (those of other workloads are ignored).
  void rebuild(const WorkloadTable& table, const std::vector<AllocationRecord>& ledger);

  using KeyFilter = std::function<bool(const std::string& ns, const std::string& team)>;
  // Adds the mean number pending and running over each bucket, of the
  // workloads whose (namespace, team) `keep` accepts.
  void add_series(const KeyFilter& keep, Timestamp from, Duration bucket, int32_t count,
                  std::vector<double>& pending, std::vector<double>& running) const;
  // The waits (first admission - creation, seconds) of `ns`'s workloads
  // first admitted in [from, to].
  [[nodiscard]] std::vector<double> waits(const std::string& ns, Timestamp from,
                                          Timestamp to) const;
  // The workloads holding quota now (admitted or running).
  [[nodiscard]] const std::set<WorkloadId>& holding() const { return holding_; }

 private:
  using Key = std::pair<std::string, std::string>;  // (namespace, team)
  struct Entry {
    Key key;
    WorkloadHistory history;
    std::map<int64_t, std::optional<int64_t>> runs;  // the ledger's: start -> end (ms)
    std::optional<Timestamp> first_admitted;
    WorkloadSpans spans;                             // as applied to the timelines
    std::optional<std::pair<int64_t, double>> wait;  // (first admission ms, seconds)
  };
  struct Timelines {
    ActivityTimeline pending;
    ActivityTimeline running;
  };
  // track() of `entry`, the live workload's (new: default-constructed).
  void track_entry(const LiveWorkload& live, Entry& entry);
  // Applies the difference between `entry`'s applied spans and its history's.
  void refresh(Entry& entry);
  // Takes `spans` back out of `key`'s timelines.
  void withdraw(const Key& key, const WorkloadSpans& spans);
  // Takes the entry's wait out of its namespace's.
  void forget_wait(Entry& entry);

  std::map<WorkloadId, Entry> entries_;
  std::map<Key, Timelines> timelines_;
  std::map<std::string, std::multimap<int64_t, double>> waits_;  // by namespace
  std::set<WorkloadId> holding_;
};

}  // namespace allot
