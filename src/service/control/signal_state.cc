#include "service/control/signal_state.h"

#include <cstdio>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"

namespace allot {

std::string signal_event_name(const std::string& signal, Timestamp at, bool fired) {
  char millis[24];
  std::snprintf(millis, sizeof millis, "%015lld", static_cast<long long>(at.ms()));
  return signal + "/" + millis + "/" + (fired ? "fired" : "resolved");
}

std::optional<SignalEventKey> parse_signal_event_name(std::string_view name) {
  const size_t last = name.rfind('/');
  if (last == std::string_view::npos || last == 0) return std::nullopt;
  const size_t middle = name.rfind('/', last - 1);
  if (middle == std::string_view::npos || middle == 0) return std::nullopt;  // no signal's name
  const std::string_view at = name.substr(middle + 1, last - middle - 1);
  const std::string_view kind = name.substr(last + 1);
  if (at.empty() || at.size() > 18 ||
      at.find_first_not_of("0123456789") != std::string_view::npos ||
      (kind != "fired" && kind != "resolved")) {
    return std::nullopt;
  }
  int64_t ms = 0;
  for (const char c : at) ms = ms * 10 + (c - '0');
  return SignalEventKey{Timestamp::from_millis(ms), kind == "fired"};
}

Status load_signal_event(const std::string& name, const std::string& document,
                         SignalsState& state) {
  const nlohmann::json event = nlohmann::json::parse(document, nullptr, false);
  if (!event.is_object() || !event.contains("signal") || !event.contains("at") ||
      !event.contains("event")) {
    return invalid_argument("stored SignalEvent '" + name + "' is malformed");
  }
  const Result<Timestamp> at = parse_rfc3339(event.value("at", ""));
  if (!at.ok()) return invalid_argument("stored SignalEvent '" + name + "': bad time");
  const std::string webhook = event.value("webhook", "");
  if (!webhook.empty() && !event.value("delivered", false)) {
    state.undelivered[name] = {webhook, document};
  }
  remember_signal_event(state, event.value("signal", ""), name, document);
  // Names sort by time within a signal: the last one loaded is the latest.
  SignalTracker& tracker = state.trackers[event.value("signal", "")];
  if (tracker.since && *tracker.since > *at) return {};
  const bool fired = event.value("event", "") == "fired";
  tracker.state = fired ? SignalState::kFiring : SignalState::kInactive;
  tracker.since = *at;
  tracker.holding_since = fired ? std::optional<Timestamp>(*at) : std::nullopt;
  return {};
}

void remember_signal_event(SignalsState& state, const std::string& signal, const std::string& name,
                           std::string document) {
  std::map<std::string, std::string>& events = state.history[signal];
  events[name] = std::move(document);
  while (events.size() > kSignalHistoryKept) events.erase(events.begin());
}

std::vector<std::string> signal_history(const SignalsState& state, const std::string& signal) {
  std::vector<std::string> out;
  const auto it = state.history.find(signal);
  if (it == state.history.end()) return out;
  out.reserve(it->second.size());
  for (const auto& [name, document] : it->second) out.push_back(document);
  return out;
}

std::optional<SignalStatusView> signal_status(const SignalsState& state, const std::string& name) {
  const auto it = state.trackers.find(name);
  if (it == state.trackers.end()) return std::nullopt;
  SignalStatusView view{std::string(signal_state_name(it->second.state)), it->second.since, {}, 0};
  for (const SignalMatch& match : it->second.matches)
    view.series.push_back(labels_text(match.labels));
  const std::string prefix = name + "/";
  for (const auto& [event, record] : state.undelivered) {
    if (event.starts_with(prefix)) ++view.undelivered;
  }
  return view;
}

}  // namespace allot
