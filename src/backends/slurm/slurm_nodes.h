// parse_slurm_nodes(): Slurm's nodes (`scontrol -o show nodes`, one node per
// line of Key=Value fields) as the NodeInventory port reports them (issue 13,
// item 2). Pure.
//
// Contract:
// - capacity: GPUs from Gres (`gpu:8`, `gpu:h100:8`, several entries summed,
//   `(S:0-1)` socket suffixes ignored), CPUs from CPUTot, memory from
//   RealMemory (MiB);
// - flavor: the GPU type when Gres names exactly one, else empty;
// - labels: each feature in AvailableFeatures; `rack-N` and `block-N`
//   features give labels rack=N and block=N, any other feature F gives F=""
//   (an empty value: present);
// - up is false when State has DOWN, FAIL, FAILING, NOT_RESPONDING,
//   POWERED_DOWN or FUTURE; drained when it has DRAIN (DRAINING or DRAINED);
//   reason is Slurm's Reason, else the State; state is Slurm's State as
//   scontrol says it ("IDLE", "MIXED+DRAIN", "DOWN*+DRAIN");
// - node_of_scontrol_fields(): one node from those fields (NodeName, CPUTot,
//   RealMemory, Gres, AvailableFeatures, State, Reason), as slurmrestd's
//   /nodes is read too (slurm_rest.h).
// - nodes in name order. A line without NodeName, or a number that is not
//   one, is kInvalidArgument naming the node and field.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "backends/node_inventory.h"
#include "base/result.h"

namespace allot::slurm {

Result<std::vector<InventoryNode>> parse_slurm_nodes(std::string_view scontrol_output);
Result<InventoryNode> node_of_scontrol_fields(const std::map<std::string, std::string>& fields);

}  // namespace allot::slurm
