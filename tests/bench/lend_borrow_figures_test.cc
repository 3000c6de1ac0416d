// lend_borrow_figures(): the lend/borrow scenario's figures from given runs
// (bench/lend_borrow_figures.h): compliance counts the instants a team asked
// and held at least min(guarantee, asked); waits are censored at the window's
// end; only a started run followed by another is a preemption.
#include "bench/lend_borrow_figures.h"

#include <gtest/gtest.h>

namespace allot::bench {
namespace {

// 1 node: 8 GPUs, 4 per team; jobs of 4 GPUs; a 10 s window, B from 4 s.
LendBorrowConfig small() {
  LendBorrowConfig c;
  c.nodes = 1;
  c.job_gpus = 4;
  c.stream_seconds = 10;
  c.return_at = 4;
  return c;
}

TEST(LendBorrowFigures, BHoldingItsGuaranteeWheneverItAsksIsFullyCompliant) {
  // A borrows all 8 GPUs until B returns at 4 s, then gives back one job's
  // until B's job ended at 6 s.
  const std::vector<LendBorrowJob> jobs = {
      {false, 0, {{0, 10}}},
      {false, 0, {{0, 4}, {6, 10}}},  // preempted at 4, run again at 6
      {true, 4, {{4, 6}}},
  };
  const nlohmann::json f = lend_borrow_figures(jobs, small());
  EXPECT_DOUBLE_EQ(f["teamB"]["guaranteeCompliance"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(f["teamB"]["meanWaitSeconds"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(f["teamB"]["askedSeconds"].get<double>(), 2.0);
  // A asked 8 all along and held at least 4 all along.
  EXPECT_DOUBLE_EQ(f["teamA"]["guaranteeCompliance"].get<double>(), 1.0);
  EXPECT_EQ(f["preemptions"], 1);
  // Every GPU busy all along: 4 x 10 + 4 x 4 + 4 x 4 + 4 x 2 GPU-seconds of 8 x 10.
  EXPECT_DOUBLE_EQ(f["gpuUtilisation"].get<double>(), 1.0);
}

TEST(LendBorrowFigures, BWaitingBehindBorrowedWorkIsNotCompliantAndItsWaitIsCensored) {
  const std::vector<LendBorrowJob> jobs = {
      {false, 0, {{0, 10}}},
      {false, 0, {{0, 7}}},
      {true, 4, {{7, 10}}},  // waited 3 s for its guarantee
      {true, 5, {}},         // never ran: its wait counts until the end (5 s)
  };
  const nlohmann::json f = lend_borrow_figures(jobs, small());
  // B asked from 4 s to 10 s (12 instants), held its 4 GPUs from 7 s (6).
  EXPECT_DOUBLE_EQ(f["teamB"]["guaranteeCompliance"].get<double>(), 0.5);
  // Held 0 of 4 for 6 instants, 4 of 4 for 6: half of what it was due.
  EXPECT_DOUBLE_EQ(f["teamB"]["guaranteeHeldShare"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(f["teamB"]["meanWaitSeconds"].get<double>(), (3.0 + 5.0) / 2);
  EXPECT_EQ(f["teamB"]["started"], 1);
  EXPECT_EQ(f["teamB"]["jobs"], 2);
  EXPECT_EQ(f["preemptions"], 0);
}

TEST(LendBorrowFigures, ATeamAskingLessThanItsGuaranteeIsCompliantWhenItHoldsWhatItAsked) {
  LendBorrowConfig c = small();
  c.nodes = 2;  // 16 GPUs, 8 each: B's one job of 4 asks less than its 8
  const std::vector<LendBorrowJob> jobs = {{true, 4, {{4, 9}}}};
  const nlohmann::json f = lend_borrow_figures(jobs, c);
  EXPECT_DOUBLE_EQ(f["teamB"]["guaranteeCompliance"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(f["teamB"]["askedSeconds"].get<double>(), 5.0);
  EXPECT_TRUE(f["teamA"]["guaranteeCompliance"].is_null()) << "A never asked";
  EXPECT_TRUE(f["teamA"]["guaranteeHeldShare"].is_null());
}

TEST(LendBorrowFigures, HoldingPartOfTheGuaranteeCountsAsItsShareButNeverAsCompliant) {
  LendBorrowConfig c = small();
  c.nodes = 2;  // 16 GPUs, 8 each
  // B asks 12 GPUs from 4 s and holds 4 (of the 8 it is due) until the end.
  const std::vector<LendBorrowJob> jobs = {{true, 4, {{4, -1}}}, {true, 4, {}}, {true, 4, {}}};
  const nlohmann::json f = lend_borrow_figures(jobs, c);
  EXPECT_DOUBLE_EQ(f["teamB"]["guaranteeCompliance"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(f["teamB"]["guaranteeHeldShare"].get<double>(), 0.5);
}

TEST(LendBorrowFigures, ARunStillGoingAtTheEndHoldsUntilTheEnd) {
  const std::vector<LendBorrowJob> jobs = {{true, 4, {{5, -1}}}};
  const nlohmann::json f = lend_borrow_figures(jobs, small());
  // Asked 4..10 (12 instants), held 5..10 (10 instants).
  EXPECT_NEAR(f["teamB"]["guaranteeCompliance"].get<double>(), 10.0 / 12, 1e-9);
  EXPECT_NEAR(f["teamB"]["guaranteeHeldShare"].get<double>(), 10.0 / 12, 1e-9);
  EXPECT_DOUBLE_EQ(f["gpuUtilisation"].get<double>(), 4.0 * 5 / 80);
}

}  // namespace
}  // namespace allot::bench
