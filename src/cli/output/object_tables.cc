#include "cli/output/object_tables.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "api/rfc3339.h"
#include "cli/client/json_fields.h"
#include "cli/output/human_time.h"
#include "cli/output/text_table.h"
#include "cli/output/workload_fields.h"

namespace allot::cli {
namespace {

using Row = std::vector<std::string>;
using Json = nlohmann::json;

std::string name_of(const Json& item) {
  std::string name = text_at(item, {"metadata", "name"});
  return name.empty() ? text_at(item, {"name"}) : name;
}

std::string or_none(const std::string& text) { return text.empty() ? "<none>" : text; }

const Json& spec_of(const Json& item) {
  static const Json kEmpty = Json::object();
  const Json* spec = find_at(item, {"spec"});
  return spec != nullptr ? *spec : kEmpty;
}

Row workload_row(const Json& item, bool wide, Timestamp now) {
  const Json* created = find_at(item, {"status", "createdAt"});
  if (created == nullptr || created->is_null()) {
    created = find_at(item, {"metadata", "creationTimestamp"});
  }
  Row row = {name_of(item),
             text_at(item, {"metadata", "namespace"}),
             workload_team(item),
             or_none(text_at(item, {"status", "phase"})),
             std::to_string(requested_gpus(item)),
             age_of(created, now)};
  if (wide) {
    row.push_back(or_none(text_at(item, {"status", "submittedBy"})));
    row.push_back(or_none(text_at(item, {"spec", "priorityClass"})));
    row.push_back(or_none(text_at(item, {"status", "flavor"})));
    row.push_back(join_or(placed_nodes(item), "<none>"));
    const std::string restarts = text_at(item, {"status", "restarts"});
    row.push_back(restarts.empty() ? "0" : restarts);
    row.push_back(or_none(text_at(item, {"status", "reason"})));
  }
  return row;
}

Row team_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  std::string namespace_name = text_at(spec, {"namespace"});
  Row row = {name_of(item), namespace_name.empty() ? name_of(item) : namespace_name,
             or_none(text_at(spec, {"cohort"})), or_none(quota_summary(array_at(spec, "quota")))};
  if (wide) {
    const std::string weight = text_at(spec, {"fairShareWeight"});
    row.push_back(weight.empty() ? "1" : weight);
    std::vector<std::string> classes;
    for (const Json& name : array_at(spec, "allowedPriorityClasses")) {
      classes.push_back(scalar_text(name));
    }
    row.push_back(join_or(classes, "<any>"));
  }
  return row;
}

std::string used_of(const Json& item, const char* resource) {
  const std::string capacity = text_at(item, {"capacity", resource});
  std::string allocated = text_at(item, {"allocated", resource});
  if (allocated.empty()) allocated = "0";
  return allocated + "/" + (capacity.empty() ? "0" : capacity);
}

Row node_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json* healthy = find_at(item, {"healthy"});
  const Json* cordoned = find_at(item, {"cordoned"});
  std::string status =
      healthy != nullptr && healthy->is_boolean() && !healthy->get<bool>() ? "NotReady" : "Ready";
  if (cordoned != nullptr && cordoned->is_boolean() && cordoned->get<bool>()) {
    status += ",SchedulingDisabled";
  }
  Row row = {name_of(item),
             or_none(text_at(item, {"pool"})),
             or_none(text_at(item, {"flavor"})),
             status,
             used_of(item, "gpu"),
             std::to_string(array_at(item, "workloads").size())};
  if (wide) {
    row.push_back(or_none(text_at(item, {"rack"})));
    row.push_back(or_none(text_at(item, {"block"})));
    row.push_back(used_of(item, "cpu"));
    row.push_back(used_of(item, "memory"));
    row.push_back(or_none(text_at(item, {"reason"})));
  }
  return row;
}

