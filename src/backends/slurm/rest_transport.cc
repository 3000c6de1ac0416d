#include "backends/slurm/rest_transport.h"

#include <algorithm>

#include <httplib.h>

#include "backends/slurm/slurm_rest.h"

namespace allot::slurm {
namespace {

constexpr auto kMintedFor = std::chrono::minutes(30);  // half of a minted token's hour
// update_time is slurmctld's time of the last list less this margin (its
// last_update, the answer's Date or /diag's req_time, in whole seconds).
constexpr int64_t kUpdateTimeMargin = 2;

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
  return Reply{result->status, result->body, result->get_header_value("Date")};
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

Result<RestSubmission> RestTransport::pinned(const Submission& submission, bool reread) {
  const bool placed_job =
      std::any_of(submission.argv.begin(), submission.argv.end(),
                  [](const std::string& a) { return a.starts_with("--nodelist="); });
  if (!placed_job) return rest_submission_of(submission, settings_.environment);
  ALLOT_ASSIGN_OR_RETURN(RestSubmission rest,
                         rest_submission_of(submission, settings_.environment, node_names(reread)));
  if (!rest.held || reread) return rest;
  // A placed node not among the names kept: read them again at once.
  return rest_submission_of(submission, settings_.environment, node_names(true));
}

Result<std::string> RestTransport::submit(const Submission& submission,
                                          const std::optional<JobOwner>& owner) {
  const std::string user = owner ? owner->user : "";
  const std::string path = rest_api_path("job/submit");
  ALLOT_ASSIGN_OR_RETURN(RestSubmission rest, pinned(submission, /*reread=*/false));
  ALLOT_ASSIGN_OR_RETURN(Reply reply, exchange("POST", path, rest.body, user));
  // Slurm refused a node of exclude_nodes (one it no longer has): read its
  // names again and submit once more; refused again, the job goes held.
  for (int retry = 0; retry < 2 && !rest.nodelist.empty() && !rest.held && reply.status != 200 &&
                      rest_unknown_node(reply.body);
       ++retry) {
    if (retry == 0) {
      ALLOT_ASSIGN_OR_RETURN(rest, pinned(submission, /*reread=*/true));
    } else {
      ALLOT_ASSIGN_OR_RETURN(rest, rest_submission_of(submission, settings_.environment, {}));
    }
    ALLOT_ASSIGN_OR_RETURN(reply, exchange("POST", path, rest.body, user));
  }
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
  bool clock_in_answer = false;
  {
    MutexLock lock(mu_);
    clock_in_answer = clock_in_answer_;
    // slurmctld's job table unchanged since (its own clock) the last list: 304.
    if (listed_at_ > 0) {
      path += "?update_time=" + std::to_string(listed_at_ - kUpdateTimeMargin);
    }
  }
  // v0.0.38 (22.05) tells no time with /jobs: slurmctld's is asked first
  // (diag's req_time), so that the list read after it holds every change
  // made before it.
  std::optional<int64_t> diag_time;
  if (!clock_in_answer) {
    const Result<Reply> diag = exchange("GET", rest_api_path("diag"), "", "");
    if (diag.ok() && diag->status == 200) diag_time = parse_rest_diag_time(diag->body);
  }
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
  std::optional<int64_t> server_time = parse_rest_last_update(reply.body);
  if (!server_time) server_time = parse_rest_http_date(reply.date);
  MutexLock lock(mu_);
  clock_in_answer_ = server_time.has_value();
  if (!server_time) server_time = diag_time;
  listed_ = jobs;
  listed_at_ = server_time.value_or(0);  // 0: slurmctld's time unknown, the next list is whole
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

std::vector<std::string> RestTransport::node_names(bool reread) {
  if (!reread) {
    MutexLock lock(mu_);
    const auto kept_for = std::chrono::milliseconds(settings_.node_names_for.ms());
    if (!node_names_.empty() && std::chrono::steady_clock::now() - nodes_read_at_ < kept_for) {
      return node_names_;
    }
  }
  (void)list_nodes();  // unknown nodes: the job is held and placed with scontrol
  MutexLock lock(mu_);
  return node_names_;
}

}  // namespace allot::slurm
