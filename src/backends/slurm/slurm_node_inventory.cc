#include "backends/slurm/slurm_node_inventory.h"

#include "backends/slurm/slurm_nodes.h"

namespace allot::slurm {
void SlurmNodeInventory::set_rest(std::shared_ptr<RestTransport> rest) {
  MutexLock lock(mu_);
  rest_ = std::move(rest);
}

Result<std::vector<InventoryNode>> SlurmNodeInventory::list() {
  std::shared_ptr<RestTransport> rest;
  {
    MutexLock lock(mu_);
    rest = rest_;
  }
  if (rest) return rest->list_nodes();
  ALLOT_ASSIGN_OR_RETURN(CommandResult result, runner_.run({"scontrol", "-o", "show", "nodes"}));
  if (!result.succeeded()) {
    return Status(ErrorCode::kUnavailable,
                  "scontrol show nodes failed" + (result.timed_out
                                                      ? std::string(" (timed out)")
                                                      : ": " + without_trailing_space(result.err)));
  }
  return parse_slurm_nodes(result.out);
}

Status SlurmNodeInventory::update(const NodeId& node, std::vector<std::string> settings) {
  std::vector<std::string> argv = {"scontrol", "update", "nodename=" + node.str()};
  argv.insert(argv.end(), settings.begin(), settings.end());
  ALLOT_ASSIGN_OR_RETURN(CommandResult result, runner_.run(argv));
  if (result.succeeded()) return Status::ok_status();
  const std::string said = result.said();
  if (said.find("Invalid node name") != std::string::npos) {
    return not_found("Slurm has no node \"" + node.str() + "\": " + said);
  }
  return Status(ErrorCode::kUnavailable,
                "scontrol update nodename=" + node.str() + " failed: " + said);
}

Status SlurmNodeInventory::drain(const NodeId& node, const std::string& reason) {
  if (reason.empty()) return invalid_argument("draining a Slurm node needs a reason", "reason");
  return update(node, {"state=DRAIN", "reason=" + reason});
}

Status SlurmNodeInventory::resume(const NodeId& node) { return update(node, {"state=RESUME"}); }

}  // namespace allot::slurm
