#include "service/control/signal_monitor.h"

#include <algorithm>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "api/signal_expression.h"
#include "service/control/signal_state.h"
#include "service/metrics/exposition_points.h"
#include "service/metrics/prometheus_text.h"

namespace allot {
namespace {

nlohmann::json signal_event_json(const Signal& signal, const SignalTracker& tracker, bool fired,
                                 Timestamp now) {
  nlohmann::json series = nlohmann::json::array();
  for (const SignalMatch& match : tracker.matches) {
    nlohmann::json labels = nlohmann::json::object();
    for (const auto& [key, value] : match.labels) labels[key] = value;
    series.push_back({{"labels", std::move(labels)}, {"value", match.value}});
  }
  return {{"signal", signal.meta.name},
          {"owner", signal.spec.owner},
          {"event", fired ? "fired" : "resolved"},
          {"at", format_rfc3339(now)},
          {"expression", signal.spec.expression},
          {"series", std::move(series)},
          {"response",
           {{"text", signal.spec.response.text}, {"runbook", signal.spec.response.runbook}}},
          {"webhook", signal.spec.webhook},
          {"delivered", false}};
}

}  // namespace

SignalMonitor::SignalMonitor(ClusterState& cluster, const MetricsService& metrics,
                             SignalWebhooks& webhooks, const Clock& clock, Logger& logger,
                             Duration every)
    : cluster_(cluster),
      metrics_(metrics),
      webhooks_(webhooks),
      clock_(clock),
      logger_(logger),
      every_(every),
      capacity_(static_cast<size_t>(kMaxSignalWindow.ms() / std::max<int64_t>(every.ms(), 1)) + 2) {
}

std::optional<std::vector<SignalReading>> SignalMonitor::sample_if_due() {
  const Timestamp now = clock_.now();
  if (last_ && now - *last_ < every_) return std::nullopt;
  last_ = now;
  std::vector<Signal> signals;
  {
    ReaderLock lock(cluster_.mutex());
    signals = cluster_.view().policy.policy().signals;
  }
  if (signals.empty()) {
    history_.clear();
    return std::vector<SignalReading>();
  }
  std::set<std::string, std::less<>> names;
  for (const Signal& signal : signals) names.insert(signal.spec.query.selector.metric);
  const Result<MetricsSnapshot> snapshot = metrics_.snapshot(Principal::system());
  if (!snapshot.ok()) {
    logger_.warn("signals: the metrics could not be read",
                 {{"reason", snapshot.status().to_string()}});
    return std::nullopt;
  }
  history_.push_back({now, exposition_points(render_prometheus(*snapshot), names)});
  while (history_.size() > capacity_) history_.pop_front();
  std::vector<SignalReading> readings;
  readings.reserve(signals.size());
  for (Signal& signal : signals) {
    std::vector<SignalMatch> matches = evaluate_signal(signal.spec.query, history_);
    const bool has_data = signal_has_data(signal.spec.query, history_);
    readings.push_back({std::move(signal), std::move(matches), has_data});
  }
  return readings;
}

void SignalMonitor::record_delivery_outcomes(ServerState& state, WriteBatch& batch) {
  for (const WebhookOutcome& outcome : webhooks_.take_outcomes()) {
    if (!outcome.error.empty()) continue;  // still queued; the worker retries
    const auto it = state.signals.undelivered.find(outcome.event);
    if (it == state.signals.undelivered.end()) continue;
    nlohmann::json document = nlohmann::json::parse(it->second.document, nullptr, false);
    if (document.is_object()) {
      document["delivered"] = true;
      document["attempts"] = outcome.attempts;
      batch.put_objects.push_back({it->second.kind, it->first, document.dump()});
      if (it->second.kind == kSignalEventKind) {  // a review's notice has no signal history
        remember_signal_event(state.signals, document.value("signal", ""), it->first,
                              document.dump());
      }
    }
    state.signals.undelivered.erase(it);
  }
}

void SignalMonitor::record_transition(const Signal& signal, const SignalTracker& tracker,
                                      bool fired, Timestamp now, ServerState& state,
                                      WriteBatch& batch) {
  const std::string name = signal_event_name(signal.meta.name, now, fired);
  const std::string document = signal_event_json(signal, tracker, fired, now).dump();
  batch.put_objects.push_back({std::string(kSignalEventKind), name, document});
  remember_signal_event(state.signals, signal.meta.name, name, document);
  std::string series;
  for (const SignalMatch& match : tracker.matches) {
    series += (series.empty() ? "" : "; ") + labels_text(match.labels);
  }
  logger_.warn(fired ? "signal fired" : "signal resolved",
               {{"signal", signal.meta.name}, {"owner", signal.spec.owner}, {"series", series}});
  if (signal.spec.webhook.empty()) return;
  state.signals.undelivered[name] = {signal.spec.webhook, document};
  webhooks_.enqueue(name, signal.spec.webhook, document);
}

std::vector<std::string> SignalMonitor::apply(
    const std::optional<std::vector<SignalReading>>& readings, ServerState& state, Timestamp now,
    WriteBatch& batch) {
  record_delivery_outcomes(state, batch);
  // Events stored since (a contract's review falling due: review_notices.h);
  // those already queued stay as they are.
  for (const auto& [event, record] : state.signals.undelivered) {
    webhooks_.enqueue(event, record.webhook, record.document);
  }
  if (!readings) return {};
  const std::vector<Signal>& current = state.policy.policy().signals;
  const auto gone = [&](const auto& entry) {
    return std::none_of(current.begin(), current.end(),
                        [&](const Signal& s) { return s.meta.name == entry.first; });
  };
  std::erase_if(state.signals.trackers, gone);
  std::erase_if(state.signals.has_data, gone);
  std::vector<std::string> lost_data;
  for (const SignalReading& reading : *readings) {
    // A signal changed or deleted since it was read does not step.
    if (std::find(current.begin(), current.end(), reading.signal) == current.end()) continue;
    const std::string& name = reading.signal.meta.name;
    const auto had = state.signals.has_data.find(name);
    if (had != state.signals.has_data.end() && had->second && !reading.has_data) {
      lost_data.push_back(name);
    }
    state.signals.has_data[name] = reading.has_data;
    SignalTracker& tracker = state.signals.trackers[name];
    const SignalTransition transition =
        step_signal(tracker, reading.matches, reading.signal.spec.for_duration, now);
    if (transition == SignalTransition::kNone) continue;
    record_transition(reading.signal, tracker, transition == SignalTransition::kFired, now, state,
                      batch);
  }
  return lost_data;
}

void SignalMonitor::resume_deliveries() {
  ReaderLock lock(cluster_.mutex());
  for (const auto& [event, record] : cluster_.view().signals.undelivered) {
    webhooks_.enqueue(event, record.webhook, record.document);
  }
}

}  // namespace allot
