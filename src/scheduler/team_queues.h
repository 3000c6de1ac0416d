// TeamQueues: the pending workloads of each team in queue order (priority,
// then original queue time, then id), with a cursor at each team's head.
//
// Contract: holds indices into the snapshot's pending vector, which must
// outlive it. Positions are 1-based within the team.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/snapshot.h"

namespace allot {

class TeamQueues {
 public:
  TeamQueues(const std::vector<PendingWorkload>& pending, int32_t team_count);

  [[nodiscard]] bool has_head(TeamIndex team) const {
    return cursor_[team.value()] < queues_[team.value()].size();
  }
  // REQUIRES: has_head(team).
  [[nodiscard]] uint32_t head(TeamIndex team) const {
    return queues_[team.value()][cursor_[team.value()]];
  }
  void advance(TeamIndex team) { ++cursor_[team.value()]; }
  // Skips the rest of the team's queue (StrictFIFO after a blocked head).
  void close(TeamIndex team) { cursor_[team.value()] = queues_[team.value()].size(); }
  [[nodiscard]] int32_t position(uint32_t pending_index) const { return position_[pending_index]; }
  // The team's queue behind its head. REQUIRES: has_head(team).
  [[nodiscard]] std::span<const uint32_t> after_head(TeamIndex team) const {
    return std::span<const uint32_t>(queues_[team.value()]).subspan(cursor_[team.value()] + 1);
  }
  [[nodiscard]] const std::vector<uint32_t>& queue(TeamIndex team) const {
    return queues_[team.value()];
  }

 private:
  std::vector<std::vector<uint32_t>> queues_;
  std::vector<size_t> cursor_;
  std::vector<int32_t> position_;
};

// True when a goes before b in a team's queue.
bool queue_before(const PendingWorkload& a, const PendingWorkload& b);

}  // namespace allot
