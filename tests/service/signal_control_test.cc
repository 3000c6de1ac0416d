// Signals through the control plane on a manual clock (issue 14, item 5):
// sampled from allotd's own /metrics, pending until `for` has passed, fired
// and resolved as SignalEvent objects in the store (the signals' event log),
// POSTed to a real loopback HTTP server that fails first (retried with
// backoff, never lost, marked delivered once taken), the state shown by
// GET /api/v1/signals, and both restored after a restart.
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>

#include "api/rfc3339.h"
#include "control_plane_fixture.h"
#include "hook_server.h"
#include "service/control/http_webhook_sender.h"
#include "service/control/signal_state.h"

namespace allot::testing {
namespace {

constexpr const char* kResearchBusy = "allot_team_admitted_workloads{team=\"research\"} > 0";

std::string signal_yaml(const std::string& webhook, const std::string& expression = kResearchBusy) {
  return "---\napiVersion: allot/v1\nkind: Signal\nmetadata: {name: research-busy}\n"
         "spec:\n  expression: '" +
         expression +
         "'\n"
         "  for: 1m\n  owner: research-leads\n"
         "  response: {text: Look at the queue, runbook: 'https://wiki.example/busy'}\n"
         "  webhook: '" +
         webhook + "'\n";
}

class SignalControl : public ControlPlaneTest {
 protected:
  SignalControl() {
    webhook_sender_ = &sender_;
    restart();
  }

  std::vector<nlohmann::json> events() {
    std::vector<nlohmann::json> out;
    const Result<StoredState> stored = store_.load();
    EXPECT_TRUE(stored.ok());
    if (!stored.ok()) return out;
    for (const ObjectRecord& object : stored->objects) {
      if (object.kind == kSignalEventKind) out.push_back(nlohmann::json::parse(object.document));
    }
    return out;
  }

  nlohmann::json status() {
    const Result<nlohmann::json> list = calls_->list_objects("Signal");
    EXPECT_TRUE(list.ok()) << list.status().to_string();
    if (!list.ok() || (*list)["items"].empty()) return {};
    return (*list)["items"][0].value("status", nlohmann::json());
  }

  void pass(Duration advance) {
    clock_.advance(advance);
    plane_->loop().run_once();
  }

  HttpWebhookSender sender_{Duration::seconds(2)};
};

TEST_F(SignalControl, PendingThenFiringAfterForThenResolvedWithTheWebhookRetried) {
  HookServer hook(1);
  apply_policy(kTwoTeamPolicy + signal_yaml(hook.url()));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();  // sampled before the cycle admits r1
  EXPECT_EQ(status().value("state", ""), "inactive");

  pass(Duration::seconds(15));
  EXPECT_EQ(status()["state"], "pending");
  EXPECT_TRUE(events().empty());
  pass(Duration::seconds(45));  // held 45 s of the 60
  EXPECT_EQ(status()["state"], "pending");
  pass(Duration::seconds(15));  // 60 s: fires
  nlohmann::json now = status();
  EXPECT_EQ(now["state"], "firing");
  EXPECT_EQ(now["since"], format_rfc3339(clock_.now()));
  EXPECT_EQ(now["series"], nlohmann::json::array({"team=research"}));
  ASSERT_EQ(events().size(), 1u);
  EXPECT_EQ(events()[0]["event"], "fired");
  EXPECT_EQ(events()[0]["owner"], "research-leads");
  EXPECT_FALSE(events()[0]["delivered"].get<bool>());

  // The first POST fails: the event stays undelivered and is retried after
  // the backoff, not before.
  plane_->webhooks().deliver_due();
  EXPECT_EQ(hook.bodies().size(), 1u);
  plane_->webhooks().deliver_due();
  EXPECT_EQ(hook.bodies().size(), 1u);
  pass(Duration::millis(500));
  EXPECT_EQ(status()["undeliveredEvents"], 1);
  EXPECT_FALSE(events()[0]["delivered"].get<bool>());
  clock_.advance(Duration::millis(500));
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 2u);
  const nlohmann::json body = nlohmann::json::parse(hook.bodies()[1]);
  EXPECT_EQ(body["signal"], "research-busy");
  EXPECT_EQ(body["event"], "fired");
  EXPECT_EQ(body["response"]["runbook"], "https://wiki.example/busy");
  EXPECT_EQ(body["series"][0]["labels"]["team"], "research");
  plane_->loop().run_once();
  EXPECT_TRUE(events()[0]["delivered"].get<bool>());
  EXPECT_EQ(events()[0]["attempts"], 2);
  EXPECT_EQ(status()["undeliveredEvents"], 0);

  // Still holding: no second "fired". Then r1 ends and the signal resolves.
  pass(Duration::seconds(15));
  EXPECT_EQ(events().size(), 1u);
  exit_pods(r1, 0);
  pass(Duration::seconds(15));
  EXPECT_EQ(status()["state"], "inactive");
  ASSERT_EQ(events().size(), 2u);
  EXPECT_EQ(events()[1]["event"], "resolved");
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(hook.bodies()[2])["event"], "resolved");
}

