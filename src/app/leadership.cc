#include "app/leadership.h"

#include <cstdlib>
#include <iostream>
#include <utility>

#include "server/safe_mode_server.h"

namespace allot::app {
namespace {

std::string standby_reason(const std::string& conninfo) {
  Result<std::string> holder = PgLeaderLock::holder(conninfo);
  const std::string leader = holder.ok() && !holder->empty() ? *holder : "unknown";
  return "waiting for the leadership of the PostgreSQL store (the leader is " + leader + ")";
}

}  // namespace

Result<Leadership> stand_by_until_leader(const StandbyConfig& config, SignalStop& signals,
                                         Logger& logger) {
  server::SafeModeServer standby(standby_reason(config.conninfo), 2,
                                 server::NotServingMode::kStandby);
  ALLOT_ASSIGN_OR_RETURN(int port, standby.bind(config.host, config.port));
  std::thread serving([&standby] { standby.serve(); });
  signals.on_stop([&standby] { standby.stop(); });
  // The first line of stdout (tools/allotd_child.h): the standby is reachable.
  std::cout << "allotd listening on http://" << config.host << ":" << port << std::endl;
  logger.info("standing by: waiting for the leadership of the PostgreSQL store",
              {{"holder", config.holder}, {"store", redacted_conninfo(config.conninfo)}});
  Result<PgLeaderLock> lock = PgLeaderLock::acquire(config.conninfo, config.holder, config.poll,
                                                    [&signals] { return signals.stopping(); });
  signals.on_stop({});
  standby.stop();
  serving.join();
  if (!lock.ok()) return lock.status();
  logger.info("leading the PostgreSQL store", {{"term", std::to_string(lock->term())}});
  return Leadership{std::move(lock).value(), port};
}

LeadershipWatch::LeadershipWatch(PgLeaderLock lock, std::chrono::milliseconds interval,
                                 Logger& logger)
    : lock_(std::move(lock)), interval_(interval), logger_(logger), thread_([this] { run(); }) {}

LeadershipWatch::~LeadershipWatch() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_.notify_all();
  thread_.join();
}

void LeadershipWatch::run() {
  std::unique_lock lock(mutex_);
  while (!stop_.wait_for(lock, interval_, [this] { return stopping_; })) {
    const Status held = lock_.check();
    if (held.ok()) continue;
    logger_.error("lost the leadership of the PostgreSQL store: exiting now",
                  {{"reason", held.to_string()}, {"term", std::to_string(lock_.term())}});
    std::_Exit(3);
  }
}

}  // namespace allot::app
