#include "backends/slurm/rest_transport.h"

#include <algorithm>

#include <httplib.h>

#include "backends/slurm/slurm_rest.h"

namespace allot::slurm {
namespace {

constexpr auto kMintedFor = std::chrono::minutes(30);  // half of a minted token's hour
// How long Slurm's node names pin a job (exclude_nodes) before they are read again.
constexpr auto kNodeNamesFor = std::chrono::seconds(60);

std::string rest_api_path(std::string_view rest) {
  return "/slurm/" + std::string(kRestApi) + "/" + std::string(rest);
}

std::string rest_reply_words(int status, const std::string& body) {
  const std::string errors = rest_errors_of(body);
  if (!errors.empty()) return "HTTP " + std::to_string(status) + ": " + errors;
  std::string text = body.substr(0, 200);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return "HTTP " + std::to_string(status) + (text.empty() ? "" : ": " + text);
}

}  // namespace

Result<std::string> RestTransport::token_of(const std::string& user) {
  if (user.empty() || user == settings_.user) return settings_.token;
  const auto now = std::chrono::steady_clock::now();
  {
    MutexLock lock(mu_);
    const auto found = minted_.find(user);
    if (found != minted_.end() && found->second.until > now) return found->second.token;
  }
  if (!settings_.token_for) {
    return Status(ErrorCode::kFailedPrecondition,
                  "no slurmrestd token for user " + user + " (only " + settings_.user + "'s)");
  }
  ALLOT_ASSIGN_OR_RETURN(std::string token, settings_.token_for(user));
  MutexLock lock(mu_);
  minted_[user] = Minted{token, now + kMintedFor};
  return token;
}

Result<RestTransport::Reply> RestTransport::exchange(const std::string& method,
                                                     const std::string& path,
                                                     const std::string& body,
                                                     const std::string& user) {
  const std::string name = user.empty() ? settings_.user : user;
  ALLOT_ASSIGN_OR_RETURN(const std::string token, token_of(name));
  httplib::Client client(settings_.url);
  const auto seconds = static_cast<time_t>(settings_.timeout.ms() / 1000);
  client.set_connection_timeout(seconds, 0);
  client.set_read_timeout(seconds, 0);
  client.set_write_timeout(seconds, 0);
  const httplib::Headers headers = {{"X-SLURM-USER-NAME", name}, {"X-SLURM-USER-TOKEN", token}};
  httplib::Result result = method == "POST" ? client.Post(path, headers, body, "application/json")
                           : method == "DELETE" ? client.Delete(path, headers)
                                                : client.Get(path, headers);
  if (!result) {
    return Status(ErrorCode::kUnavailable, "cannot reach slurmrestd at " + settings_.url + ": " +
                                               httplib::to_string(result.error()));
  }
  return Reply{result->status, result->body};
}

Status RestTransport::check() {
  const Result<Reply> reply = exchange("GET", rest_api_path("diag"), "", "");
  if (!reply.ok()) return Status(ErrorCode::kFailedPrecondition, reply.status().message());
  if (reply->status == 200 && rest_errors_of(reply->body).empty()) return Status::ok_status();
  const std::string words = rest_reply_words(reply->status, reply->body);
  std::string what;
  if (reply->status == 404) {
    what = "slurmrestd at " + settings_.url + " does not serve API " + std::string(kRestApi);
  } else if (reply->status == 401 || reply->status == 403) {
    what = "slurmrestd at " + settings_.url + " refused the token of user " + settings_.user;
  } else {
    what = "slurmrestd at " + settings_.url + " could not ask slurmctld with the token of user " +
           settings_.user + " (a wrong or expired token answers so)";
  }
  return Status(ErrorCode::kFailedPrecondition, what + " (" + words + ")");
}

Result<std::string> RestTransport::submit(const Submission& submission,
                                          const std::optional<JobOwner>& owner) {
  const bool placed_job =
      std::any_of(submission.argv.begin(), submission.argv.end(),
                  [](const std::string& a) { return a.starts_with("--nodelist="); });
  const std::vector<std::string> nodes = placed_job ? node_names() : std::vector<std::string>();
  ALLOT_ASSIGN_OR_RETURN(const RestSubmission rest,
                         rest_submission_of(submission, settings_.environment, nodes));
  const std::string user = owner ? owner->user : "";
  ALLOT_ASSIGN_OR_RETURN(const Reply reply,
                         exchange("POST", rest_api_path("job/submit"), rest.body, user));
  Result<std::string> id = parse_rest_submitted(reply.body);
  if (!id.ok() || reply.status != 200) {
    const ErrorCode code =
        rest_refusal(reply.body) ? ErrorCode::kFailedPrecondition : ErrorCode::kUnavailable;
    return Status(code,
                  "slurmrestd refused the job: " + rest_reply_words(reply.status, reply.body));
  }
  if (!rest.held) return id;
  Status placed = settings_.placer
                      ? settings_.placer(*id, rest.nodelist)
                      : Status(ErrorCode::kUnavailable, "no way to place a held job on its nodes");
  if (!placed.ok()) {
    (void)cancel(*id, CancelKind::kCancel);
    return Status(ErrorCode::kUnavailable,
                  "cannot place job " + *id + " on " + rest.nodelist + ": " + placed.message());
  }
  return id;
}

Status RestTransport::cancel(const std::string& job_id, CancelKind kind) {
  std::string path = rest_api_path("job/" + job_id);
  if (kind == CancelKind::kTerm) path += "?signal=TERM";
  if (kind == CancelKind::kKill) path += "?signal=KILL";
  ALLOT_ASSIGN_OR_RETURN(const Reply reply, exchange("DELETE", path, "", ""));
  if (reply.status != 200) {
    return Status(ErrorCode::kUnavailable, "slurmrestd did not cancel job " + job_id + ": " +
                                               rest_reply_words(reply.status, reply.body));
  }
  return Status::ok_status();
}

Result<std::vector<SlurmJob>> RestTransport::list_jobs() {
  if (settings_.list_jobs_by) return settings_.list_jobs_by();
  std::string path = rest_api_path("jobs");
  {
    MutexLock lock(mu_);
    // slurmctld's job table unchanged since a second before the last list: 304.
    if (listed_at_ > 0) path += "?update_time=" + std::to_string(listed_at_ - 1);
  }
  const int64_t asked_at = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch())
                               .count();
  ALLOT_ASSIGN_OR_RETURN(const Reply reply, exchange("GET", path, "", ""));
  if (reply.status == 304) {
    MutexLock lock(mu_);
    if (listed_at_ > 0) return listed_;
  }
  if (reply.status != 200) {
    return Status(ErrorCode::kUnavailable, "slurmrestd did not list Slurm's jobs: " +
                                               rest_reply_words(reply.status, reply.body));
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<SlurmJob> jobs, parse_rest_jobs(reply.body));
  MutexLock lock(mu_);
  listed_ = jobs;
  listed_at_ = asked_at;
  return jobs;
}

Result<std::vector<InventoryNode>> RestTransport::list_nodes() {
  ALLOT_ASSIGN_OR_RETURN(const Reply reply, exchange("GET", rest_api_path("nodes"), "", ""));
  if (reply.status != 200) {
    return Status(ErrorCode::kUnavailable, "slurmrestd did not list Slurm's nodes: " +
                                               rest_reply_words(reply.status, reply.body));
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<InventoryNode> nodes, parse_rest_nodes(reply.body));
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const InventoryNode& node : nodes) names.push_back(node.name.str());
  MutexLock lock(mu_);
  node_names_ = std::move(names);
  nodes_read_at_ = std::chrono::steady_clock::now();
  return nodes;
}

std::vector<std::string> RestTransport::node_names() {
  {
    MutexLock lock(mu_);
    if (!node_names_.empty() && std::chrono::steady_clock::now() - nodes_read_at_ < kNodeNamesFor) {
      return node_names_;
    }
  }
  (void)list_nodes();  // unknown nodes: the job is held and placed with scontrol
  MutexLock lock(mu_);
  return node_names_;
}

}  // namespace allot::slurm
