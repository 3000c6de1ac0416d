// CheckpointWatcher: reads, when due, the last checkpoint time that each
// running checkpointing workload reports by writing into its checkpoint
// folder (the executor's last_checkpoint(): the newest file's time), and
// keeps it in the workload's status, where the scheduler's least-work-lost
// victim order reads it (workload_checkpoints.h).
//
// Contract: scan_if_due() runs one round when `now` reached the next due
// time (the first round at start), reading the folders outside every lock of
// the state (reading storage may take a while), and returns what it found:
// one report per running workload whose folder has a file. apply() is
// called by the loop with the state held exclusively; it keeps each report
// for a workload still running (record_checkpoint()) and returns how many
// changed. Used by the admission loop's thread only.
#pragma once

#include <string>
#include <vector>

#include "backends/executor.h"
#include "base/clock.h"
#include "base/time.h"
#include "service/control/cluster_state.h"

namespace allot {

struct CheckpointReport {
  WorkloadId workload;
  Timestamp at;  // the newest file's modification time
};

class CheckpointWatcher {
 public:
  CheckpointWatcher(ClusterState& cluster, const Executor& executor, const Clock& clock,
                    Duration interval)
      : cluster_(cluster), executor_(executor), clock_(clock), interval_(interval) {}

  void start(Timestamp now) { next_due_ = now; }

  std::vector<CheckpointReport> scan_if_due() ALLOT_EXCLUDES(cluster_.mutex());

  // REQUIRES: `state` is the cluster's, held exclusively.
  int apply(const std::vector<CheckpointReport>& reports, Timestamp now, ServerState& state,
            WriteBatch& batch);

  [[nodiscard]] Timestamp next_due() const { return next_due_; }

 private:
  ClusterState& cluster_;
  const Executor& executor_;
  const Clock& clock_;
  Duration interval_;
  Timestamp next_due_ = Timestamp::infinite_future();  // until start()
};

}  // namespace allot