Row cohort_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  const std::string weight = text_at(spec, {"fairShareWeight"});
  Row row = {name_of(item), or_none(text_at(spec, {"parent"})), weight.empty() ? "1" : weight};
  if (wide) row.push_back(or_none(quota_summary(array_at(spec, "quota"))));
  return row;
}

Row priority_class_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  const std::string policy = text_at(spec, {"preemptionPolicy"});
  Row row = {name_of(item), text_at(spec, {"value"}),
             policy.empty() ? "PreemptLowerPriority" : policy};
  if (wide) {
    const std::string min_runtime = text_at(spec, {"minRuntimeSeconds"});
    row.push_back(min_runtime.empty() ? "0" : min_runtime);
    row.push_back(or_none(text_at(spec, {"preemptionGracePeriod"})));
  }
  return row;
}

std::string money(const Json* value) {
  if (value == nullptr || !value->is_number()) return "";
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value->get<double>());
  return text;
}

// A Budget with its standing (status, once evaluated): spent, the fraction
// used, and the forecast day it runs out at the current burn.
Row budget_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  const Json* period = find_at(spec, {"period"});
  const std::string period_text =
      period == nullptr ? "monthly" : (period->is_object() ? "fixed" : scalar_text(*period));
  const std::string currency = text_at(spec, {"currency"});
  const Json* used = find_at(item, {"status", "used"});
  const std::string runs_out = text_at(item, {"status", "runsOut"});
  const std::string project = text_at(spec, {"project"});
  Row row = {name_of(item),
             project.empty() ? text_at(spec, {"team"}) : "project " + project,
             period_text,
             text_at(spec, {"amount"}) + " " + currency,
             or_none(money(find_at(item, {"status", "spent"}))),
             used != nullptr && used->is_number()
                 ? std::to_string(std::lround(used->get<double>() * 100)) + "%"
                 : "<none>",
             text_at(spec, {"action"}).empty() ? "alert" : text_at(spec, {"action"}),
             or_none(runs_out.substr(0, 10))};
  if (wide) {
    row.push_back(or_none(text_at(item, {"status", "from"})));
    row.push_back(or_none(text_at(item, {"status", "to"})));
    row.push_back(or_none(text_at(item, {"status", "problem"})));
  }
  return row;
}

// A Signal with its state (status, once allotd evaluated it): inactive,
// pending (the condition holds, not yet for `for`) or firing, and since when.
Row signal_row(const Json& item, bool wide, Timestamp now) {
  const Json& spec = spec_of(item);
  const Json* since = find_at(item, {"status", "since"});
  Row row = {name_of(item), or_none(text_at(item, {"status", "state"})),
             since != nullptr && since->is_string() ? age_of(since, now) : "<none>",
             text_at(spec, {"owner"}), or_none(text_at(spec, {"for"}))};
  if (wide) {
    row.push_back(text_at(spec, {"expression"}));
    row.push_back(or_none(text_at(item, {"status", "firingSeries"})));
    row.push_back(or_none(text_at(spec, {"webhook"})));
  }
  return row;
}

// The Organization: its data classifications, lowest first.
Row organization_row(const Json& item, bool /*wide*/, Timestamp /*now*/) {
  std::vector<std::string> levels;
  const Json* list = find_at(spec_of(item), {"dataClassifications"});
  if (list != nullptr && list->is_array()) {
    for (const Json& level : *list)
      levels.push_back(level.is_string() ? level.get<std::string>() : "");
  }
  return {name_of(item), join_or(levels, "<none>", ",")};
}

// A Contract: its project, phase (status.phase), classification and, wide, its
// cluster and when its next review is due.
Row contract_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  Row row = {name_of(item), text_at(spec, {"project"}), or_none(text_at(item, {"status", "phase"})),
             text_at(spec, {"dataClassification"})};
  if (wide) {
    row.push_back(text_at(spec, {"cluster", "name"}));
    row.push_back(or_none(text_at(item, {"status", "reviewDue"})));
  }
  return row;
}

