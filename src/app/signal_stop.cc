#include "app/signal_stop.h"

#include <csignal>
#include <thread>
#include <utility>

namespace allot::app {

SignalStop::SignalStop() : state_(std::make_shared<State>()) {
  std::thread([state = state_] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    int signal = 0;
    sigwait(&set, &signal);
    std::lock_guard lock(state->mutex);
    state->stopping = true;
    if (state->action) state->action();
  }).detach();
}

void SignalStop::on_stop(std::function<void()> action) {
  std::lock_guard lock(state_->mutex);
  state_->action = std::move(action);
  if (state_->stopping && state_->action) state_->action();
}

bool SignalStop::stopping() const {
  std::lock_guard lock(state_->mutex);
  return state_->stopping;
}

}  // namespace allot::app
