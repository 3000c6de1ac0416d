// The chaos bench (`allot-bench chaos`, scripts/chaos.sh): `clients`
// concurrent clients send the load benches' mix (bench/load_op.h: submit,
// get, list, cancel, delete, top, apply, drain) to a real allotd with real
// pods (the local executor, SQLite) for `seconds` of load in `rounds` rounds.
// In each round allotd gets SIGKILL at a seeded moment and is started again
// on the same data folder and port while the clients go on (what they send
// meanwhile gets no answer: unknown, not an error). Nodes fail too: allotd's
// --health-check fails for a node while the bench holds a file for it, so the
// node is cordoned and its work requeued, then healthy again.
//
// After each restart (once /readyz is 200) the clients are parked and the
// invariants of bench/chaos_checks.h are checked against every client's
// ledger of acknowledged writes (bench/chaos_ledger.h); once more at the end.
// Any violation, or a lost acknowledged submit seen by a client while it ran,
// fails the run.
//
// With `postgres` (a PostgreSQL server's conninfo) allotd keeps its state in
// a fresh database of that server (dropped afterwards unless the run failed)
// and runs twice on one data folder: a leader and a standby. Each kill is
// the leader's; the standby takes over, the clients follow it to its port,
// and the killed one is started again as the new standby. restart_s is then
// the failover time: from the kill to the standby's /readyz 200.
//
// Contract: progress goes to `log`; allotd runs in a fresh folder under the
// temporary folder, removed afterwards unless the run failed (its path is
// then in the report). Run as root for pods under their teams' accounts and
// for the pod check to see every pod.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/chaos_checks.h"

namespace allot::bench {

struct ChaosConfig {
  std::string allotd;  // path of the allotd binary
  int32_t clients = 200;
  int32_t seconds = 60;  // of load, over all rounds
  int32_t rounds = 3;    // each ends with a kill -9, a restart and a check
  int32_t timeout_s = 10;
  int32_t nodes = 4;  // of 8 GPUs each, shared by 4 teams
  int32_t allotd_threads = 64;
  bool fail_nodes = true;
  uint64_t seed = 1;
  std::string postgres;  // a server's conninfo: the PostgreSQL store with a standby
};

struct ChaosRound {
  std::string name;      // "kill 1", ..., "final"
  double at_s = 0;       // since the start of the load
  double restart_s = 0;  // from the kill to /readyz 200 (of the standby, with postgres)
  double check_s = 0;    // the checks took
  ChaosCheckResult check;
};

struct ChaosReport {
  ChaosConfig config;
  std::string error;     // set when the bench could not run to its end
  std::string work_dir;  // kept when the run failed
  double wall_s = 0;
  int32_t kills = 0;
  int32_t node_failures = 0;
  int64_t requests = 0;
  int64_t unanswered = 0;  // sent, no answer (allotd killed): unknown
  int64_t not_sent = 0;    // allotd down: the connect failed
  int64_t errors = 0;      // answers the API does not document (not invariants)
  std::string first_error;
  int64_t acked_submits = 0;
  int64_t acked_cancels = 0;
  int64_t acked_deletes = 0;
  int64_t unknown_writes = 0;
  std::vector<ChaosRound> rounds;
  std::vector<std::string> violations;  // of every round and of the clients

  [[nodiscard]] bool passed() const { return error.empty() && violations.empty(); }
};

ChaosReport run_chaos(const ChaosConfig& config, std::FILE* log);
std::string chaos_report_text(const ChaosReport& report);
std::string chaos_report_json(const ChaosReport& report);

}  // namespace allot::bench
