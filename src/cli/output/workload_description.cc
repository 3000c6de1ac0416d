#include "cli/output/workload_description.h"

#include <array>
#include <cctype>
#include <string_view>
#include <utility>

#include "cli/client/json_fields.h"
#include "cli/output/field_list.h"
#include "cli/output/human_time.h"
#include "cli/output/text_table.h"
#include "cli/output/workload_fields.h"

namespace allot::cli {
namespace {

using Json = nlohmann::json;

// An argument as a shell would need it: single-quoted when it holds anything
// but plain characters, so that "sh -c 'echo hi'" reads back as three words.
std::string shell_quoted(const std::string& word) {
  constexpr std::string_view kPlain =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%";
  if (!word.empty() && word.find_first_not_of(kPlain) == std::string::npos) return word;
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string command_line(const Json& list) {
  std::string out;
  for (const Json& item : list) {
    if (!out.empty()) out += ' ';
    out += shell_quoted(scalar_text(item));
  }
  return out;
}

std::string spec_section(const Json& workload) {
  const Json* spec_found = find_at(workload, {"spec"});
  const Json spec = spec_found != nullptr ? *spec_found : Json::object();
  FieldList fields;
  fields.add("Name", text_at(workload, {"metadata", "name"}));
  fields.add("Namespace", text_at(workload, {"metadata", "namespace"}));
  fields.add("UID", text_at(workload, {"metadata", "uid"}));
  fields.add("Team", workload_team(workload));
  fields.add_if_set("Submitted by", text_at(workload, {"status", "submittedBy"}));
  fields.add("Kind", text_at(spec, {"kind"}));
  fields.add("Priority class", text_at(spec, {"priorityClass"}));
  fields.add("Command", command_line(array_at(spec, "command")));
  const std::string max_runtime = text_at(spec, {"maxRuntimeSeconds"});
  fields.add("Max runtime", max_runtime.empty() ? "" : max_runtime + "s");
  fields.add("GPUs", std::to_string(requested_gpus(workload)));
  std::string out = fields.render();
  out += "Pod sets:\n";
  for (const Json& pod_set : array_at(spec, "podSets")) {
    const std::string count = text_at(pod_set, {"count"});
    const std::string flavor = text_at(pod_set, {"flavor"});
    const Json* resources = find_at(pod_set, {"resources"});
    out += "  " + text_at(pod_set, {"name"}) + ": " + (count.empty() ? "1" : count) + " pod(s) x " +
           resources_text(resources != nullptr ? *resources : Json()) +
           (flavor.empty() ? "" : " on " + flavor) + "\n";
  }
  return out;
}

std::string status_section(const Json& status) {
  FieldList fields;
  fields.add("Phase", text_at(status, {"phase"}));
  fields.add_if_set("Reason", text_at(status, {"reason"}));
  fields.add_if_set("Message", text_at(status, {"message"}));
  fields.add_if_set("Flavor", text_at(status, {"flavor"}));
  const std::string restarts = text_at(status, {"restarts"});
  fields.add("Restarts", restarts.empty() ? "0" : restarts);
  constexpr std::array<std::pair<const char*, const char*>, 7> kTimes = {{
      {"Created", "createdAt"},
      {"Queued", "queuedAt"},
      {"First admitted", "firstAdmittedAt"},
      {"Admitted", "admittedAt"},
      {"Started", "startedAt"},
      {"Finished", "finishedAt"},
      {"Last checkpoint", "lastCheckpointAt"},
  }};
  for (const auto& [label, key] : kTimes) {
    fields.add_if_set(label, text_at(status, {key}));
  }
  fields.add_if_set("Exit code", text_at(status, {"exitCode"}));
  fields.add_if_set("Preempted by", text_at(status, {"preemptedBy"}));
  if (text_at(status, {"stopping"}) == "true") fields.add("Stopping", "true");
  return "Status:\n" + fields.render(2);
}

std::string pods_section(const Json& status) {
  TextTable table({"POD SET", "POD", "NODE", "GPUS"}, TextTable::Alignment::kLeft);
  size_t rows = 0;
  for (const Json& pod_set : array_at(status, "podSets")) {
    size_t index = 0;
    for (const Json& pod : array_at(pod_set, "pods")) {
      std::vector<std::string> gpus;
      for (const Json& gpu : array_at(pod, "gpus")) gpus.push_back(scalar_text(gpu));
      table.add_row({text_at(pod_set, {"name"}), std::to_string(index++), text_at(pod, {"node"}),
                     join_or(gpus, "<none>")});
      ++rows;
    }
  }
  return rows == 0 ? "Pods:  <none>\n" : "Pods:\n" + indented(table.render(), 2);
}

// The backend's own view of the workload's job (Slurm: status.backend),
// beside allot's status and pods.
std::string backend_section(const Json& status) {
  const Json* backend = find_at(status, {"backend"});
  if (backend == nullptr || !backend->is_object()) return {};
  std::string kind = text_at(*backend, {"kind"});
  if (!kind.empty()) kind[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(kind[0])));
  FieldList fields;
  fields.add("Job id", text_at(*backend, {"jobId"}));
  fields.add_if_set("State", text_at(*backend, {"state"}));
  fields.add_if_set("Reason", text_at(*backend, {"reason"}));
  fields.add_if_set("Nodes", text_at(*backend, {"nodes"}));
  // Only when the backend runs the job elsewhere than allot placed it.
  fields.add_if_set("Placed by allot", text_at(*backend, {"placedNodes"}));
  return (kind.empty() ? std::string("Backend") : kind) + ":\n" + fields.render(2);
}

std::string waiting_section(const Json& status) {
  const Json* explanation = find_at(status, {"explanation"});
  if (explanation == nullptr || !explanation->is_object()) return {};
  FieldList fields;
  fields.add("Reason", text_at(*explanation, {"reason"}));
  fields.add("Message", text_at(*explanation, {"message"}));
  fields.add_if_set("Queue position", text_at(*explanation, {"queuePosition"}));
  const std::string start = text_at(*explanation, {"estimatedStart"});
  fields.add("Estimated start", start.empty() ? "unknown" : start);
  return "Waiting:\n" + fields.render(2);
}

std::string events_section(const Json& events, Timestamp now) {
  const Json& items = array_at(events, "items");
  if (items.empty()) return "Events:  <none>\n";
  TextTable table({"AGE", "TYPE", "REASON", "MESSAGE"}, TextTable::Alignment::kLeft);
  for (const Json& event : items) {
    table.add_row({age_of(find_at(event, {"time"}), now), text_at(event, {"type"}),
                   text_at(event, {"reason"}), text_at(event, {"message"})});
  }
  return "Events:\n" + indented(table.render(), 2);
}

}  // namespace

std::string describe_workload(const nlohmann::json& workload, const nlohmann::json& events,
                              Timestamp now) {
  const Json* status_found = find_at(workload, {"status"});
  const Json status = status_found != nullptr ? *status_found : Json::object();
  return spec_section(workload) + status_section(status) + pods_section(status) +
         backend_section(status) + waiting_section(status) + events_section(events, now);
}

}  // namespace allot::cli
