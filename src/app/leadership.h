// allotd's leadership of a shared PostgreSQL store (`--store postgres://...`).
//
// - stand_by_until_leader(): serves the standby answers (SafeModeServer in
//   standby mode: /healthz 200, /readyz 503 "standby") on the listen address
//   while it waits for the leader lock (store/postgres/pg_leader_lock.h),
//   then stops that server and returns the lock and the port it had (so the
//   API is served where the standby was). Announces the address as allotd
//   always does. kUnavailable when a signal stopped it first.
// - LeadershipWatch: confirms the leadership every `interval` on the lock's
//   own connection; once it is lost (the connection gone, another allotd
//   raised the term) it logs why and ends the process at once with exit code
//   3, as Kubernetes controllers do, without stopping pods: the new leader
//   adopts them, and the store refuses this one's commits anyway (fencing).
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "app/signal_stop.h"
#include "base/logger.h"
#include "base/result.h"
#include "store/postgres/pg_leader_lock.h"

namespace allot::app {

struct StandbyConfig {
  std::string conninfo;
  std::string holder;  // recorded as the leader's name
  std::string host;
  int port = 0;
  std::chrono::milliseconds poll{250};
};

struct Leadership {
  PgLeaderLock lock;
  int port;
};

Result<Leadership> stand_by_until_leader(const StandbyConfig& config, SignalStop& signals,
                                         Logger& logger);

class LeadershipWatch {
 public:
  LeadershipWatch(PgLeaderLock lock, std::chrono::milliseconds interval, Logger& logger);
  ~LeadershipWatch();
  LeadershipWatch(const LeadershipWatch&) = delete;
  LeadershipWatch& operator=(const LeadershipWatch&) = delete;

 private:
  void run();

  PgLeaderLock lock_;
  std::chrono::milliseconds interval_;
  Logger& logger_;
  std::mutex mutex_;
  std::condition_variable stop_;
  bool stopping_ = false;  // guarded by mutex_
  std::thread thread_;     // last
};

}  // namespace allot::app
