#include "api/kubernetes/kueue_import.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_parts.h"
#include "api/kubernetes/kueue_fields.h"
#include "api/yaml_json.h"
#include "api/yaml_shape.h"

namespace allot {
namespace {

using nlohmann::json;

constexpr std::string_view kSkippedKinds[] = {"Namespace",   "ServiceAccount", "Role",
                                              "RoleBinding", "ResourceQuota",  "NetworkPolicy"};

// What the documents say beyond the policy, resolved once all are read.
struct ImportState {
  Policy policy;
  std::map<std::string, std::string> flavor_topology;             // flavor -> Topology name
  std::map<std::string, std::vector<std::string>> topologies;     // name -> levels
  std::map<std::string, std::pair<std::string, std::string>> lq;  // ClusterQueue -> (ns, where)
  KubernetesNaming naming = KubernetesNaming::kPlain;
};

Status read_fair_weight(const KueueDoc& doc, const json& spec, double& weight) {
  if (!spec.contains("fairSharing")) return Status();
  const json& fair = spec.at("fairSharing");
  ALLOT_RETURN_IF_ERROR(doc.expect_object(fair, "spec.fairSharing"));
  ALLOT_RETURN_IF_ERROR(doc.expect_only(fair, "spec.fairSharing", {"weight"}));
  if (!fair.contains("weight")) return Status();
  Result<double> value = weight_from_json(fair.at("weight"));
  if (!value.ok()) return doc.error("spec.fairSharing.weight", value.status().message());
  weight = *value;
  return Status();
}

Status read_flavor(const KueueDoc& doc, const std::string& name, const json& spec,
                   ImportState& state) {
  ALLOT_RETURN_IF_ERROR(doc.expect_only(spec, "spec", {"nodeLabels", "topologyName"}));
  ResourceFlavor flavor;
  flavor.meta.name = name;
  if (spec.contains("nodeLabels")) {
    for (const auto& [key, value] : spec.at("nodeLabels").items()) {
      if (!value.is_string()) return doc.error("spec.nodeLabels." + key, "expected a string");
      // The label the export gives a flavor with a topology and no labels.
      if (key == kFlavorLabel && value.get<std::string>() == name) continue;
      flavor.node_labels[key] = value.get<std::string>();
    }
  }
  std::string topology;
  ALLOT_RETURN_IF_ERROR(doc.read_string(spec, "spec", "topologyName", topology));
  if (!topology.empty()) state.flavor_topology[name] = topology;
  state.policy.flavors.push_back(std::move(flavor));
  return Status();
}

Status read_topology(const KueueDoc& doc, const std::string& name, const json& spec,
                     ImportState& state) {
  ALLOT_RETURN_IF_ERROR(doc.expect_only(spec, "spec", {"levels"}));
  std::vector<std::string> levels;
  const json list = spec.value("levels", json::array());
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "spec.levels[" + std::to_string(i) + "]";
    ALLOT_RETURN_IF_ERROR(doc.expect_only(list[i], path, {"nodeLabel"}));
    ALLOT_RETURN_IF_ERROR(doc.expect_object(list[i], path));
    std::string label;
    ALLOT_RETURN_IF_ERROR(doc.read_string(list[i], path, "nodeLabel", label));
    if (label.empty()) return doc.error(path + ".nodeLabel", "a level names a node label");
    if (label == "kubernetes.io/hostname") continue;
    std::string level = label.substr(label.rfind('/') + 1);
    if (level.starts_with("topology-")) level = level.substr(9);
    if (level.empty()) return doc.error(path + ".nodeLabel", "no level name in '" + label + "'");
    levels.push_back(level);
  }
  state.topologies[name] = levels;
  return Status();
}

Status read_cohort(const KueueDoc& doc, const std::string& name, const json& spec,
                   ImportState& state) {
  ALLOT_RETURN_IF_ERROR(
      doc.expect_only(spec, "spec", {"parentName", "fairSharing", "resourceGroups"}));
  Cohort cohort;
  cohort.meta.name = name;
  ALLOT_RETURN_IF_ERROR(doc.read_string(spec, "spec", "parentName", cohort.parent));
  ALLOT_RETURN_IF_ERROR(read_fair_weight(doc, spec, cohort.fair_share_weight));
  ALLOT_RETURN_IF_ERROR(read_resource_groups(doc, spec.value("resourceGroups", json()),
                                             "spec.resourceGroups", cohort.quota));
  state.policy.cohorts.push_back(std::move(cohort));
  return Status();
}

Status read_priority_class(const KueueDoc& doc, const std::string& name, const json& document,
                           ImportState& state) {
  PriorityClass pc;
  pc.meta.name = priority_class_from_name(name, state.naming);
  if (pc.meta.name.empty()) return doc.error("metadata.name", "not <name>-priority (HyperPod)");
  if (!document.contains("value") || !document.at("value").is_number_integer()) {
    return doc.error("value", "value is a required integer");
  }
  const int64_t value = document.at("value").get<int64_t>();
  if (value < INT32_MIN || value > INT32_MAX) return doc.error("value", "value is not an int32");
  pc.value = static_cast<int32_t>(value);
  const json annotations = document.at("metadata").value("annotations", json::object());
  ALLOT_RETURN_IF_ERROR(doc.expect_object(annotations, "metadata.annotations"));
  if (annotations.value("allot.dev/preemption-policy", "") == "Never") {
    pc.preemption_policy = PreemptionPolicy::kNever;
  }
  for (const auto& [key, out] :
       {std::pair{"allot.dev/min-runtime", &pc.min_runtime},
        std::pair{"allot.dev/preemption-grace-period", &pc.preemption_grace_period}}) {
    if (!annotations.contains(key)) continue;
    Result<Duration> duration = parse_duration(annotations.value(key, ""));
    if (!duration.ok())
      return doc.error(std::string("metadata.annotations.") + key, duration.status().message());
    *out = *duration;
  }
  state.policy.priority_classes.push_back(std::move(pc));
  return Status();
}

Status read_local_queue(const KueueDoc& doc, const json& document, const json& spec,
                        ImportState& state) {
  ALLOT_RETURN_IF_ERROR(
      doc.expect_only(spec, "spec", {"clusterQueue", "fairSharing", "stopPolicy"}));
  if (spec.value("stopPolicy", "None") != "None") {
    return doc.error("spec.stopPolicy", "allot cannot hold or drain a queue");
  }
  std::string ns;
  ALLOT_RETURN_IF_ERROR(doc.read_string(document.at("metadata"), "metadata", "namespace", ns));
  if (ns.empty()) return doc.error("metadata.namespace", "a LocalQueue lives in a namespace");
  std::string queue;
  ALLOT_RETURN_IF_ERROR(doc.read_string(spec, "spec", "clusterQueue", queue));
  auto [it, inserted] = state.lq.try_emplace(queue, ns, doc.where);
  if (!inserted && it->second.first != ns) {
    return doc.error("spec.clusterQueue", "allot gives a team one namespace: ClusterQueue " +
                                              queue + " already serves namespace " +
                                              it->second.first + " (" + it->second.second + ")");
  }
  return Status();
}

}  // namespace

