// slurmrestd v0.0.38 as the Slurm executor speaks it (issue 13, item 3): the
// JSON of `POST /slurm/v0.0.38/job/submit` made from the job's sbatch
// submission, and what `GET /slurm/v0.0.38/jobs` and slurmrestd's errors
// say. Pure: no I/O.
//
// Contract:
// - rest_submission_of() maps sbatch's argv (slurm_jobs.h's submission_of())
//   onto v0.0.38's job properties: name, account, partition, qos, nodes
//   ([n, n]), tasks, tasks_per_node, cpus_per_task, memory_per_node (MiB),
//   gres (per node), time_limit (minutes; absent for no limit), open_mode,
//   requeue: false, standard_output, current_working_directory, and the
//   batch script's text; `environment` is the one given (v0.0.38 requires
//   one). --uid/--gid/--export=NONE are not job properties: a job runs as the
//   user whose token submits it. v0.0.38 cannot name nodes ("required_nodes"
//   is a disabled key), so a job with a --nodelist (`nodelist`) is pinned by
//   the nodes it may not use: `exclude_nodes` = every node of
//   `slurm_nodes` (Slurm's node names) but its own, with nodes: [n, n] for
//   its n nodes, Slurm can only run it where allot placed it. When a placed
//   node is not among `slurm_nodes` (or they are unknown: empty), the job is
//   submitted held (hold: true, `held`) and the transport places it
//   (scontrol update ReqNodeList) and releases it. An sbatch option it does
//   not know is kInvalidArgument naming it.
// - parse_rest_nodes(): the nodes of a /nodes answer as parse_slurm_nodes()
//   reads scontrol's (slurm_nodes.h): cpus, real_memory, gres, features,
//   state with its state_flags ("IDLE+DRAIN", "DOWN+NOT_RESPONDING"), reason.
//   Not JSON or without `nodes`: kInvalidArgument.
// - parse_rest_submitted(): the job id of a job/submit answer, or
//   kInvalidArgument with slurmrestd's errors.
// - parse_rest_jobs(): the jobs of a /jobs answer as squeue's lines read
//   (job_state, state_reason, nodes, exit_code: the raw wait status).
//   Not JSON or without `jobs`: kInvalidArgument.
// - rest_errors_of(): the `errors` of an answer, "; "-joined (description,
//   else error); empty when none or not JSON. rest_refusal() is true when one
//   carries a Slurm error number (error_code or error_number) of Slurm's
//   refusals (ESLURM_*, 2000-2999: an unknown account...) or slurmrestd's
//   (9000-9999: a request it cannot parse): submitting again is refused
//   again. Socket (1000s, 5000s), credential (6000s) and unspecified (-1)
//   errors are the transport's: a wrong token answers 5005 or -1.
//   rest_unknown_node() is true when one is Slurm's "invalid node name"
//   (ESLURM_INVALID_NODE_NAME, 2018, or those words): a node of
//   exclude_nodes that Slurm no longer has.
// - parse_rest_last_update(): slurmctld's time of an answer's `last_update`
//   (epoch seconds; an integer or {"number": n}); nullopt when absent.
//   parse_rest_http_date(): an HTTP Date header ("Tue, 01 Dec 2026 06:00:00
//   GMT") in epoch seconds; nullopt when not one. parse_rest_diag_time():
//   slurmctld's time of a /diag answer (statistics.req_time).
// - Every field is read only when of its type: null or another type is
//   absent (a node's state "unknown", a text empty, exit_code 0); nothing
//   here throws.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/node_inventory.h"
#include "backends/slurm/slurm_jobs.h"
#include "base/result.h"

namespace allot::slurm {

inline constexpr std::string_view kRestApi = "v0.0.38";
inline constexpr int64_t kRestInvalidNodeName = 2018;  // ESLURM_INVALID_NODE_NAME

struct RestSubmission {
  std::string body;      // job/submit's JSON
  std::string nodelist;  // where allot placed it (empty: anywhere)
  bool held = false;     // submitted held: the transport places and releases it
};

Result<RestSubmission> rest_submission_of(const Submission& submission,
                                          const std::map<std::string, std::string>& environment,
                                          const std::vector<std::string>& slurm_nodes = {});
Result<std::vector<InventoryNode>> parse_rest_nodes(std::string_view body);
Result<std::string> parse_rest_submitted(std::string_view body);
Result<std::vector<SlurmJob>> parse_rest_jobs(std::string_view body);
std::string rest_errors_of(std::string_view body);
bool rest_refusal(std::string_view body);
bool rest_unknown_node(std::string_view body);
std::optional<int64_t> parse_rest_last_update(std::string_view body);
std::optional<int64_t> parse_rest_http_date(std::string_view date);
std::optional<int64_t> parse_rest_diag_time(std::string_view body);

}  // namespace allot::slurm
