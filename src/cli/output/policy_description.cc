#include "cli/output/policy_description.h"

#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/client/json_fields.h"
#include "cli/output/field_list.h"
#include "cli/output/json_yaml.h"
#include "cli/output/text_table.h"
#include "cli/output/workload_fields.h"

namespace allot::cli {
namespace {

using Json = nlohmann::json;

const Json& object_at(const Json& value, std::string_view key) {
  static const Json kEmpty = Json::object();
  const Json* found = find_at(value, {key});
  return found != nullptr && found->is_object() ? *found : kEmpty;
}

std::string none_if_empty(const std::string& text) { return text.empty() ? "<none>" : text; }

std::string quota_table(const Json& spec) {
  TextTable table({"FLAVOR", "RESOURCE", "NOMINAL", "BORROWINGLIMIT", "LENDINGLIMIT"},
                  TextTable::Alignment::kLeft);
  size_t rows = 0;
  for (const Json& entry : array_at(spec, "quota")) {
    for (const auto& [resource, limits] : object_at(entry, "resources").items()) {
      table.add_row({text_at(entry, {"flavor"}), resource, text_at(limits, {"nominal"}),
                     none_if_empty(text_at(limits, {"borrowingLimit"})),
                     none_if_empty(text_at(limits, {"lendingLimit"}))});
      ++rows;
    }
  }
  return rows == 0 ? "Quota:  <none>\n" : "Quota:\n" + indented(table.render(), 2);
}

void add_usage_row(TextTable& table, const std::string& flavor, const std::string& resource,
                   const Json& amounts) {
  table.add_row({flavor, resource, text_at(amounts, {"nominal"}), text_at(amounts, {"usage"}),
                 text_at(amounts, {"borrowed"}), text_at(amounts, {"lent"})});
}

// Rows of the usage table found anywhere one level under status (see the
// header); returns how many were added.
size_t add_usage_rows(TextTable& table, const Json& status) {
  size_t rows = 0;
  for (const auto& [key, value] : status.items()) {
    if (!value.is_array()) continue;
    for (const Json& entry : value) {
      const std::string flavor = text_at(entry, {"flavor"});
      if (flavor.empty()) continue;
      if (const std::string resource = text_at(entry, {"resource"}); !resource.empty()) {
        add_usage_row(table, flavor, resource, entry);
        ++rows;
        continue;
      }
      for (const auto& [resource, amounts] : object_at(entry, "resources").items()) {
        add_usage_row(table, flavor, resource, amounts);
        ++rows;
      }
    }
  }
  return rows;
}

// A workload count: status.<key> (or <key>Workloads), else the first usage
// row's <key> (allotd repeats the team's counts on each of its rows).
std::string count_text(const Json& status, const std::string& key) {
  for (const std::string& name : {key, key + "Workloads"}) {
    if (std::string text = text_at(status, {name}); !text.empty()) return text;
  }
  for (const auto& [field, value] : status.items()) {
    if (!value.is_array()) continue;
    for (const Json& row : value) {
      if (std::string text = text_at(row, {key}); !text.empty()) return text;
    }
  }
  return "0";
}

std::string usage_section(const Json& status) {
  FieldList counts;
  counts.add("Pending workloads", count_text(status, "pending"));
  counts.add("Admitted workloads", count_text(status, "admitted"));
  TextTable table({"FLAVOR", "RESOURCE", "NOMINAL", "USAGE", "BORROWED", "LENT"},
                  TextTable::Alignment::kLeft);
  const size_t rows = add_usage_rows(table, status);
  return counts.render() +
         (rows == 0 ? "Usage:  <none>\n" : "Usage:\n" + indented(table.render(), 2));
}

}  // namespace

std::string describe_team(const nlohmann::json& team) {
  const Json& spec = object_at(team, "spec");
  const std::string name = text_at(team, {"metadata", "name"});
  const std::string namespace_name = text_at(spec, {"namespace"});
  FieldList fields;
  fields.add("Name", name);
  fields.add("Namespace", namespace_name.empty() ? name : namespace_name);
  fields.add("Cohort", text_at(spec, {"cohort"}));
  const std::string weight = text_at(spec, {"fairShareWeight"});
  fields.add("Fair share weight", weight.empty() ? "1" : weight);
  std::vector<std::string> classes;
  for (const Json& item : array_at(spec, "allowedPriorityClasses")) {
    classes.push_back(scalar_text(item));
  }
  fields.add("Priority classes", join_or(classes, "<any>", ", "));
  return fields.render() + quota_table(spec) + usage_section(object_at(team, "status"));
}

std::string describe_node(const nlohmann::json& node) {
  FieldList fields;
  fields.add("Name", text_at(node, {"name"}));
  for (const auto& [label, key] : {std::pair<const char*, const char*>{"Pool", "pool"},
                                   std::pair<const char*, const char*>{"Flavor", "flavor"},
                                   std::pair<const char*, const char*>{"Rack", "rack"},
                                   std::pair<const char*, const char*>{"Block", "block"},
                                   std::pair<const char*, const char*>{"Healthy", "healthy"},
                                   std::pair<const char*, const char*>{"Cordoned", "cordoned"}}) {
    fields.add(label, text_at(node, {key}));
  }
  fields.add_if_set("Reason", text_at(node, {"reason"}));
  fields.add_if_set("Last heartbeat", text_at(node, {"lastHeartbeat"}));
  // The backend's own view of the node (Slurm's state and reason).
  fields.add_if_set("Backend state", text_at(node, {"backend", "state"}));
  fields.add_if_set("Backend reason", text_at(node, {"backend", "reason"}));
  TextTable table({"RESOURCE", "CAPACITY", "ALLOCATED"}, TextTable::Alignment::kLeft);
  for (const char* resource : {"gpu", "cpu", "memory"}) {
    const std::string allocated = text_at(node, {"allocated", resource});
    table.add_row(
        {resource, text_at(node, {"capacity", resource}), allocated.empty() ? "0" : allocated});
  }
  std::string out = fields.render() + "Resources:\n" + indented(table.render(), 2);
  const Json& workloads = array_at(node, "workloads");
  out += workloads.empty() ? "Workloads:  <none>\n" : "Workloads:\n";
  for (const Json& workload : workloads) out += "  " + scalar_text(workload) + "\n";
  // Its health changes as allotd's health checks saw them, newest first.
  const Json& history = array_at(node, "healthHistory");
  if (history.empty()) return out;
  TextTable changes({"AT", "HEALTH", "REASON"}, TextTable::Alignment::kLeft);
  for (const Json& change : history) {
    changes.add_row({text_at(change, {"at"}),
                     text_at(change, {"healthy"}) == "true" ? "healthy" : "unhealthy",
                     text_at(change, {"reason"})});
  }
  return out + "Health history:\n" + indented(changes.render(), 2);
}

std::string describe_policy_object(const nlohmann::json& object) {
  FieldList fields;
  fields.add("Name", text_at(object, {"metadata", "name"}));
  if (const std::string ns = text_at(object, {"metadata", "namespace"}); !ns.empty()) {
    fields.add("Namespace", ns);
  }
  fields.add("Kind", text_at(object, {"kind"}));
  std::string out = fields.render();
  // The RBAC kinds have no spec: their fields sit at the top level.
  using Section = std::pair<const char*, const char*>;
  for (const auto& [label, key] :
       {Section{"Spec", "spec"}, Section{"Rules", "rules"},
        Section{"AggregationRule", "aggregationRule"}, Section{"RoleRef", "roleRef"},
        Section{"Subjects", "subjects"}, Section{"Status", "status"}}) {
    const Json* section = find_at(object, {key});
    if (section == nullptr || section->is_null()) continue;
    out += std::string(label) + ":\n" + indented(json_to_yaml(*section), 2);
  }
  return out;
}

std::string describe_signal_history(const Json& history) {
  TextTable table({"AT", "EVENT", "SERIES", "DELIVERED"}, TextTable::Alignment::kLeft);
  size_t rows = 0;
  for (const Json& event : array_at(history, "items")) {
    std::string series;
    for (const Json& match : array_at(event, "series")) {
      std::string labels;
      for (const auto& [label, value] : object_at(match, "labels").items()) {
        labels += (labels.empty() ? "" : ",") + label + "=" +
                  (value.is_string() ? value.get<std::string>() : value.dump());
      }
      series += (series.empty() ? "" : "; ") + labels + " " + text_at(match, {"value"});
    }
    const std::string webhook = text_at(event, {"webhook"});
    const bool delivered = event.value("delivered", false);
    table.add_row({text_at(event, {"at"}), text_at(event, {"event"}), none_if_empty(series),
                   webhook.empty() ? "-" : (delivered ? "yes" : "no")});
    ++rows;
  }
  return rows == 0 ? "History:  <none>\n" : "History:\n" + indented(table.render(), 2);
}

}  // namespace allot::cli
