// The invariants the chaos bench checks against a restarted allotd, with its
// clients parked (bench/chaos_gate.h):
// - acknowledged writes (bench/chaos_ledger.h): every acknowledged submit
//   exists with the uid of its 201 unless its delete was sent; every
//   acknowledged cancel is Cancelled or another terminal phase; every
//   acknowledged delete is 404;
// - at a quiet moment (the Admitted and Running set is the same before and
//   after nodes and top are read): no GPU of a node is held by two workloads'
//   placements, no node holds more than its capacity, each node's allocation
//   equals the placements on it, no workload is on more nodes' lists than it
//   has pods, and per team the usage of /api/v1/top equals the GPUs of its
//   Admitted and Running workloads;
// - no pod process (bench/chaos_pods.h) of a finished, waiting or deleted
//   workload is alive, and no pod runs twice.
// What may legitimately be in motion (a delete or cancel whose pods still
// stop, a drained node's pods still exiting) is polled with a deadline until
// it settles, never waited for with a fixed sleep.
//
// Contract: blocking HTTP on 127.0.0.1:port and reads of /proc; not
// thread-safe; violations are sentences naming the workload or node.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/chaos_ledger.h"

namespace allot::bench {

struct ChaosCheckResult {
  int64_t submits_checked = 0;
  int64_t cancels_checked = 0;
  int64_t deletes_checked = 0;
  int64_t workloads_stored = 0;
  int64_t gpus_held = 0;   // at the quiet moment
  int64_t pods_alive = 0;  // when the pod check passed or gave up
  std::vector<std::string> violations;
  std::string error;  // allotd could not be read: the check did not run
};

ChaosCheckResult check_chaos_invariants(int port, const std::vector<const ChaosLedger*>& ledgers,
                                        const std::string& data_dir);

}  // namespace allot::bench