// The Signals chart (GET /api/v1/top/signals): research-busy fires 60 s
// after r1 is admitted and resolves when r1 ends; the minutes' means times a
// minute add up to the time it fired, exactly; while it still fires, the
// last minute counts the quarter of it since it fired (0.25).
TEST_F(SignalControl, FiringOverTimeAddsUpToTheTimeBetweenFiredAndResolved) {
  apply_policy(kTwoTeamPolicy + signal_yaml("http://127.0.0.1:9/unused"));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();
  for (int i = 0; i < 5; ++i) pass(Duration::seconds(15));  // fires at 60 s
  ASSERT_EQ(events().size(), 1u);
  pass(Duration::seconds(15));  // firing for the last quarter of the last minute
  const Result<StatsRange> range = parse_stats_range("1h");
  ASSERT_TRUE(range.ok());
  Result<ActivityStatsView> firing =
      plane_->activity_stats().signals(Principal::anonymous_admin(), *range);
  ASSERT_TRUE(firing.ok()) << firing.status().to_string();
  ASSERT_EQ(firing->series.size(), 1u);
  EXPECT_EQ(firing->series[0].first, "firing");
  ASSERT_EQ(firing->series[0].second.size(), 60u);
  EXPECT_DOUBLE_EQ(firing->series[0].second.back(), 0.25);

  pass(Duration::minutes(3));
  exit_pods(r1, 0);
  pass(Duration::seconds(15));
  ASSERT_EQ(events().size(), 2u);
  const Result<Timestamp> fired = parse_rfc3339(events()[0]["at"].get<std::string>());
  const Result<Timestamp> resolved = parse_rfc3339(events()[1]["at"].get<std::string>());
  ASSERT_TRUE(fired.ok() && resolved.ok()) << events()[0].dump() << events()[1].dump();
  pass(Duration::minutes(2));  // resolved more than a minute ago
  firing = plane_->activity_stats().signals(Principal::anonymous_admin(), *range);
  ASSERT_TRUE(firing.ok());
  double firing_ms = 0;
  for (const double mean : firing->series[0].second) firing_ms += mean * 60'000;
  EXPECT_NEAR(firing_ms, static_cast<double>((*resolved - *fired).ms()), 1e-6);
  EXPECT_EQ(firing->series[0].second.back(), 0.0);
  // Whoever may not list signals gets none.
  EXPECT_FALSE(plane_->activity_stats().signals(Principal::user("nobody"), *range).ok());
}

// examples/org/signals.yaml's "GPUs allocated but idle" over the executor's
// measured GPU utilisation: research's GPU busy 2% of the time fires it once
// it has held for 30 minutes (samples at 0, 29 and 30 minutes: mean 0.02);
// a busy sample then lifts the hour's mean to (0.02 * 3 + 0.9) / 4 = 0.24
// and it resolves. A GPU no pod holds (team "") is never matched.
constexpr const char* kIdleGpuSignal =
    "---\napiVersion: allot/v1\nkind: Signal\nmetadata: {name: gpus-allocated-but-idle}\n"
    "spec:\n  expression: 'avg_over_time(allot_gpu_utilization_ratio{team!=\"\"}[1h]) < "
    "0.05'\n  for: 30m\n  owner: platform-capacity\n  response: {text: Release them}\n";

TEST_F(SignalControl, GpusAllocatedButIdleFiresAfterItsForAndResolvesWhenBusy) {
  apply_policy(std::string(kTwoTeamPolicy) + kIdleGpuSignal);
  GpuUsageSample held{"n1", 1, "GPU-b", "research", WorkloadId(5), 0, 0.02, 0, 0, {}};
  const GpuUsageSample unheld{"n1", 0, "GPU-a", "", WorkloadId(), -1, 0, 0, 0, {}};
  executor_.set_gpu_usage({unheld, held});
  plane_->loop().run_once();
  EXPECT_EQ(status()["state"], "pending");
  pass(Duration::minutes(29));
  EXPECT_EQ(status()["state"], "pending");
  pass(Duration::minutes(1));
  EXPECT_EQ(status()["state"], "firing");
  EXPECT_EQ(status()["series"], nlohmann::json::array({"gpu=1,node=n1,team=research"}));
  ASSERT_EQ(events().size(), 1u);
  EXPECT_EQ(events()[0]["event"], "fired");
  EXPECT_DOUBLE_EQ(events()[0]["series"][0]["value"].get<double>(), 0.02);

  held.utilization = 0.9;
  executor_.set_gpu_usage({unheld, held});
  pass(Duration::seconds(15));
  EXPECT_EQ(status()["state"], "inactive");
  ASSERT_EQ(events().size(), 2u);
  EXPECT_EQ(events()[1]["event"], "resolved");
}

