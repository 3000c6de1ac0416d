// What a stopped run keeps of its progress (model/checkpoint_progress.h).
#include "model/checkpoint_progress.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(CheckpointModel, WithoutCheckpointsARunKeepsNothing) {
  const CheckpointModel none{false, Duration::seconds(10)};
  EXPECT_EQ(none.kept(Duration::seconds(95)), Duration());
  EXPECT_EQ(none.lost(Duration::seconds(95)), Duration::seconds(95));
}

TEST(CheckpointModel, ContinuousCheckpointsKeepEverything) {
  const CheckpointModel continuous{true, std::nullopt};
  EXPECT_EQ(continuous.kept(Duration::millis(95'500)), Duration::millis(95'500));
  EXPECT_EQ(continuous.lost(Duration::millis(95'500)), Duration());
}

TEST(CheckpointModel, AnIntervalKeepsTheLastWholeMultipleOfIt) {
  const CheckpointModel every_10s{true, Duration::seconds(10)};
  EXPECT_EQ(every_10s.kept(Duration::millis(9'999)), Duration());
  EXPECT_EQ(every_10s.kept(Duration::seconds(10)), Duration::seconds(10));
  EXPECT_EQ(every_10s.kept(Duration::millis(95'500)), Duration::seconds(90));
  EXPECT_EQ(every_10s.lost(Duration::millis(95'500)), Duration::millis(5'500));
}

TEST(CheckpointModel, NoProgressKeepsAndLosesNothing) {
  const CheckpointModel every_10s{true, Duration::seconds(10)};
  EXPECT_EQ(every_10s.kept(Duration::seconds(-3)), Duration());
  EXPECT_EQ(every_10s.lost(Duration::seconds(-3)), Duration());
}

}  // namespace
}  // namespace allot
