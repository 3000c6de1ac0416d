// The chaos bench's ledger (bench/chaos_ledger.h): what a client may conclude
// from the answers to its writes.
#include "bench/chaos_ledger.h"

#include <gtest/gtest.h>

namespace allot::bench {
namespace {

TEST(ChaosLedgerTest, AWriteThatMayHaveLandedIsNotUndoneByALaterRefusedOrUnsentOne) {
  WriteOutcome erase = WriteOutcome::kNone;
  record_outcome(erase, outcome_of(0));                  // no answer: allotd was killed mid-request
  record_outcome(erase, outcome_of(0, /*sent=*/false));  // its retry found allotd down
  EXPECT_EQ(erase, WriteOutcome::kUnknown);
  TrackedWorkload workload{"t0", "w", 7, WriteOutcome::kAcked, WriteOutcome::kNone, erase};
  EXPECT_FALSE(workload.must_exist()) << "the first delete may have landed";

  record_outcome(erase, outcome_of(200));
  EXPECT_EQ(erase, WriteOutcome::kAcked);
  record_outcome(erase, outcome_of(0));
  EXPECT_EQ(erase, WriteOutcome::kAcked) << "an acknowledged write stands";

  WriteOutcome cancel = WriteOutcome::kNone;
  record_outcome(cancel, outcome_of(409));
  EXPECT_EQ(cancel, WriteOutcome::kRefused);
}

}  // namespace
}  // namespace allot::bench
