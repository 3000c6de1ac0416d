// Node health: the executor side of DESIGN.md section 5's "node inventory and
// health". A backend answers, per node, whether it is fit to run work.
//
// Contract: check() runs one round of checks and returns one report per node
// it was asked about, in the same order. It blocks for at most the backend's
// check timeout per node. Thread-compatible (the service calls it from one
// thread).
#pragma once

#include <string>
#include <vector>

namespace allot {

struct NodeHealthReport {
  std::string node;
  bool healthy = true;
  std::string reason;  // why it is unhealthy: the check's output or "timed out after 10s"

  friend bool operator==(const NodeHealthReport&, const NodeHealthReport&) = default;
};

class NodeHealthChecker {
 public:
  virtual ~NodeHealthChecker() = default;
  virtual std::vector<NodeHealthReport> check(const std::vector<std::string>& nodes) = 0;
};

}  // namespace allot
