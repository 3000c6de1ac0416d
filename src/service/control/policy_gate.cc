#include "service/control/policy_gate.h"

namespace allot {

void PolicyGate::lock() {
  MutexLock lock(mu_);
  ++asked_;
  ++changes_waiting_;
  changed_.notify_all();  // wait_until_changes_asked()
  while (change_holds_ || submits_ > 0) changed_.wait(mu_);
  --changes_waiting_;
  change_holds_ = true;
}

void PolicyGate::unlock() {
  {
    MutexLock lock(mu_);
    change_holds_ = false;
  }
  changed_.notify_all();
}

void PolicyGate::lock_shared() {
  MutexLock lock(mu_);
  while (change_holds_ || changes_waiting_ > 0) changed_.wait(mu_);
  ++submits_;
}

void PolicyGate::unlock_shared() {
  bool last = false;
  {
    MutexLock lock(mu_);
    last = --submits_ == 0 && changes_waiting_ > 0;
  }
  if (last) changed_.notify_all();
}

void PolicyGate::wait_until_changes_asked(size_t count) {
  MutexLock lock(mu_);
  while (asked_ < count) changed_.wait(mu_);
}

}  // namespace allot