std::string map_text(const Json* map) {
  if (map == nullptr || !map->is_object()) return {};
  std::vector<std::string> pairs;
  for (const auto& [key, value] : map->items()) pairs.push_back(key + "=" + scalar_text(value));
  return join_or(pairs, "");
}

// A PolicyException: its team, what it relaxes, owner, approver, expiry and
// its state at `now` (Requested, Rejected, Expired: requested or approved,
// past its expiry, as the server's status.phase says; Active while approved
// and before its expiry, on the local clock too); wide, its reason.
Row exception_row(const Json& item, bool wide, Timestamp now) {
  const Json& spec = spec_of(item);
  std::string relaxes;
  const Json* what = find_at(spec, {"relaxes"});
  if (what != nullptr && what->is_object() && !what->empty()) {
    const auto first = what->begin();
    const std::string& key = first.key();
    const Json& value = first.value();
    relaxes = key == "quota" ? "quota " + text_at(value, {"flavor"}) + " +" +
                                   map_text(find_at(value, {"resources"}))
                             : key + " " + scalar_text(value);
  }
  const std::string expires = text_at(spec, {"expires"});
  const Result<Timestamp> at = parse_rfc3339(expires);
  const std::string phase = text_at(item, {"status", "phase"});
  std::string state = !at.ok() ? "<unknown>" : now < *at ? "Active" : "Expired";
  if (phase == "Requested" || phase == "Rejected" || phase == "Expired") state = phase;
  Row row = {name_of(item),
             text_at(spec, {"team"}),
             relaxes,
             text_at(spec, {"owner"}),
             text_at(spec, {"approver"}),
             expires,
             state};
  if (wide) row.push_back(text_at(spec, {"reason"}));
  return row;
}

Row flavor_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  Row row = {name_of(item), or_none(map_text(find_at(spec, {"nodeLabels"})))};
  if (wide) row.push_back(or_none(map_text(find_at(spec, {"price"}))));
  return row;
}

Row node_pool_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  Row row = {name_of(item),
             or_none(text_at(spec, {"cluster"})),
             or_none(text_at(spec, {"flavor"})),
             text_at(spec, {"count"}),
             text_at(spec, {"resources", "gpu"}),
             text_at(spec, {"resources", "cpu"}),
             text_at(spec, {"resources", "memory"})};
  if (wide) row.push_back(or_none(map_text(find_at(spec, {"topology"}))));
  return row;
}

Row cluster_row(const Json& item, bool wide, Timestamp /*now*/) {
  const Json& spec = spec_of(item);
  Row row = {name_of(item), or_none(text_at(spec, {"backend"})),
             or_none(text_at(spec, {"region"}))};
  if (wide) {
    row.push_back(or_none(text_at(spec, {"account"})));
    const std::string fair = text_at(spec, {"scheduling", "fairSharing"});
    row.push_back(fair.empty() ? "false" : fair);
    row.push_back(or_none(text_at(spec, {"scheduling", "cycle"})));
  }
  return row;
}

// "RULES" of a role: how many rules; wide: every resource they name.
Row role_row(const Json& item, bool wide, bool namespaced) {
  Row row = {name_of(item)};
  if (namespaced) row.push_back(text_at(item, {"metadata", "namespace"}));
  const Json& rules = array_at(item, "rules");
  row.push_back(std::to_string(rules.size()));
  if (!namespaced) {
    row.push_back(text_at(item, {"metadata", "labels", "allot.dev/builtin"}) == "true" ? "yes"
                                                                                       : "no");
  }
  if (wide) {
    std::vector<std::string> resources;
    for (const Json& rule : rules) {
      for (const Json& resource : array_at(rule, "resources"))
        resources.push_back(scalar_text(resource));
      for (const Json& url : array_at(rule, "nonResourceURLs"))
        resources.push_back(scalar_text(url));
    }
    row.push_back(join_or(resources, "<none>", ","));
  }
  return row;
}

