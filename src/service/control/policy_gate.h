// PolicyGate: orders workload submits with policy changes. A submit holds it
// shared from its validation against the policy to its insertion into the
// live set; a policy change (apply, delete) holds it exclusively from its
// validation to its installation. So no workload is validated against one
// policy and enters the live set under another (a stale team number could
// otherwise run one team's work on another's quota, or point at a deleted
// team), and a team with a submit in flight counts as having work. Submits do
// not wait for each other.
//
// Contract: acquired before ClusterState's writer lock and state lock.
// Thread-safe; the lock discipline is checked by Clang (base/mutex.h).
#pragma once

#include <cstddef>

#include "base/mutex.h"

namespace allot {

class ALLOT_CAPABILITY("policy gate") PolicyGate {
 public:
  PolicyGate() = default;
  PolicyGate(const PolicyGate&) = delete;
  PolicyGate& operator=(const PolicyGate&) = delete;

  void lock() ALLOT_ACQUIRE();
  void unlock() ALLOT_RELEASE() { gate_.unlock(); }
  void lock_shared() ALLOT_ACQUIRE_SHARED() { gate_.lock_shared(); }
  void unlock_shared() ALLOT_RELEASE_SHARED() { gate_.unlock_shared(); }

  // For tests: returns once `count` policy changes have asked for the gate
  // (each then holds it, or waits for the submits in flight).
  void wait_until_changes_asked(size_t count);

 private:
  SharedMutex gate_;
  Mutex asked_mu_;
  CondVar asked_changed_;
  size_t asked_ ALLOT_GUARDED_BY(asked_mu_) = 0;
};

// A policy change's hold of the gate, for its scope.
class ALLOT_SCOPED_CAPABILITY PolicyChangeHold {
 public:
  explicit PolicyChangeHold(PolicyGate& gate) ALLOT_ACQUIRE(gate) : gate_(gate) { gate_.lock(); }
  ~PolicyChangeHold() ALLOT_RELEASE() { gate_.unlock(); }
  PolicyChangeHold(const PolicyChangeHold&) = delete;
  PolicyChangeHold& operator=(const PolicyChangeHold&) = delete;

 private:
  PolicyGate& gate_;
};

// A submit's shared hold of the gate, for its scope.
class ALLOT_SCOPED_CAPABILITY SubmitHold {
 public:
  explicit SubmitHold(PolicyGate& gate) ALLOT_ACQUIRE_SHARED(gate) : gate_(gate) {
    gate_.lock_shared();
  }
  ~SubmitHold() ALLOT_RELEASE() { gate_.unlock_shared(); }
  SubmitHold(const SubmitHold&) = delete;
  SubmitHold& operator=(const SubmitHold&) = delete;

 private:
  PolicyGate& gate_;
};

}  // namespace allot