// GET /api/v1/signals/{name}/history: the fired and resolved events, oldest
// first, with their time and series; the same after a restart (read back
// from the store); an unknown signal is kNotFound, a caller without `get` on
// signals kPermissionDenied.
TEST_F(SignalControl, HistoryListsFiredThenResolvedAndSurvivesARestart) {
  apply_policy(std::string(kTwoTeamPolicy) + kIdleGpuSignal);
  GpuUsageSample held{"n1", 1, "GPU-b", "research", WorkloadId(5), 0, 0.0, 0, 0, {}};
  executor_.set_gpu_usage({held});
  plane_->loop().run_once();
  ASSERT_TRUE(calls_->signal_history("gpus-allocated-but-idle")->empty());
  pass(Duration::minutes(30));
  const Timestamp fired = clock_.now();
  held.utilization = 1.0;
  executor_.set_gpu_usage({held});
  pass(Duration::minutes(1));
  const Timestamp resolved = clock_.now();

  const std::vector<nlohmann::json> history = *calls_->signal_history("gpus-allocated-but-idle");
  ASSERT_EQ(history.size(), 2u);
  EXPECT_EQ(history[0]["event"], "fired");
  EXPECT_EQ(history[0]["at"], format_rfc3339(fired));
  EXPECT_EQ(history[0]["owner"], "platform-capacity");
  EXPECT_EQ(history[0]["series"][0]["labels"]["team"], "research");
  EXPECT_EQ(history[1]["event"], "resolved");
  EXPECT_EQ(history[1]["at"], format_rfc3339(resolved));

  restart();
  EXPECT_EQ(*calls_->signal_history("gpus-allocated-but-idle"), history);
  const Result<std::vector<nlohmann::json>> unknown = calls_->signal_history("no-such-signal");
  EXPECT_EQ(unknown.status().code(), ErrorCode::kNotFound);
  // Read as the Signal is: someone without `get` on signals is refused.
  const Result<std::vector<std::string>> stranger =
      plane_->policies().signal_history(Principal::user("mallory"), "gpus-allocated-but-idle");
  EXPECT_EQ(stranger.status().code(), ErrorCode::kPermissionDenied);
}

TEST_F(SignalControl, ARestartKeepsTheStateAndDeliversWhatWasNotDelivered) {
  HookServer hook(0);
  // Holds as long as the policy does: across the restart.
  apply_policy(
      kTwoTeamPolicy +
      signal_yaml(hook.url(), "allot_team_nominal_quota{team=\"research\",resource=\"gpu\"} >= 8"));
  plane_->loop().run_once();
  pass(Duration::seconds(15));
  pass(Duration::seconds(60));
  ASSERT_EQ(events().size(), 1u);  // fired, never delivered: the worker did not run

  restart();
  EXPECT_EQ(plane_->webhooks().pending(), 1u);
  EXPECT_EQ(status()["state"], "firing");  // the last event says so
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(hook.bodies()[0])["event"], "fired");
  plane_->loop().run_once();
  EXPECT_TRUE(events()[0]["delivered"].get<bool>());
  // Still holding: still firing, no second event.
  pass(Duration::seconds(15));
  pass(Duration::seconds(60));
  EXPECT_EQ(events().size(), 1u);
  EXPECT_EQ(status()["state"], "firing");
}

TEST_F(SignalControl, AWebhookThatNeverAnswersDoesNotBlockTheLoop) {
  // A port nobody listens on: every POST fails at once; the loop never waits.
  apply_policy(kTwoTeamPolicy + signal_yaml("http://127.0.0.1:9/hook"));
  submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();
  pass(Duration::seconds(15));
  pass(Duration::seconds(60));
  plane_->webhooks().deliver_due();
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "r1"), "Running");
  EXPECT_EQ(status()["state"], "firing");
  EXPECT_EQ(status()["undeliveredEvents"], 1);
  EXPECT_FALSE(events().at(0)["delivered"].get<bool>());
}

// An event's object name gives its time and kind back (the Signals chart
// reads them so, without parsing each document); anything else is refused.
TEST(SignalEventName, ReadsBackTheTimeAndKindItWasMadeOf) {
  const Timestamp at = Timestamp::from_millis(1'764'806'400'123);
  for (const bool fired : {true, false}) {
    const auto key = parse_signal_event_name(signal_event_name("gpu-idle", at, fired));
    ASSERT_TRUE(key.has_value());
    EXPECT_EQ(key->at, at);
    EXPECT_EQ(key->fired, fired);
  }
  for (const char* bad :
       {"", "gpu-idle", "gpu-idle/fired", "gpu-idle/12x/fired", "/12/fired", "gpu-idle/12/started",
        "gpu-idle//fired", "gpu-idle/1234567890123456789/fired"}) {
    EXPECT_FALSE(parse_signal_event_name(bad).has_value()) << bad;
  }
}

}  // namespace
}  // namespace allot::testing
