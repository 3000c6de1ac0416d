// ChaosGate: where the chaos bench's clients stop between two requests while
// the checker reads allotd. pause() returns once every client is parked (none
// has a request in flight) or has finished; resume() lets them go on.
//
// Contract: thread-safe. Each of the `clients` threads calls pass() before each
// request and leave() once when it finishes; pause() and resume() come from
// one other thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace allot::bench {

class ChaosGate {
 public:
  explicit ChaosGate(int32_t clients) : clients_(clients) {}

  // Blocks while paused.
  void pass() {
    std::unique_lock lock(mu_);
    if (!paused_) return;
    ++parked_;
    changed_.notify_all();
    changed_.wait(lock, [this] { return !paused_; });
    --parked_;
  }
  void leave() {
    std::lock_guard lock(mu_);
    ++left_;
    changed_.notify_all();
  }
  void pause() {
    std::unique_lock lock(mu_);
    paused_ = true;
    changed_.wait(lock, [this] { return parked_ + left_ >= clients_; });
  }
  void resume() {
    std::lock_guard lock(mu_);
    paused_ = false;
    changed_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  const int32_t clients_;
  int32_t parked_ = 0;
  int32_t left_ = 0;
  bool paused_ = false;
};

}  // namespace allot::bench
