// The control plane's change feed (service/control/change_feed.h): what each
// watcher hears of the batches the control plane queues, by its rights; the
// secrets' kinds never; the limits on watchers; close().
#include "service/control/change_feed.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

class RecordingFeedSink final : public FeedSink {
 public:
  void start(uint64_t last_id) override { started = last_id; }
  bool notify(const FeedNotice& notice) override {
    notices.push_back(notice);
    return true;
  }
  void end() override { ended = true; }

  // Every change heard, as "kind namespace/name" (bare kinds: "kind").
  [[nodiscard]] std::vector<std::string> heard() const {
    std::vector<std::string> out;
    for (const FeedNotice& notice : notices) {
      for (const FeedChange& change : notice.changes) {
        out.push_back(change.name.empty()
                          ? change.kind
                          : change.kind + " " + change.namespace_name + "/" + change.name);
      }
    }
    return out;
  }
  [[nodiscard]] bool heard_of(const std::string& text) const {
    for (const std::string& change : heard()) {
      if (change.find(text) != std::string::npos) return true;
    }
    return false;
  }

  uint64_t started = 0;
  std::vector<FeedNotice> notices;
  bool ended = false;
};

class ChangeFeedTest : public ControlPlaneTest {
 protected:
  // A session of the first administrator bound to `team` and `role`.
  Principal session(const std::string& team, const std::string& role) {
    const Result<std::optional<std::string>> token = plane_->access().bootstrap_admin();
    EXPECT_TRUE(token.ok() && token->has_value());
    const Result<OpenedSession> opened = plane_->access().open_session({**token, team, role, {}});
    EXPECT_TRUE(opened.ok()) << opened.status().to_string();
    const Result<Principal> caller = plane_->access().authenticate("Bearer " + opened->token);
    EXPECT_TRUE(caller.ok());
    return *caller;
  }

  // Subscribes `caller` with a recording sink; the subscription is kept.
  std::shared_ptr<RecordingFeedSink> watch(const Principal& caller) {
    Result<std::unique_ptr<ChangeFeed::Subscription>> subscribed =
        plane_->changes().subscribe(caller);
    EXPECT_TRUE(subscribed.ok()) << subscribed.status().to_string();
    auto sink = std::make_shared<RecordingFeedSink>();
    (*subscribed)->attach(sink);
    subscriptions_.push_back(std::move(subscribed).value());
    return sink;
  }

  std::vector<std::unique_ptr<ChangeFeed::Subscription>> subscriptions_;
};

TEST_F(ChangeFeedTest, EachWatcherHearsOfAWorkloadByNameOnlyWhereItMayListIt) {
  apply_policy();
  const auto admin = watch(Principal::system());
  const auto viewer = watch(session("prod", "team-viewer"));
  const auto nobody = watch(Principal::user("nobody"));
  submit(workload_yaml("research-secret", "research", 1), "research");
  submit(workload_yaml("prod-train", "prod", 1), "prod");
  plane_->loop().run_once();  // admits both: more batches

  EXPECT_TRUE(admin->heard_of("Workload research/research-secret"));
  EXPECT_TRUE(admin->heard_of("Workload prod/prod-train"));
  EXPECT_TRUE(viewer->heard_of("Workload prod/prod-train"));
  EXPECT_FALSE(viewer->heard_of("research")) << ::testing::PrintToString(viewer->heard());
  EXPECT_TRUE(viewer->heard_of("Workload")) << "another team's change, as the bare kind";
  EXPECT_FALSE(nobody->heard_of("/")) << ::testing::PrintToString(nobody->heard());
  ASSERT_FALSE(admin->notices.empty());
  EXPECT_GT(admin->notices.front().id, admin->started);
  for (size_t i = 1; i < admin->notices.size(); ++i) {
    EXPECT_GT(admin->notices[i].id, admin->notices[i - 1].id);
  }
  for (const FeedNotice& notice : viewer->notices) {
    for (const FeedChange& change : notice.changes) {
      if (change.namespace_name == "prod") {
        EXPECT_FALSE(change.phase.empty());
      }
    }
  }
}

