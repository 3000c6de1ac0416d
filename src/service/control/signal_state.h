// SignalsState: what allotd keeps in memory of its Signals (signal_monitor.h):
// each signal's tracker (inactive, pending, firing, since when) and the
// events its webhook has not taken yet. Every event is a SignalEvent object
// in the store (the signals' event log), delivered or not, so a restart
// restores both: the last event of each signal gives its tracker back (a
// signal that was firing is firing again, without a second "fired"), and
// the undelivered ones are delivered again.
//
// Each signal's latest events (at most kSignalHistoryKept, the oldest
// forgotten first; the store keeps them all) are kept as their documents for
// its history (GET /api/v1/signals/{name}/history), loaded at start too.
//
// Contract: value types, guarded by ClusterState's lock as part of
// ServerState. load_signal_event() reads one stored object; a malformed one
// is an error naming it.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounting/signal_evaluation.h"
#include "base/status.h"
#include "model/views/policy_view.h"

namespace allot {

inline constexpr std::string_view kSignalEventKind = "SignalEvent";
inline constexpr size_t kSignalHistoryKept = 200;

struct SignalEventRecord {
  std::string webhook;
  std::string document;  // JSON: the object's document and the webhook's body
  // The stored object's kind: a Signal's event, or a contract's review
  // falling due (ContractReviewEvent, review_notices.h), delivered alike.
  std::string kind = "SignalEvent";
};

struct SignalsState {
  std::map<std::string, SignalTracker> trackers;  // by signal
  // Whether each signal's selector had data at its last sample (not kept
  // across restarts: the first sample after a start sets it).
  std::map<std::string, bool> has_data;
  std::map<std::string, SignalEventRecord> undelivered;  // by SignalEvent object name
  // signal -> SignalEvent object name -> its document (names sort by time).
  std::map<std::string, std::map<std::string, std::string>> history;
};

// "<signal>/<at, ms, zero-padded>/<fired|resolved>": one event's object name.
std::string signal_event_name(const std::string& signal, Timestamp at, bool fired);

// signal_event_name()'s time and kind read back from a name; none when the
// name is not one (its time at most 18 digits).
struct SignalEventKey {
  Timestamp at;
  bool fired = false;  // else resolved
};
std::optional<SignalEventKey> parse_signal_event_name(std::string_view name);

Status load_signal_event(const std::string& name, const std::string& document, SignalsState& state);

// Keeps (or updates) one event of `signal` in its history.
void remember_signal_event(SignalsState& state, const std::string& signal, const std::string& name,
                           std::string document);

// The signal's kept events, oldest first, as their documents.
std::vector<std::string> signal_history(const SignalsState& state, const std::string& signal);

// The state of the signal `name` as last evaluated; none before.
std::optional<SignalStatusView> signal_status(const SignalsState& state, const std::string& name);

}  // namespace allot