Status read_cluster_queue(const KueueDoc& doc, const std::string& name, const json& spec,
                          Policy& policy, KubernetesNaming naming);

namespace {

Status read_document(const KueueDoc& doc, const json& document, ImportState& state) {
  if (std::find(std::begin(kSkippedKinds), std::end(kSkippedKinds), doc.kind) !=
      std::end(kSkippedKinds)) {
    return Status();
  }
  if (doc.api_version != "kueue.x-k8s.io/v1beta1" && doc.api_version != "kueue.x-k8s.io/v1beta2") {
    return doc.error("apiVersion",
                     "allot imports Kueue's objects (kueue.x-k8s.io/v1beta1 or "
                     "v1beta2), not '" +
                         doc.api_version + "'");
  }
  ALLOT_RETURN_IF_ERROR(doc.expect_object(document.value("metadata", json()), "metadata"));
  std::string name;
  ALLOT_RETURN_IF_ERROR(doc.read_string(document.at("metadata"), "metadata", "name", name));
  if (name.empty()) return doc.error("metadata.name", "a name is required");
  const json spec = document.value("spec", json::object());
  ALLOT_RETURN_IF_ERROR(doc.expect_object(spec, "spec"));
  if (doc.kind == "ResourceFlavor") return read_flavor(doc, name, spec, state);
  if (doc.kind == "Topology") return read_topology(doc, name, spec, state);
  if (doc.kind == "Cohort") return read_cohort(doc, name, spec, state);
  if (doc.kind == "ClusterQueue")
    return read_cluster_queue(doc, name, spec, state.policy, state.naming);
  if (doc.kind == "LocalQueue") return read_local_queue(doc, document, spec, state);
  if (doc.kind == "WorkloadPriorityClass") return read_priority_class(doc, name, document, state);
  return doc.error("kind",
                   "allot imports ClusterQueue, Cohort, ResourceFlavor, Topology, "
                   "WorkloadPriorityClass and LocalQueue, not " +
                       doc.kind);
}

Result<std::vector<YAML::Node>> load_documents(std::string_view text, std::string_view source) {
  const std::string owned(text);
  ALLOT_RETURN_IF_ERROR(check_yaml_shape(owned, source));
  try {
    return YAML::LoadAll(owned);
  } catch (const YAML::Exception& e) {
    return invalid_argument("invalid YAML: " + e.msg, std::string(source));
  }
}

Status resolve(ImportState& state, std::string_view source) {
  for (ResourceFlavor& flavor : state.policy.flavors) {
    auto it = state.flavor_topology.find(flavor.meta.name);
    if (it == state.flavor_topology.end()) continue;
    auto levels = state.topologies.find(it->second);
    if (levels == state.topologies.end()) {
      return invalid_argument(
          "Topology " + it->second + " is not among the documents",
          std::string(source) + ": ResourceFlavor/" + flavor.meta.name + ": spec.topologyName");
    }
    flavor.topology_levels = levels->second;
  }
  for (Team& team : state.policy.teams) {
    auto it = state.lq.find(cluster_queue_name(team.meta.name, state.naming));
    if (it != state.lq.end() && state.naming == KubernetesNaming::kPlain) {
      team.namespace_name = it->second.first;
    }
  }
  return validate_policy(state.policy);
}

}  // namespace

