// SignalStop: allotd's SIGINT and SIGTERM (blocked in every thread by main)
// are taken by a thread of their own, which marks the process as stopping
// and runs the stop action registered at that moment (the standby server's
// stop, then the API server's). An action registered after the signal came
// runs at once, so a signal is never lost between two servers.
// Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <mutex>

namespace allot::app {

class SignalStop {
 public:
  SignalStop();

  void on_stop(std::function<void()> action);
  [[nodiscard]] bool stopping() const;

 private:
  struct State {
    mutable std::mutex mutex;
    std::function<void()> action;
    bool stopping = false;
  };
  std::shared_ptr<State> state_;  // shared with the signal thread, which is detached
};

}  // namespace allot::app