// "ClusterRole/team-member", and the subjects as "Group/ml, User/ana, ServiceAccount/ns/ci".
Row binding_row(const Json& item, bool namespaced) {
  Row row = {name_of(item)};
  if (namespaced) row.push_back(text_at(item, {"metadata", "namespace"}));
  row.push_back(text_at(item, {"roleRef", "kind"}) + "/" + text_at(item, {"roleRef", "name"}));
  std::vector<std::string> subjects;
  for (const Json& subject : array_at(item, "subjects")) {
    std::string ns = text_at(subject, {"namespace"});
    // A ServiceAccount of a RoleBinding is, unless it says, of the binding's namespace.
    if (ns.empty() && text_at(subject, {"kind"}) == "ServiceAccount") {
      ns = text_at(item, {"metadata", "namespace"});
    }
    subjects.push_back(text_at(subject, {"kind"}) + "/" + (ns.empty() ? "" : ns + "/") +
                       text_at(subject, {"name"}));
  }
  row.push_back(join_or(subjects, "<none>", ", "));
  return row;
}

struct TableShape {
  Row header;
  Row wide_columns;
  std::function<Row(const Json&, bool, Timestamp)> row;
};

// A column shown only when an item has the backend's own view (Slurm):
// nodes show its state beside allot's STATUS, workloads their job id with
// -o wide.
struct BackendColumn {
  const char* header = nullptr;
  bool wide_only = false;
  std::string (*cell)(const Json&) = nullptr;
};

std::string node_backend_cell(const Json& item) {
  const std::string state = text_at(item, {"backend", "state"});
  const std::string reason = text_at(item, {"backend", "reason"});
  return or_none(state) + (reason.empty() ? "" : " (" + reason + ")");
}

std::string workload_job_cell(const Json& item) {
  return or_none(text_at(item, {"status", "backend", "jobId"}));
}

std::optional<BackendColumn> backend_column_of(ResourceKind kind,
                                               const std::vector<nlohmann::json>& items) {
  BackendColumn column;
  const Json* (*backend_of)(const Json&) = nullptr;
  if (kind == ResourceKind::kNode) {
    column = {"BACKEND", false, node_backend_cell};
    backend_of = [](const Json& item) { return find_at(item, {"backend"}); };
  } else if (kind == ResourceKind::kWorkload) {
    column = {"JOBID", true, workload_job_cell};
    backend_of = [](const Json& item) { return find_at(item, {"status", "backend"}); };
  } else {
    return std::nullopt;
  }
  for (const Json& item : items) {
    const Json* backend = backend_of(item);
    if (backend != nullptr && backend->is_object()) return column;
  }
  return std::nullopt;
}

