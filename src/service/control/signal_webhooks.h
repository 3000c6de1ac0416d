// SignalWebhooks: delivers the Signals' events (fired, resolved) to their
// webhooks on a worker of its own, so that a slow or failing webhook never
// blocks the admission loop; a failed POST is retried with exponential
// backoff (1 s, doubling, at most kWebhookMaxBackoff) until it succeeds.
// Nothing is lost: the event is already stored (a SignalEvent object,
// signal_monitor.h) before it is enqueued, outcomes are handed back to the
// loop (take_outcomes()), which marks the object delivered, and allotd
// enqueues every undelivered event again when it starts.
//
// Contract: enqueue() and take_outcomes() are thread-safe and never block on
// I/O. deliver_due() posts every delivery due at the clock's now, with no
// lock held while posting; tests call it directly on a ManualClock; start()
// runs it on a thread (every second, or at once after an enqueue) until
// stop() or destruction. With no sender (none configured) deliveries wait.
#pragma once

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "base/logger.h"
#include "base/mutex.h"
#include "base/time.h"
#include "service/control/webhook_sender.h"

namespace allot {

inline constexpr Duration kWebhookFirstBackoff = Duration::seconds(1);
inline constexpr Duration kWebhookMaxBackoff = Duration::minutes(5);

struct WebhookOutcome {
  std::string event;  // the SignalEvent object's name
  int attempts = 0;
  std::string error;  // empty once delivered

  friend bool operator==(const WebhookOutcome&, const WebhookOutcome&) = default;
};

class SignalWebhooks {
 public:
  SignalWebhooks(WebhookSender* sender, const Clock& clock, Logger& logger)
      : sender_(sender), clock_(clock), logger_(logger) {}
  ~SignalWebhooks() { stop(); }
  SignalWebhooks(const SignalWebhooks&) = delete;
  SignalWebhooks& operator=(const SignalWebhooks&) = delete;

  // Queues `body` for `url`, due now; an event already queued is left as it is.
  void enqueue(const std::string& event, const std::string& url, const std::string& body,
               int attempts = 0);
  void deliver_due();
  // What happened to deliveries since the last call: each success, and each
  // failure with its attempt count and error (the delivery stays queued).
  std::vector<WebhookOutcome> take_outcomes();
  [[nodiscard]] size_t pending() const;
  // The next time a queued delivery is due; infinite_future() when none is.
  [[nodiscard]] Timestamp next_due() const;

  void start();
  void stop();

 private:
  struct Delivery {
    std::string url;
    std::string body;
    int attempts = 0;
    Timestamp due;
  };

  WebhookSender* sender_;
  const Clock& clock_;
  Logger& logger_;
  mutable Mutex mu_;
  std::map<std::string, Delivery> queue_ ALLOT_GUARDED_BY(mu_);  // by event
  std::vector<WebhookOutcome> outcomes_ ALLOT_GUARDED_BY(mu_);
  bool stopping_ ALLOT_GUARDED_BY(mu_) = false;
  bool woken_ ALLOT_GUARDED_BY(mu_) = false;
  CondVar wake_;
  std::thread thread_;
};

}  // namespace allot
