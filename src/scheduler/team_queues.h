// TeamQueues: the pending workloads of each team in queue order (priority,
// then original queue time, then id), with a cursor at each team's head.
//
// Contract: reads the queues of a PendingQueues (built for this cycle, or
// kept between cycles by the caller), which must outlive it. Positions are
// 1-based within the team.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/pending_queues.h"
#include "scheduler/snapshot.h"

namespace allot {

class TeamQueues {
 public:
  TeamQueues(const PendingQueues& pending, int32_t team_count)
      : pending_(pending), cursor_(team_count, 0) {}

  [[nodiscard]] bool has_head(TeamIndex team) const {
    return cursor_[team.value()] < queue(team).size();
  }
  // REQUIRES: has_head(team).
  [[nodiscard]] uint32_t head(TeamIndex team) const { return queue(team)[cursor_[team.value()]]; }
  void advance(TeamIndex team) { ++cursor_[team.value()]; }
  // Skips the rest of the team's queue (StrictFIFO after a blocked head).
  void close(TeamIndex team) { cursor_[team.value()] = queue(team).size(); }
  [[nodiscard]] int32_t position(uint32_t pending_index) const {
    return pending_.position(pending_index);
  }
  // The team's queue behind its head. REQUIRES: has_head(team).
  [[nodiscard]] std::span<const uint32_t> after_head(TeamIndex team) const {
    return std::span<const uint32_t>(queue(team)).subspan(cursor_[team.value()] + 1);
  }
  [[nodiscard]] const std::vector<uint32_t>& queue(TeamIndex team) const {
    return pending_.queue(team);
  }

 private:
  const PendingQueues& pending_;
  std::vector<size_t> cursor_;
};

}  // namespace allot
