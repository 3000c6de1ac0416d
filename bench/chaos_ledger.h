// What the chaos bench's clients know of the workloads they wrote: per
// workload, whether its submit, cancel and delete were acknowledged (2xx),
// refused (a 4xx: nothing was written), or got no answer (allotd killed
// mid-request, a 5xx: unknown, never checked).
//
// A client's requests on one workload are sequential, so the state that
// allotd must show after any restart follows from the ledger alone:
// - submit acknowledged, no delete sent: it exists, with the uid of its 201;
// - cancel acknowledged: Cancelled (or another terminal phase it reached
//   first), never admitted or run again;
// - delete acknowledged: 404.
//
// Contract: plain values; each client owns its own ledger, read by the
// checker only while the clients are parked (ChaosGate).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace allot::bench {

enum class WriteOutcome : uint8_t { kNone, kAcked, kRefused, kUnknown };

// The outcome of a write from its answer: 0 (no answer) and 5xx are unknown,
// unless the request was never sent (`sent` false: allotd was down and the
// connect failed), which writes nothing.
inline WriteOutcome outcome_of(int status, bool sent = true) {
  if (!sent) return WriteOutcome::kRefused;
  if (status / 100 == 2) return WriteOutcome::kAcked;
  if (status == 0 || status >= 500) return WriteOutcome::kUnknown;
  return WriteOutcome::kRefused;
}

// The outcome of a write after another request of the same write: an
// acknowledged one stands, and one that may have landed (unknown) stays so
// unless a later one is acknowledged: a later request that was refused or
// never sent (allotd down) does not undo it. (A delete without an answer,
// stored before a kill, and its retry that found allotd down made a deleted
// workload "acknowledged, must exist".)
inline void record_outcome(WriteOutcome& slot, WriteOutcome outcome) {
  if (slot == WriteOutcome::kAcked) return;
  if (slot == WriteOutcome::kUnknown && outcome != WriteOutcome::kAcked) return;
  slot = outcome;
}

struct TrackedWorkload {
  std::string team;
  std::string name;
  uint64_t uid = 0;  // from the 201; 0 when the submit is not acknowledged
  WriteOutcome submit = WriteOutcome::kNone;
  WriteOutcome cancel = WriteOutcome::kNone;
  WriteOutcome erase = WriteOutcome::kNone;  // the delete

  [[nodiscard]] std::string key() const { return team + "/" + name; }
  // Might still exist: its submit may have been written, no delete acknowledged.
  [[nodiscard]] bool may_exist() const {
    return submit != WriteOutcome::kRefused && erase != WriteOutcome::kAcked;
  }
  // Must exist: its submit was acknowledged and no delete was sent or may have landed.
  [[nodiscard]] bool must_exist() const {
    return submit == WriteOutcome::kAcked && erase != WriteOutcome::kAcked &&
           erase != WriteOutcome::kUnknown;
  }
};

struct ChaosLedger {
  std::vector<TrackedWorkload> workloads;
  int64_t acked_submits = 0;
  int64_t acked_cancels = 0;
  int64_t acked_deletes = 0;
  int64_t unknown_writes = 0;  // submits, cancels and deletes without a known outcome
};

}  // namespace allot::bench
