// ChaosNodeFailer: makes allotd's nodes fail and recover during the chaos
// bench. allotd runs with `--health-check 'test ! -e DIR/fail-"$ALLOT_NODE"'`
// (health_check_command()); while the file for a node exists its check fails,
// allotd cordons it and requeues its work, and uncordons it once the file is
// gone. At most one node is failed at a time, for 1 to 4 s, with 1 to 3 s
// between failures, all drawn from the seed.
//
// Contract: not thread-safe; one thread calls wait_until(). The destructor
// removes a file that is still there.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>

namespace allot::bench {

class ChaosNodeFailer {
 public:
  ChaosNodeFailer(std::filesystem::path dir, int32_t nodes, uint64_t seed, bool enabled);
  ~ChaosNodeFailer() { heal(); }
  ChaosNodeFailer(const ChaosNodeFailer&) = delete;
  ChaosNodeFailer& operator=(const ChaosNodeFailer&) = delete;

  // allotd's --health-check command for this folder.
  [[nodiscard]] std::string health_check_command() const;
  // Returns at `until`, failing and healing nodes on the way.
  void wait_until(std::chrono::steady_clock::time_point until);
  [[nodiscard]] int32_t failures() const { return failures_; }

 private:
  void toggle();
  void heal();
  [[nodiscard]] std::filesystem::path file_of(int32_t node) const;

  std::filesystem::path dir_;
  int32_t nodes_;
  bool enabled_;
  std::mt19937_64 rng_;
  int32_t failed_ = -1;  // the failed node, -1 for none
  int32_t failures_ = 0;
  std::chrono::steady_clock::time_point next_;
};

}  // namespace allot::bench
