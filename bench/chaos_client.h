// ChaosClient: one client of the chaos bench (`allot-bench chaos`). It sends
// the load benches' mix (bench/load_op.h) on its own keep-alive connection,
// acts on the workloads it submitted, and records every write's outcome in
// its ledger (bench/chaos_ledger.h). A request sent without an answer (allotd
// was killed) is an unknown write, not an error; one that found allotd down
// (connect refused) wrote nothing, and the client backs off 20 ms.
//
// While it runs it also checks what it can see at once: an acknowledged,
// undeleted workload of its own that a get, cancel or delete answers 404 is
// lost (a violation). An answer that the API does not document for the
// request (bench/load_op.h) is an error, counted apart from violations.
//
// The client sends to the port that `port` holds at each request: when the
// bench moves it (a standby took over from a killed leader), the client
// connects there.
//
// Contract: run_until() on one thread; the ledger, violations and counts are
// read after it returned or while the gate holds it parked.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench/chaos_gate.h"
#include "bench/chaos_ledger.h"
#include "bench/http_load_client.h"
#include "bench/load_op.h"

namespace allot::bench {

struct ChaosClientConfig {
  int32_t nodes = 4;
  int32_t timeout_s = 10;
  uint64_t seed = 1;
  std::string cycle = "200ms";  // the policy's scheduling cycle (apply sends it too)
  std::string token;            // the administrator's API token
};

class ChaosClient {
 public:
  ChaosClient(const ChaosClientConfig& config, const std::atomic<int>& port, int id)
      : config_(config), port_(port), rng_(config.seed * 7919 + id), id_(id) {}

  // Sends requests until `stop`, passing `gate` before each.
  void run_until(const std::atomic<bool>& stop, ChaosGate& gate);

  [[nodiscard]] const ChaosLedger& ledger() const { return ledger_; }
  [[nodiscard]] const std::vector<std::string>& violations() const { return violations_; }
  [[nodiscard]] int64_t requests() const { return requests_; }
  [[nodiscard]] int64_t unanswered() const { return unanswered_; }
  [[nodiscard]] int64_t not_sent() const { return not_sent_; }
  [[nodiscard]] int64_t errors() const { return errors_; }
  [[nodiscard]] const std::string& first_error() const { return first_error_; }

 private:
  void step();
  void submit();
  // Index of one of the workloads that may still exist; -1 when none.
  int64_t pick_mine();
  void get(TrackedWorkload& workload);
  void cancel(TrackedWorkload& workload);
  void erase(TrackedWorkload& workload);
  // 404 for a workload that must exist: a lost acknowledged submit.
  void expect_found(const TrackedWorkload& workload, int status, const char* what);
  HttpAnswer send(LoadOp op, const char* method, const std::string& path,
                  const std::string& body = {}, const char* type = "application/json");

  const ChaosClientConfig& config_;
  const std::atomic<int>& port_;
  int connected_port_ = 0;
  std::unique_ptr<HttpLoadClient> http_;  // to connected_port_
  std::mt19937_64 rng_;
  int id_;
  int next_ = 0;
  ChaosLedger ledger_;
  std::vector<size_t> live_;  // indexes into ledger_.workloads of those that may exist
  std::vector<std::string> violations_;
  int64_t requests_ = 0;
  int64_t unanswered_ = 0;  // sent, no answer: the write is unknown
  int64_t not_sent_ = 0;    // the connect failed: allotd was down
  int64_t errors_ = 0;
  std::string first_error_;
};

}  // namespace allot::bench