TableShape shape_of(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kWorkload:
      return {{"NAME", "NAMESPACE", "TEAM", "PHASE", "GPUS", "AGE"},
              {"USER", "PRIORITY", "FLAVOR", "NODES", "RESTARTS", "REASON"},
              workload_row};
    case ResourceKind::kTeam:
      return {{"NAME", "NAMESPACE", "COHORT", "QUOTA"}, {"WEIGHT", "PRIORITYCLASSES"}, team_row};
    case ResourceKind::kNode:
      return {{"NAME", "POOL", "FLAVOR", "STATUS", "GPUS", "WORKLOADS"},
              {"RACK", "BLOCK", "CPU", "MEMORY", "REASON"},
              node_row};
    case ResourceKind::kCohort: return {{"NAME", "PARENT", "WEIGHT"}, {"QUOTA"}, cohort_row};
    case ResourceKind::kPriorityClass:
      return {{"NAME", "VALUE", "PREEMPTION"}, {"MINRUNTIME", "GRACE"}, priority_class_row};
    case ResourceKind::kResourceFlavor: return {{"NAME", "LABELS"}, {"PRICE"}, flavor_row};
    case ResourceKind::kNodePool:
      return {{"NAME", "CLUSTER", "FLAVOR", "COUNT", "GPU", "CPU", "MEMORY"},
              {"TOPOLOGY"},
              node_pool_row};
    case ResourceKind::kCluster:
      return {{"NAME", "BACKEND", "REGION"}, {"ACCOUNT", "FAIRSHARING", "CYCLE"}, cluster_row};
    case ResourceKind::kRole:
      return {{"NAME", "NAMESPACE", "RULES"},
              {"RESOURCES"},
              [](const Json& item, bool wide, Timestamp) { return role_row(item, wide, true); }};
    case ResourceKind::kClusterRole:
      return {{"NAME", "RULES", "BUILTIN"},
              {"RESOURCES"},
              [](const Json& item, bool wide, Timestamp) { return role_row(item, wide, false); }};
    case ResourceKind::kRoleBinding:
      return {{"NAME", "NAMESPACE", "ROLE", "SUBJECTS"}, {}, [](const Json& item, bool, Timestamp) {
                return binding_row(item, true);
              }};
    case ResourceKind::kClusterRoleBinding:
      return {{"NAME", "ROLE", "SUBJECTS"}, {}, [](const Json& item, bool, Timestamp) {
                return binding_row(item, false);
              }};
    case ResourceKind::kBudget:
      return {{"NAME", "TEAM", "PERIOD", "AMOUNT", "SPENT", "USED", "ACTION", "RUNSOUT"},
              {"FROM", "TO", "PROBLEM"},
              budget_row};
    case ResourceKind::kSignal:
      return {{"NAME", "STATE", "SINCE", "OWNER", "FOR"},
              {"EXPRESSION", "FIRING", "WEBHOOK"},
              signal_row};
    case ResourceKind::kOrganization: return {{"NAME", "CLASSIFICATIONS"}, {}, organization_row};
    case ResourceKind::kContract:
      return {
          {"NAME", "PROJECT", "PHASE", "CLASSIFICATION"}, {"CLUSTER", "REVIEWDUE"}, contract_row};
    case ResourceKind::kPolicyException:
      return {{"NAME", "TEAM", "RELAXES", "OWNER", "APPROVER", "EXPIRES", "STATE"},
              {"REASON"},
              exception_row};
  }
  return {{"NAME"}, {}, [](const Json& item, bool, Timestamp) { return Row{name_of(item)}; }};
}

}  // namespace

std::string quota_summary(const nlohmann::json& quota) {
  std::vector<std::string> flavors;
  for (const Json& entry : quota) {
    std::vector<std::string> amounts;
    const Json* resources = find_at(entry, {"resources"});
    if (resources != nullptr && resources->is_object()) {
      for (const auto& [resource, limits] : resources->items()) {
        const Json* nominal = find_at(limits, {"nominal"});
        amounts.push_back(resource + "=" + scalar_text(nominal != nullptr ? *nominal : limits));
      }
    }
    flavors.push_back(text_at(entry, {"flavor"}) + ": " + join_or(amounts, "-", " "));
  }
  return join_or(flavors, "", "; ");
}

std::string objects_table(ResourceKind kind, const std::vector<nlohmann::json>& items, bool wide,
                          Timestamp now) {
  const TableShape shape = shape_of(kind);
  Row header = shape.header;
  if (wide) header.insert(header.end(), shape.wide_columns.begin(), shape.wide_columns.end());
  std::optional<BackendColumn> backend = backend_column_of(kind, items);
  if (backend && backend->wide_only && !wide) backend.reset();
  // After the plain columns; a wide-only one last.
  const auto at = static_cast<std::ptrdiff_t>(backend && backend->wide_only ? header.size()
                                                                            : shape.header.size());
  if (backend) header.insert(header.begin() + at, backend->header);
  TextTable table(header, TextTable::Alignment::kLeft);
  for (const Json& item : items) {
    Row row = shape.row(item, wide, now);
    if (backend) row.insert(row.begin() + at, backend->cell(item));
    table.add_row(std::move(row));
  }
  return table.render();
}

}  // namespace allot::cli
