#include "backends/slurm/slurm_rest.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "backends/slurm/sbatch_flags.h"
#include "backends/slurm/slurm_nodes.h"

namespace allot::slurm {
namespace {

using Json = nlohmann::json;

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
      {"chdir", "current_working_directory"},
      {"dependency", "dependency"}};
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
    ALLOT_ASSIGN_OR_RETURN(const int64_t number, sbatch_flag_number(name, value));
    job[std::string(n->second)] = number;
    return Status::ok_status();
  }
  if (name == "nodes") {
    ALLOT_ASSIGN_OR_RETURN(const int64_t nodes, sbatch_flag_number(name, value));
    job["nodes"] = Json::array({nodes, nodes});
  } else if (name == "time") {
    ALLOT_ASSIGN_OR_RETURN(const int64_t minutes, sbatch_flag_number(name, value));
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

// Every node of `slurm_nodes` not in `nodelist` (comma-joined); nullopt when
// a node of `nodelist` is not among them (or they are unknown).
std::optional<std::string> rest_excluded_nodes(const std::string& nodelist,
                                               const std::vector<std::string>& slurm_nodes) {
  std::set<std::string> placed;
  for (size_t start = 0; start <= nodelist.size();) {
    const size_t comma = std::min(nodelist.find(',', start), nodelist.size());
    if (comma > start) placed.insert(nodelist.substr(start, comma - start));
    start = comma + 1;
  }
  const std::set<std::string> known(slurm_nodes.begin(), slurm_nodes.end());
  for (const std::string& node : placed) {
    if (!known.contains(node)) return std::nullopt;
  }
  std::string out;
  for (const std::string& node : known) {
    if (!placed.contains(node)) out += (out.empty() ? "" : ",") + node;
  }
  return out;
}

std::string rest_upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string rest_number_text(const Json& node, const char* key) {
  const auto found = node.find(key);
  return found != node.end() && found->is_number_integer() ? std::to_string(found->get<int64_t>())
                                                           : std::string();
}

// `object[key]` when it is a string; else (absent, null, a number...) `fallback`.
std::string rest_string_field(const Json& object, const char* key,
                              const std::string& fallback = "") {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : fallback;
}

// `object[key]` when it is an integer, or v0.0.39+'s {"set": true, "number": n}.
std::optional<int64_t> rest_integer_field(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end()) return std::nullopt;
  if (found->is_number_integer()) return found->get<int64_t>();
  if (found->is_object()) {
    const auto number = found->find("number");
    if (number != found->end() && number->is_number_integer()) return number->get<int64_t>();
  }
  return std::nullopt;
}

}  // namespace

Result<std::vector<InventoryNode>> parse_rest_nodes(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("nodes") || !parsed["nodes"].is_array()) {
    return invalid_argument("slurmrestd's node list is not JSON with `nodes`");
  }
  std::vector<InventoryNode> out;
  for (const Json& node : parsed["nodes"]) {
    if (!node.is_object() || !node.contains("name") || !node["name"].is_string()) {
      return invalid_argument("slurmrestd listed a node without a name");
    }
    std::string state = rest_upper(rest_string_field(node, "state", "unknown"));
    if (const auto flags = node.find("state_flags"); flags != node.end() && flags->is_array()) {
      for (const Json& flag : *flags) {
        if (flag.is_string()) state += "+" + flag.get<std::string>();
      }
    }
    const std::map<std::string, std::string> fields = {
        {"NodeName", node["name"].get<std::string>()},
        {"CPUTot", rest_number_text(node, "cpus")},
        {"RealMemory", rest_number_text(node, "real_memory")},
        {"Gres", rest_string_field(node, "gres")},
        {"AvailableFeatures", rest_string_field(node, "features")},
        {"State", state},
        {"Reason", rest_string_field(node, "reason")}};
    ALLOT_ASSIGN_OR_RETURN(InventoryNode read, node_of_scontrol_fields(fields));
    out.push_back(std::move(read));
  }
  std::sort(out.begin(), out.end(), [](const InventoryNode& a, const InventoryNode& b) {
    return a.name.str() < b.name.str();
  });
  return out;
}

Result<RestSubmission> rest_submission_of(const Submission& submission,
                                          const std::map<std::string, std::string>& environment,
                                          const std::vector<std::string>& slurm_nodes) {
  Json job = Json::object();
  RestSubmission out;
  // The script's path is not a flag: its text goes in the body.
  for (const SbatchFlag& flag : sbatch_flags(submission.argv)) {
    ALLOT_RETURN_IF_ERROR(rest_apply_flag(flag.name, flag.value, job, out.nodelist));
  }
  job["environment"] =
      environment.empty() ? Json::object({{"PATH", "/usr/bin:/bin"}}) : Json(environment);
  if (!out.nodelist.empty()) {
    const std::optional<std::string> excluded = rest_excluded_nodes(out.nodelist, slurm_nodes);
    out.held = !excluded;
    if (out.held) {
      job["hold"] = true;
    } else if (!excluded->empty()) {
      job["exclude_nodes"] = *excluded;
    }
  }
  out.body = Json{{"job", job}, {"script", submission.script}}.dump();
  return out;
}

std::string rest_errors_of(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("errors") || !parsed["errors"].is_array()) return "";
  std::string out;
  for (const Json& error : parsed["errors"]) {
    if (!error.is_object()) continue;
    std::string text = rest_string_field(error, "description");
    if (text.empty()) text = rest_string_field(error, "error");
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

bool rest_unknown_node(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object() || !parsed.contains("errors") || !parsed["errors"].is_array()) {
    return false;
  }
  for (const Json& error : parsed["errors"]) {
    if (!error.is_object()) continue;
    for (const char* key : {"error_code", "error_number"}) {
      if (rest_integer_field(error, key) == kRestInvalidNodeName) return true;
    }
    std::string text =
        rest_string_field(error, "description") + " " + rest_string_field(error, "error");
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (text.find("invalid node name") != std::string::npos) return true;
  }
  return false;
}

std::optional<int64_t> parse_rest_http_date(std::string_view date) {
  std::tm parts{};
  const std::string text(date);
  const char* end = ::strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &parts);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return static_cast<int64_t>(::timegm(&parts));
}

std::optional<int64_t> parse_rest_last_update(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  return rest_integer_field(parsed, "last_update");
}

std::optional<int64_t> parse_rest_diag_time(std::string_view body) {
  const Json parsed = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return std::nullopt;
  const auto statistics = parsed.find("statistics");
  if (statistics == parsed.end() || !statistics->is_object()) return std::nullopt;
  return rest_integer_field(*statistics, "req_time");
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
    j.name = rest_string_field(job, "name");
    j.state = rest_string_field(job, "job_state");
    j.reason = rest_string_field(job, "state_reason");
    j.nodes = rest_string_field(job, "nodes");
    j.wait_status = rest_integer_field(job, "exit_code").value_or(0);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace allot::slurm
