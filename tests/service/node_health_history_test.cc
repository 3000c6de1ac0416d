// A node's health history (node_conditions.h): each change the health
// checks report is recorded with its time and reason, the last 20 kept,
// stored in the node's NodeCondition object and read back from it (a
// condition stored before the history existed reads as none).
#include <string>

#include <gtest/gtest.h>

#include "service/control/node_conditions.h"

namespace allot {
namespace {

Timestamp second(int64_t s) { return Timestamp::from_millis(s * 1000); }

TEST(NodeHealthHistory, EachChangeIsRecordedWithItsTimeAndReasonAndStoredWithTheCondition) {
  ServerState state;
  WriteBatch batch;

  apply_health_reports({{"node-0", false, "Xid 79"}}, second(10), state, batch);
  apply_health_reports({{"node-0", false, "Xid 79"}}, second(11), state, batch);  // no change
  apply_health_reports({{"node-0", true, ""}}, second(20), state, batch);

  const std::vector<NodeHealthChange> expected = {{second(10), false, "Xid 79"},
                                                  {second(20), true, ""}};
  EXPECT_EQ(state.nodes.at("node-0").health_history, expected);
  ASSERT_EQ(batch.put_objects.size(), 2U);
  EXPECT_EQ(batch.put_objects.back().kind, kNodeConditionKind);
  const Result<NodeState> stored = decode_node_condition(batch.put_objects.back().document);
  ASSERT_TRUE(stored.ok()) << stored.status().to_string();
  EXPECT_EQ(stored->health_history, expected) << "a restart reads the history back";
  EXPECT_TRUE(stored->healthy);
}

TEST(NodeHealthHistory, OnlyTheLastChangesAreKept) {
  ServerState state;
  WriteBatch batch;
  for (int64_t s = 0; s < 25; ++s) {
    apply_health_reports({{"node-0", s % 2 == 1, s % 2 == 1 ? "" : "down " + std::to_string(s)}},
                         second(s), state, batch);
  }

  const std::vector<NodeHealthChange>& history = state.nodes.at("node-0").health_history;
  ASSERT_EQ(history.size(), kNodeHealthHistoryLength);
  EXPECT_EQ(history.front().at, second(5));
  EXPECT_EQ(history.back(), (NodeHealthChange{second(24), false, "down 24"}));
}

TEST(NodeHealthHistory, AConditionStoredBeforeTheHistoryReadsAsNone) {
  const Result<NodeState> old = decode_node_condition(
      R"({"healthy": false, "cordoned": true, "autoCordoned": true, "reason": "ECC"})");
  const Result<NodeState> broken =
      decode_node_condition(R"({"healthy": true, "healthHistory": [1]})");

  ASSERT_TRUE(old.ok()) << old.status().to_string();
  EXPECT_TRUE(old->health_history.empty());
  EXPECT_EQ(old->reason, "ECC");
  EXPECT_EQ(broken.status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace allot
