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
//   that must run on named nodes is submitted held, then `placer` (scontrol
//   update ReqNodeList, scontrol release: v0.0.38 cannot name nodes) places
//   and releases it; when that fails the held job is deleted and the error
//   returned (kUnavailable).
// - cancel(): `DELETE /slurm/v0.0.38/job/{id}` (kCancel: Slurm's default,
//   recorded CANCELLED), with `?signal=TERM|KILL` (every process of the job,
//   its batch script included).
// - list_jobs(): ONE `GET /slurm/v0.0.38/jobs`.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>

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

 private:
  struct Reply {
    int status = 0;
    std::string body;
  };
  struct Minted {
    std::string token;
    std::chrono::steady_clock::time_point until;
  };
  // method "GET", "POST", "DELETE"; `user` empty: the configured user.
  Result<Reply> exchange(const std::string& method, const std::string& path,
                         const std::string& body, const std::string& user);
  Result<std::string> token_of(const std::string& user);

  RestSettings settings_;
  Mutex mu_;
  std::map<std::string, Minted> minted_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot::slurm
