// PolicyGate: orders workload submits with policy changes. A submit holds it
// shared from its validation against the policy to its insertion into the
// live set; a policy change (apply, delete) holds it exclusively from its
// validation to its installation. So no workload is validated against one
// policy and enters the live set under another (a stale team number could
// otherwise run one team's work on another's quota, or point at a deleted
// team), and a team with a submit in flight counts as having work. Submits do
// not wait for each other.
//
// Contract: acquired before ClusterState's writer lock and the state lock (a
// policy change takes the writer only to install what it stored; a submit
// never takes the writer). A policy change that asks for the gate is served
// before the submits that come after it: new submits wait while a change
// waits for the submits in flight. (std::shared_mutex on glibc prefers readers: with 200 clients a
// submit was nearly always in flight, and an apply waited for a gap.)
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
  void unlock() ALLOT_RELEASE();
  void lock_shared() ALLOT_ACQUIRE_SHARED();
  void unlock_shared() ALLOT_RELEASE_SHARED();

  // For tests: returns once `count` policy changes have asked for the gate
  // (each then holds it, or waits for the submits in flight).
  void wait_until_changes_asked(size_t count);

 private:
  Mutex mu_;
  CondVar changed_;
  size_t asked_ ALLOT_GUARDED_BY(mu_) = 0;            // changes that ever asked
  size_t changes_waiting_ ALLOT_GUARDED_BY(mu_) = 0;  // asked, not yet holding
  bool change_holds_ ALLOT_GUARDED_BY(mu_) = false;
  size_t submits_ ALLOT_GUARDED_BY(mu_) = 0;  // holding it shared
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
