#include "service/control/policy_gate.h"

namespace allot {

void PolicyGate::lock() {
  {
    MutexLock lock(asked_mu_);
    ++asked_;
  }
  asked_changed_.notify_all();
  gate_.lock();
}

void PolicyGate::wait_until_changes_asked(size_t count) {
  MutexLock lock(asked_mu_);
  while (asked_ < count) asked_changed_.wait(asked_mu_);
}

}  // namespace allot
