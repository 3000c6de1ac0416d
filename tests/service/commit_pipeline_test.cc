// CommitPipeline: changes finish in the order they were made, whoever
// finishes them, and their actions wait for their owner; a failed commit is
// reported before anything after it is finished.
#include "service/control/commit_pipeline.h"

#include <future>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace allot::testing {
namespace {

// Actions that stop workload `id`, to tell changes apart.
Actions stop_of(uint64_t id) {
  Actions actions;
  actions.stops.push_back({WorkloadId(id), Duration()});
  return actions;
}

class CommitPipelineTest : public ::testing::Test {
 protected:
  // What was sequenced and failed, in order: "stop <id>", "failed <message>".
  std::vector<std::string> log_;
  CommitPipeline pipeline_{
      [this](Actions actions) {
        for (const StopAction& stop : actions.stops) {
          log_.push_back("stop " + std::to_string(stop.workload.value()));
        }
        return actions;
      },
      [this](const Status& status) { log_.push_back("failed " + status.message()); }};
};

TEST_F(CommitPipelineTest, ALaterChangeFinishesEarlierOnesFirstInTheirOrder) {
  std::promise<Status> first_stored;
  pipeline_.queue(1, first_stored.get_future(), stop_of(1));
  pipeline_.queue(2, {}, stop_of(2));  // nothing to store
  std::thread finisher([this] { pipeline_.finish(2); });
  std::thread reader([this] { pipeline_.stored().wait_until_stored(1); });
  pipeline_.stored().wait_until_waiting(1);  // the first commit is not done: nothing finished

  EXPECT_TRUE(log_.empty());
  first_stored.set_value(Status());
  finisher.join();
  reader.join();

  EXPECT_EQ(log_, (std::vector<std::string>{"stop 1", "stop 2"}));
  pipeline_.finish(1);  // finished already: returns at once
  EXPECT_EQ(log_.size(), 2u);
  // Each change's actions wait for its owner, once.
  EXPECT_EQ(pipeline_.take_ready(1), stop_of(1));
  EXPECT_TRUE(pipeline_.take_ready(1).empty());
  EXPECT_EQ(pipeline_.take_ready(2), stop_of(2));
}

TEST_F(CommitPipelineTest, AFailedCommitIsReportedBeforeAnythingAfterItIsFinished) {
  std::promise<Status> stored;
  stored.set_value(Status(ErrorCode::kUnavailable, "disk full"));
  pipeline_.queue(1, stored.get_future(), stop_of(1));
  pipeline_.queue(2, {}, stop_of(2));

  pipeline_.finish(2);  // on_failure would end the process; here it returns

  ASSERT_FALSE(log_.empty());
  EXPECT_EQ(log_[0], "failed disk full");
}

}  // namespace
}  // namespace allot::testing
