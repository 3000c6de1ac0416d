// LocalHealthChecker: node health for the local backend (node_health.h), by
// running an operator-supplied check command once per node.
//
// Contract: for each node, `/bin/sh -c <command>` runs as a real process in
// its own process group, as the allotd user, with a minimal environment
// (PATH, HOME, LANG) plus ALLOT_NODE=<node>. Exit code 0 means healthy. Any
// other ending is unhealthy, with the first non-empty line of its combined
// output as the reason (or "health check exited with code N" / "health check
// killed by signal N" when it printed nothing). A check still running after
// `timeout` has its process group killed and reports "health check timed out
// after <timeout>". An empty command means every node is healthy (heartbeat
// only). Nodes are checked one after the other, so check() blocks for at most
// about `timeout` per node. Thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "backends/node_health.h"
#include "base/time.h"

namespace allot::local {

struct LocalHealthCheckerOptions {
  std::string command;  // run with /bin/sh -c; empty: always healthy
  Duration timeout = Duration::seconds(10);
};

class LocalHealthChecker : public NodeHealthChecker {
 public:
  explicit LocalHealthChecker(LocalHealthCheckerOptions options);

  std::vector<NodeHealthReport> check(const std::vector<std::string>& nodes) override;

 private:
  NodeHealthReport check_one(const std::string& node) const;

  LocalHealthCheckerOptions options_;
  std::string home_;  // HOME of the checks: the allotd user's
};

}  // namespace allot::local
