#include "bench/chaos_node_failer.h"

#include <fstream>
#include <thread>
#include <utility>

#include "bench/load_cluster.h"

namespace allot::bench {
namespace {

using SteadyClock = std::chrono::steady_clock;

// Seeded milliseconds in [low, high].
std::chrono::milliseconds between(std::mt19937_64& rng, int64_t low, int64_t high) {
  return std::chrono::milliseconds(low + static_cast<int64_t>(rng() % (high - low + 1)));
}

}  // namespace

ChaosNodeFailer::ChaosNodeFailer(std::filesystem::path dir, int32_t nodes, uint64_t seed,
                                 bool enabled)
    : dir_(std::move(dir)),
      nodes_(nodes),
      enabled_(enabled),
      rng_(seed * 104'729 + 17),
      next_(SteadyClock::now() + between(rng_, 1'000, 3'000)) {}

std::string ChaosNodeFailer::health_check_command() const {
  // The folder is the bench's own temporary one: no quote inside it.
  return "test ! -e '" + (dir_ / "fail-").string() + "'\"$ALLOT_NODE\"";
}

std::filesystem::path ChaosNodeFailer::file_of(int32_t node) const {
  return dir_ / ("fail-" + load_node_name(node));
}

void ChaosNodeFailer::wait_until(SteadyClock::time_point until) {
  for (;;) {
    const SteadyClock::time_point now = SteadyClock::now();
    if (now >= until) return;
    if (enabled_ && now >= next_) {
      toggle();
      continue;
    }
    std::this_thread::sleep_until(enabled_ ? std::min(until, next_) : until);
  }
}

void ChaosNodeFailer::toggle() {
  if (failed_ >= 0) {
    heal();
    next_ = SteadyClock::now() + between(rng_, 1'000, 3'000);
    return;
  }
  failed_ = static_cast<int32_t>(rng_() % static_cast<uint64_t>(nodes_));
  std::ofstream(file_of(failed_)) << "failed by allot-bench chaos\n";
  ++failures_;
  next_ = SteadyClock::now() + between(rng_, 1'000, 4'000);
}

void ChaosNodeFailer::heal() {
  if (failed_ < 0) return;
  std::error_code ignored;
  std::filesystem::remove(file_of(failed_), ignored);
  failed_ = -1;
}

}  // namespace allot::bench