Result<Policy> import_kueue(std::string_view yaml_text, std::string_view source_name,
                            KubernetesNaming naming) {
  ALLOT_ASSIGN_OR_RETURN(std::vector<YAML::Node> nodes, load_documents(yaml_text, source_name));
  ImportState state;
  state.naming = naming;
  size_t index = 0;
  for (const YAML::Node& node : nodes) {
    ++index;
    if (node.IsNull()) continue;
    const json document = yaml_to_json(node);
    KueueDoc doc;
    doc.where = std::string(source_name) + (source_name.empty() ? "" : ": ") + "document " +
                std::to_string(index);
    if (!document.is_object()) return invalid_argument("a document is a map", doc.where);
    // A value of another shape than Kueue's (a list where a map belongs, a
    // kind that is not a string) is caught as nlohmann's type error and
    // reported at the document.
    try {
      doc.kind = document.value("kind", "");
      doc.api_version = document.value("apiVersion", "");
      const json metadata = document.value("metadata", json::object());
      doc.where +=
          " (" + doc.kind + "/" + (metadata.is_object() ? metadata.value("name", "") : "") + ")";
      ALLOT_RETURN_IF_ERROR(read_document(doc, document, state));
    } catch (const json::exception& e) {
      return invalid_argument(std::string("malformed Kueue object: ") + e.what(), doc.where);
    }
  }
  ALLOT_RETURN_IF_ERROR(resolve(state, source_name));
  return std::move(state.policy);
}

}  // namespace allot
