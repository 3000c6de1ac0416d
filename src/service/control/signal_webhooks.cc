#include "service/control/signal_webhooks.h"

#include <algorithm>
#include <chrono>
#include <utility>

namespace allot {
namespace {

Duration webhook_backoff(int attempts) {
  Duration backoff = kWebhookFirstBackoff;
  for (int i = 1; i < attempts && backoff < kWebhookMaxBackoff; ++i) backoff = backoff * 2;
  return std::min(backoff, kWebhookMaxBackoff);
}

}  // namespace

void SignalWebhooks::enqueue(const std::string& event, const std::string& url,
                             const std::string& body, int attempts) {
  {
    MutexLock lock(mu_);
    queue_.try_emplace(event, Delivery{url, body, attempts, clock_.now()});
    woken_ = true;
  }
  wake_.notify_all();
}

void SignalWebhooks::deliver_due() {
  if (sender_ == nullptr) return;
  const Timestamp now = clock_.now();
  std::vector<std::pair<std::string, Delivery>> due;
  {
    MutexLock lock(mu_);
    for (const auto& [event, delivery] : queue_) {
      if (delivery.due <= now) due.emplace_back(event, delivery);
    }
  }
  for (auto& [event, delivery] : due) {
    const Status sent = sender_->post(delivery.url, delivery.body);  // no lock held
    const int attempts = delivery.attempts + 1;
    MutexLock lock(mu_);
    auto it = queue_.find(event);
    if (sent.ok()) {
      if (it != queue_.end()) queue_.erase(it);
      outcomes_.push_back({event, attempts, ""});
      continue;
    }
    if (it != queue_.end()) {
      it->second.attempts = attempts;
      it->second.due = now + webhook_backoff(attempts);
    }
    outcomes_.push_back({event, attempts, sent.message()});
    logger_.warn(
        "signal webhook failed; retrying",
        {{"event", event}, {"attempts", std::to_string(attempts)}, {"error", sent.message()}});
  }
}

std::vector<WebhookOutcome> SignalWebhooks::take_outcomes() {
  MutexLock lock(mu_);
  return std::exchange(outcomes_, {});
}

size_t SignalWebhooks::pending() const {
  MutexLock lock(mu_);
  return queue_.size();
}

Timestamp SignalWebhooks::next_due() const {
  MutexLock lock(mu_);
  Timestamp next = Timestamp::infinite_future();
  for (const auto& [event, delivery] : queue_) next = std::min(next, delivery.due);
  return next;
}

void SignalWebhooks::start() {
  thread_ = std::thread([this] {
    while (true) {
      {
        MutexLock lock(mu_);
        if (!stopping_ && !woken_) {
          wake_.wait_until(mu_, std::chrono::steady_clock::now() + std::chrono::seconds(1));
        }
        if (stopping_) return;
        woken_ = false;
      }
      deliver_due();
    }
  });
}

void SignalWebhooks::stop() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace allot
