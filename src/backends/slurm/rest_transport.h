// RestTransport: the Slurm executor's jobs through slurmrestd v0.0.38
// (slurm_transport.h's contract; JSON in slurm_rest.h), with cpp-httplib.
//
// Contract:
// - Every request carries X-SLURM-USER-NAME / X-SLURM-USER-TOKEN: the
//   configured user's JWT (`scontrol token username=U lifespan=S`), or, for a
//   job that runs as another account (an owner), a token for that user from
//   `token_for` (allotd as root mints them with scontrol), kept until half its
//   lifespan passed. Tokens are never logged nor put in an error.
// - check(): one `GET /slurm/v0.0.38/diag` (it reaches slurmctld with the
//   token, as a ping does not): ok on 200 without errors; otherwise
//   kFailedPrecondition that says which: the URL cannot be reached, the
//   server does not serve v0.0.38 (404), no or a refused token (401, or
//   slurmctld's refusal with the token), with the server's words.
// - submit(): `POST /slurm/v0.0.38/job/submit`. Slurm's refusal (its error
//   number in the answer) is kFailedPrecondition; an unreachable server,
//   HTTP 401/404 or an answer without a Slurm error is kUnavailable. A job
//   that must run on named nodes is pinned there by excluding every other
//   node Slurm has (v0.0.38 cannot name nodes; slurm_rest.h): one request,
//   no scontrol. Slurm's node names are read with list_nodes() (the
//   inventory's poll reads them too) and kept `node_names_for` (at most the
//   inventory's poll interval); they are read again at once when a placed
//   node is not among them, and when Slurm refuses the submit for an invalid
//   node name (a node of exclude_nodes it no longer has: rest_unknown_node())
//   the names are read again and the job submitted once more. Only when a
//   placed node is still unknown (or that second submit is refused so too) is
//   the job submitted held, then `placer` (scontrol update ReqNodeList,
//   scontrol release) places and releases it; when that fails the held job is
//   deleted and the error returned (kUnavailable). Not closed: a node added
//   to Slurm in the `node_names_for` before a submit is not excluded (Slurm
//   may start the job there); allot does not compare a running job's
//   NodeList with its placement.
// - cancel(): `DELETE /slurm/v0.0.38/job/{id}` (kCancel: Slurm's default,
//   recorded CANCELLED), with `?signal=TERM|KILL` (every process of the job,
//   its batch script included).
// - list_jobs(): `list_jobs_by` when set; else ONE `GET /slurm/v0.0.38/jobs`, after the first with
//   `?update_time=` slurmctld's own time of the last list (the answer's
//   `last_update`, else its HTTP Date header, else, as slurmrestd 22.05
//   sends neither, `GET /diag`'s req_time asked just before the list; never
//   allotd's clock) less 2 s: slurmctld answers 304 when its job table has
//   not changed since, and the last list is returned again (nothing parsed).
//   Without any of them the next list is a whole one (no update_time).
// - list_nodes(): ONE `GET /slurm/v0.0.38/nodes` (slurm_rest.h's
//   parse_rest_nodes()); kUnavailable when it fails.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "backends/node_inventory.h"
#include "backends/slurm/slurm_rest.h"
#include "backends/slurm/slurm_transport.h"
#include "base/mutex.h"
#include "base/time.h"

namespace allot::slurm {

struct RestSettings {
  std::string url;    // http://host:port (slurmrestd's origin)
  std::string user;   // whose token `token` is
  std::string token;  // the JWT
  Duration timeout = Duration::seconds(30);
  // A token for another user (the owner of a job): unset, jobs with an owner
  // cannot be submitted.
  std::function<Result<std::string>(const std::string& user)> token_for;
  // Places a held job on its nodes and releases it (unset: kUnavailable).
  std::function<Status(const std::string& job_id, const std::string& nodelist)> placer;
  std::map<std::string, std::string> environment;  // the jobs' (v0.0.38 needs one)
  // How long Slurm's node names pin jobs (exclude_nodes) before they are read
  // again; keep it at most the inventory's poll interval (allotd's
  // --health-interval, 10 s by default; this default is not tied to it).
  Duration node_names_for = Duration::seconds(5);
  // How list_jobs() lists (e.g. squeue: a binary RPC, where GET /jobs is
  // every field of every job as JSON); unset: GET /jobs.
  std::function<Result<std::vector<SlurmJob>>()> list_jobs_by;
};

class RestTransport final : public SlurmTransport {
 public:
  explicit RestTransport(RestSettings settings) : settings_(std::move(settings)) {}
  [[nodiscard]] std::string name() const override { return "slurmrestd"; }
  Status check();
  Result<std::string> submit(const Submission& submission,
                             const std::optional<JobOwner>& owner) override;
  Status cancel(const std::string& job_id, CancelKind kind) override;
  Result<std::vector<SlurmJob>> list_jobs() override;
  Result<std::vector<InventoryNode>> list_nodes();

 private:
  struct Reply {
    int status = 0;
    std::string body;
    std::string date;  // the HTTP Date header (slurmrestd's clock); empty when none
  };
  struct Minted {
    std::string token;
    std::chrono::steady_clock::time_point until;
  };
  // method "GET", "POST", "DELETE"; `user` empty: the configured user.
  Result<Reply> exchange(const std::string& method, const std::string& path,
                         const std::string& body, const std::string& user);
  Result<std::string> token_of(const std::string& user);
  // Slurm's node names as last read (read again when older than
  // node_names_for, or at once with `reread`).
  std::vector<std::string> node_names(bool reread);
  // The job/submit request, pinned with node_names(reread) (read again at
  // once when a placed node is not among those kept).
  Result<RestSubmission> pinned(const Submission& submission, bool reread);

  RestSettings settings_;
  Mutex mu_;
  std::map<std::string, Minted> minted_ ALLOT_GUARDED_BY(mu_);
  std::vector<SlurmJob> listed_ ALLOT_GUARDED_BY(mu_);  // the last list_jobs()
  bool clock_in_answer_ ALLOT_GUARDED_BY(mu_) = false;  // the last /jobs told its time
  int64_t listed_at_ ALLOT_GUARDED_BY(mu_) = 0;  // slurmctld's time of it (epoch s); 0: unknown
  std::vector<std::string> node_names_ ALLOT_GUARDED_BY(mu_);
  std::chrono::steady_clock::time_point nodes_read_at_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot::slurm
