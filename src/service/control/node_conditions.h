// Node conditions: how a node's health and cordon state is stored (as an
// object of kind NodeCondition), and how health reports change it.
//
// Contract: pure. put_node_condition() appends the node's current condition
// to the batch; decode_node_condition() reads one back (kInvalidArgument when
// the stored text is not a JSON object). apply_health_reports() records each
// report's heartbeat and, when a node's health changed, cordons it (unhealthy:
// auto-cordoned unless an operator cordoned it) or lifts the automatic cordon
// (healthy again), and stores it; it returns the nodes whose health changed.
// Each change is also added to the node's health history (the time, healthy
// or not, the reason), which keeps the last kNodeHealthHistoryLength changes
// and is stored in the same NodeCondition object (`healthHistory`), so it
// survives a restart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/node_health.h"
#include "base/result.h"
#include "base/time.h"
#include "service/control/server_state.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kNodeConditionKind = "NodeCondition";

// REQUIRES: state.nodes has `name`.
void put_node_condition(const ServerState& state, const std::string& name, WriteBatch& batch);

Result<NodeState> decode_node_condition(const std::string& text);

std::vector<NodeHealthReport> apply_health_reports(const std::vector<NodeHealthReport>& reports,
                                                   Timestamp now, ServerState& state,
                                                   WriteBatch& batch);

}  // namespace allot
