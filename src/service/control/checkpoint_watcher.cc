#include "service/control/checkpoint_watcher.h"

#include <utility>

#include "service/control/workload_checkpoints.h"

namespace allot {

std::vector<CheckpointReport> CheckpointWatcher::scan_if_due() {
  if (clock_.now() < next_due_) return {};
  std::vector<std::pair<WorkloadId, std::string>> folders;
  {
    ReaderLock lock(cluster_.mutex());
    const ServerState& state = cluster_.view();
    for (const auto& [id, live] : state.workloads.active()) {
      if (!holds_quota(live->phase())) continue;
      std::string folder = checkpoint_folder(state, *live);
      if (!folder.empty()) folders.emplace_back(id, std::move(folder));
    }
  }
  std::vector<CheckpointReport> reports;
  for (const auto& [id, folder] : folders) {
    if (const std::optional<Timestamp> at = executor_.last_checkpoint(folder)) {
      reports.push_back({id, *at});
    }
  }
  next_due_ = clock_.now() + interval_;
  return reports;
}

int CheckpointWatcher::apply(const std::vector<CheckpointReport>& reports, Timestamp now,
                             ServerState& state, WriteBatch& batch) {
  int changed = 0;
  for (const CheckpointReport& report : reports) {
    LiveWorkload* live = state.workloads.find(report.workload);
    if (live == nullptr || !holds_quota(live->phase())) continue;
    if (record_checkpoint(*live, report.at, now, batch)) ++changed;
  }
  return changed;
}

}  // namespace allot
