// SignalMonitor: allotd's Signals (issue 14, item 5) evaluated on its own
// clock. Every `every` it samples its own /metrics (the cluster-wide
// snapshot, rendered and read back, exposition_points.h) into a bounded ring
// history of the series the signals name (kMaxSignalWindow of it), and
// evaluates each signal over it (accounting/signal_evaluation.h). A signal
// that fires or resolves becomes a SignalEvent object in the store (the
// signals' event log: signal, owner, event, at, expression, the matching
// series, response, webhook, delivered), a line in allotd's log, and, with a
// webhook, a delivery on SignalWebhooks' worker; once the webhook took it
// the object is marked delivered.
//
// Contract: the admission loop calls sample_if_due() with no lock held (it
// reads the metrics snapshot), then apply() under the writer lock, which
// steps the trackers in ServerState::signals, appends new and delivered
// events to the batch and hands new deliveries to the webhooks (every event
// stored undelivered, a contract review's notice included: the webhooks
// keep one delivery per event, so each is delivered at least once). Not
// thread-safe: both run on the loop's thread only. resume_deliveries()
// re-enqueues the events stored undelivered (at start, after recovery).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "accounting/signal_evaluation.h"
#include "base/clock.h"
#include "base/logger.h"
#include "model/signal.h"
#include "service/control/cluster_state.h"
#include "service/control/metrics_service.h"
#include "service/control/signal_webhooks.h"

namespace allot {

inline constexpr Duration kSignalSampleEvery = Duration::seconds(15);

struct SignalReading {
  Signal signal;
  std::vector<SignalMatch> matches;
  bool has_data = false;  // its selector selects a series of the newest scrape
};

class SignalMonitor {
 public:
  SignalMonitor(ClusterState& cluster, const MetricsService& metrics, SignalWebhooks& webhooks,
                const Clock& clock, Logger& logger, Duration every = kSignalSampleEvery);

  // Every signal's matches when a sample is due; none otherwise.
  std::optional<std::vector<SignalReading>> sample_if_due();
  // REQUIRES: the state held exclusively. Returns the signals that had data
  // at their previous sample and have none now (monitoring coverage dropped:
  // the caller opens the reviews of the contracts that name them).
  std::vector<std::string> apply(const std::optional<std::vector<SignalReading>>& readings,
                                 ServerState& state, Timestamp now, WriteBatch& batch);
  void resume_deliveries();

  [[nodiscard]] size_t history_size() const { return history_.size(); }

 private:
  void record_delivery_outcomes(ServerState& state, WriteBatch& batch);
  void record_transition(const Signal& signal, const SignalTracker& tracker, bool fired,
                         Timestamp now, ServerState& state, WriteBatch& batch);

  ClusterState& cluster_;
  const MetricsService& metrics_;
  SignalWebhooks& webhooks_;
  const Clock& clock_;
  Logger& logger_;
  Duration every_;
  size_t capacity_;
  std::optional<Timestamp> last_;  // the loop's thread only
  MetricHistory history_;          // the loop's thread only
};

}  // namespace allot
