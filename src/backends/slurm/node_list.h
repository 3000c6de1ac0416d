// Slurm's node lists (hostlists) as squeue's NodeList writes them, and the
// check that a running job is where allot placed it (issue 13: "running job
// NodeList check"). Pure: no I/O.
//
// Contract:
// - expand_node_list("node[1-3,7],gpu-a01") is {gpu-a01, node1, node2,
//   node3, node7}: sorted, distinct; zero-padded ranges keep their width
//   ("n[08-10]": n08, n09, n10); one bracket per name (Slurm's nodes here
//   have one). "" and "(null)" are no nodes. nullopt when the text is not a
//   node list this reads (an unclosed bracket, a range going down, a name
//   with two brackets): then nothing can be said about the placement.
// - placed_elsewhere(allot's placed nodes, Slurm's NodeList): allot's
//   placement written as a node list ("node1,node2") when Slurm's nodes
//   are not the same set; "" when they are, when Slurm names no nodes yet,
//   or when its list cannot be read.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace allot::slurm {

std::optional<std::vector<std::string>> expand_node_list(std::string_view text);

std::string placed_elsewhere(const std::vector<std::string>& placed, std::string_view slurm_nodes);

}  // namespace allot::slurm