TEST_F(ChangeFeedTest, SecretsAreNeverToldAndANoticeIsCapped) {
  WriteBatch secrets;
  for (const char* kind : {"ApiToken", "SessionKeys", "RevokedSession", "ScimUser", "LocalPassword",
                           "ServiceAccount", "MeteringHeartbeat"}) {
    secrets.put_objects.push_back({kind, "x", "{}"});
  }
  secrets.delete_objects.push_back({"ApiToken", "y"});
  EXPECT_TRUE(visible_changes(plane_->access(), Principal::system(), secrets).changes.empty());

  WriteBatch many;
  for (int i = 0; i < 150; ++i) {
    many.put_workloads.push_back({WorkloadId(i + 1), "prod", "w" + std::to_string(i), "prod",
                                  WorkloadPhase::kPending, "{}"});
  }
  many.put_objects.push_back({"NodeCondition", "node-0", "{}"});
  const FeedNotice notice = visible_changes(plane_->access(), Principal::system(), many);
  const auto named = std::count_if(notice.changes.begin(), notice.changes.end(),
                                   [](const FeedChange& change) { return !change.name.empty(); });
  EXPECT_EQ(static_cast<size_t>(named), kMaxChangesPerNotice);
  EXPECT_TRUE(notice.truncated);
  EXPECT_EQ(notice.changes.back(), (FeedChange{"NodeCondition", "", "", ""})) << "bare kinds stay";
  const FeedNotice bare = visible_changes(plane_->access(), Principal::user("nobody"), many);
  ASSERT_EQ(bare.changes.size(), 2U) << "one bare Workload, one NodeCondition";
  EXPECT_EQ(bare.changes[0], (FeedChange{"Workload", "", "", ""}));
  EXPECT_EQ(bare.changes[1], (FeedChange{"NodeCondition", "", "", ""}));
}

// A pass that writes measured GPU utilisation and nothing else of the
// ledger (gpu_utilization_meter.h) is told as "Usage": the dashboard's
// efficiency figures changed.
TEST_F(ChangeFeedTest, AUtilisationOnlyWriteIsToldAsUsage) {
  WriteBatch utilisation;
  utilisation.put_gpu_utilization.push_back({WorkloadId(1), "node-0/0", 0, 10'000, 500'000});
  EXPECT_EQ(visible_changes(plane_->access(), Principal::user("nobody"), utilisation).changes,
            (std::vector<FeedChange>{{"Usage", "", "", ""}}));

  apply_policy();
  const uint64_t id = submit(workload_yaml("train", "research", 1), "research");
  plane_->loop().run_once();  // admits it
  const auto watcher = watch(Principal::system());
  GpuUsageSample sample;
  sample.node = "node-0";
  sample.team = "research";
  sample.workload = WorkloadId(id);
  sample.utilization = 0.5;
  sample.at = clock_.now();
  executor_.set_gpu_usage({sample});
  plane_->loop().run_once();  // the GPU's baseline: nothing measured yet
  plane_->loop().run_once();  // the same reading again: nothing
  EXPECT_FALSE(watcher->heard_of("Usage")) << ::testing::PrintToString(watcher->heard());
  clock_.advance(Duration::seconds(10));
  sample.at = clock_.now();
  executor_.set_gpu_usage({sample});
  plane_->loop().run_once();  // 10 s at 0.5: a utilisation record, no allocation
  EXPECT_TRUE(watcher->heard_of("Usage")) << ::testing::PrintToString(watcher->heard());
}

TEST_F(ChangeFeedTest, WatchersAreLimitedAndCloseEndsThem) {
  ChangeFeed feed(plane_->access(), {.total = 3, .per_subject = 2});
  auto first = feed.subscribe(Principal::user("ana"));
  auto second = feed.subscribe(Principal::user("ana"));
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(feed.subscribe(Principal::user("ana")).status().code(), ErrorCode::kResourceExhausted);
  auto third = feed.subscribe(Principal::user("bob"));
  ASSERT_TRUE(third.ok());
  EXPECT_EQ(feed.subscribe(Principal::user("carl")).status().code(), ErrorCode::kResourceExhausted);
  second->reset();  // a watcher that leaves gives its place back
  auto again = feed.subscribe(Principal::user("ana"));
  ASSERT_TRUE(again.ok());

  auto sink = std::make_shared<RecordingFeedSink>();
  (*first)->attach(sink);
  WriteBatch batch;
  batch.put_objects.push_back({"Team", "prod", "{}"});
  feed.publish(batch);
  EXPECT_EQ(sink->heard(), std::vector<std::string>{"Team"});
  feed.close();
  EXPECT_TRUE(sink->ended);
  EXPECT_EQ(feed.subscribe(Principal::user("dan")).status().code(), ErrorCode::kUnavailable);
  feed.publish(batch);
  EXPECT_EQ(sink->notices.size(), 1U) << "nothing after close";
}

}  // namespace
}  // namespace allot::testing
