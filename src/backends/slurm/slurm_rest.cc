#include "backends/slurm/slurm_rest.h"

#include <charconv>

#include <nlohmann/json.hpp>

namespace allot::slurm {
namespace {

using Json = nlohmann::json;

Result<int64_t> rest_flag_number(std::string_view flag, std::string_view value) {
  int64_t out = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (error != std::errc() || end != value.data() + value.size()) {
    return invalid_argument("sbatch option " + std::string(flag) +
                            " is not a number: " + std::string(value));
  }
  return out;
}

// One "--name=value" (or "--name") of sbatch's argv into `job`.
Status rest_apply_flag(std::string_view name, std::string_view value, Json& job,
                       std::string& nodelist) {
  static const std::map<std::string_view, std::string_view> kStrings = {
      {"job-name", "name"},
      {"account", "account"},
      {"partition", "partition"},
      {"qos", "qos"},
      {"gres", "gres"},
      {"open-mode", "open_mode"},
      {"output", "standard_output"},
      {"chdir", "current_working_directory"}};
  static const std::map<std::string_view, std::string_view> kNumbers = {
      {"ntasks", "tasks"},
      {"ntasks-per-node", "tasks_per_node"},
      {"cpus-per-task", "cpus_per_task"},
      {"mem", "memory_per_node"}};
  if (const auto s = kStrings.find(name); s != kStrings.end()) {
    job[std::string(s->second)] = std::string(value);
    return Status::ok_status();
  }
  if (const auto n = kNumbers.find(name); n != kNumbers.end()) {
    ALLOT_ASSIGN_OR_RETURN(const int64_t number, rest_flag_number(name, value));
    job[std::string(n->second)] = number;
    return Status::ok_status();
  }
  if (name == "nodes") {
    ALLOT_ASSIGN_OR_RETURN(const int64_t nodes, rest_flag_number(name, value));
    job["nodes"] = Json::array({nodes, nodes});
  } else if (name == "time") {
    ALLOT_ASSIGN_OR_RETURN(const int64_t minutes, rest_flag_number(name, value));
    if (minutes > 0) job["time_limit"] = minutes;
  } else if (name == "nodelist") {
    nodelist = std::string(value);
  } else if (name == "no-requeue") {
    job["requeue"] = false;
  } else if (name != "parsable" && name != "uid" && name != "gid" && name != "export") {
    return invalid_argument("sbatch option --" + std::string(name) +
                            " has no slurmrestd v0.0.38 job property");
  }
  return Status::ok_status();
}

}  // namespace

Result<RestSubmission> rest_submission_of(const Submission& submission,
                                          const std::map<std::string, std::string>& environment) {
  Json job = Json::object();
  RestSubmission out;
  for (size_t i = 1; i < submission.argv.size(); ++i) {
    const std::string_view arg = submission.argv[i];
    if (!arg.starts_with("--")) continue;  // the script's path: its text goes in the body
    const size_t eq = arg.find('=');
    const std::string_view name = arg.substr(2, eq == std::string_view::npos ? eq : eq - 2);
    const std::string_view value =
        eq == std::string_view::npos ? std::string_view() : arg.substr(eq + 1);
    ALLOT_RETURN_IF_ERROR(rest_apply_flag(name, value, job, out.nodelist));
  }
  job["environment"] =
      environment.empty() ? Json::object({{"PATH", "/usr/bin:/bin"}}) : Json(environment);
  if (!out.nodelist.empty()) job["hold"] = true;
  out.body = Json{{"job", job}, {"script", submission.script}}.dump();
  return out;
}

std::string rest_errors_of(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("errors") || !parsed["errors"].is_array()) return "";
  std::string out;
  for (const Json& error : parsed["errors"]) {
    if (!error.is_object()) continue;
    std::string text = error.value("description", "");
    if (text.empty()) text = error.value("error", "");
    if (text.empty()) continue;
    out += (out.empty() ? "" : "; ") + text;
  }
  return out;
}

bool rest_refusal(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("errors") || !parsed["errors"].is_array()) {
    return false;
  }
  for (const Json& error : parsed["errors"]) {
    if (!error.is_object()) continue;
    for (const char* key : {"error_code", "error_number"}) {
      if (!error.contains(key) || !error[key].is_number_integer()) continue;
      const int64_t code = error[key].get<int64_t>();
      // ESLURM_* (2000s: an account, QoS, node, partition Slurm refuses) and
      // slurmrestd's own (9000s: a request it cannot parse); not the
      // transport's (1000s, 5000s sockets, 6000s credentials, -1).
      if ((code >= 2000 && code < 3000) || (code >= 9000 && code < 10000)) return true;
    }
  }
  return false;
}

Result<std::string> parse_rest_submitted(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_object() && parsed.contains("job_id") && parsed["job_id"].is_number_integer()) {
    return std::to_string(parsed["job_id"].get<int64_t>());
  }
  const std::string errors = rest_errors_of(body);
  return invalid_argument("slurmrestd did not submit the job: " +
                          (errors.empty() ? std::string("no job_id in its answer") : errors));
}

Result<std::vector<SlurmJob>> parse_rest_jobs(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("jobs") || !parsed["jobs"].is_array()) {
    return invalid_argument("slurmrestd's job list is not JSON with `jobs`");
  }
  std::vector<SlurmJob> out;
  for (const Json& job : parsed["jobs"]) {
    if (!job.is_object() || !job.contains("job_id") || !job["job_id"].is_number_integer()) {
      return invalid_argument("slurmrestd listed a job without a job_id");
    }
    SlurmJob j;
    j.id = std::to_string(job["job_id"].get<int64_t>());
    j.name = job.value("name", "");
    j.state = job.value("job_state", "");
    j.reason = job.value("state_reason", "");
    j.nodes = job.value("nodes", "");
    j.wait_status = job.value("exit_code", int64_t{0});
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace allot::slurm
