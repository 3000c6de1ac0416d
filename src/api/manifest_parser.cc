#include "api/manifest_parser.h"

#include <exception>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <variant>

#include <yaml-cpp/yaml.h>

#include "api/budget_document.h"
#include "api/document_label.h"
#include "api/governance_documents.h"
#include "api/json_unique_keys.h"
#include "api/manifest_fields.h"
#include "api/policy_documents.h"
#include "api/rbac_documents.h"
#include "api/scenario_document.h"
#include "api/signal_document.h"
#include "api/team_document.h"
#include "api/utf8.h"
#include "api/workload_document.h"
#include "api/yaml_json.h"
#include "api/yaml_shape.h"

namespace allot {
namespace {

constexpr std::string_view kApiVersion = "allot/v1";

enum class Kind {
  kCluster,
  kResourceFlavor,
  kNodePool,
  kCohort,
  kTeam,
  kPriorityClass,
  kWorkload,
  kScenario,
  kBudget,
  kOrganization,
  kContract,
  kSignal,
  kPolicyException
};

constexpr EnumName<Kind> kKindNames[] = {
    {"Cluster", Kind::kCluster},
    {"ResourceFlavor", Kind::kResourceFlavor},
    {"NodePool", Kind::kNodePool},
    {"Cohort", Kind::kCohort},
    {"Team", Kind::kTeam},
    {"PriorityClass", Kind::kPriorityClass},
    {"Workload", Kind::kWorkload},
    {"Scenario", Kind::kScenario},
    {"Budget", Kind::kBudget},
    {"Organization", Kind::kOrganization},
    {"Contract", Kind::kContract},
    {"Signal", Kind::kSignal},
    {"PolicyException", Kind::kPolicyException},
};

// Decoded by rbac_documents.h, in Kubernetes' shape.
constexpr std::string_view kRbacKinds[] = {"Role", "ClusterRole", "RoleBinding",
                                           "ClusterRoleBinding"};

Result<Kind> decode_kind(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::string kind, field.as_string());
  for (const EnumName<Kind>& known : kKindNames) {
    if (known.name == kind) return known.value;
  }
  std::string known_kinds;
  for (const EnumName<Kind>& known : kKindNames) {
    known_kinds += (known_kinds.empty() ? "" : ", ") + std::string(known.name);
  }
  for (std::string_view rbac : kRbacKinds) known_kinds += ", " + std::string(rbac);
  return field.error("unknown kind '" + kind + "'; allot knows " + known_kinds);
}

// Workloads live in their team's namespace; every other kind is cluster-scoped.
Result<ObjectMeta> decode_metadata(const Field& field, Kind kind) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ObjectMeta meta;
  ALLOT_RETURN_IF_ERROR(map.read_required_name("name", meta.name));
  if (kind == Kind::kWorkload) {
    ALLOT_RETURN_IF_ERROR(map.read_required_name("namespace", meta.namespace_name));
  } else if (std::optional<Field> ns = map.get("namespace")) {
    return ns->error("this kind is cluster-scoped and takes no namespace");
  }
  ALLOT_RETURN_IF_ERROR(map.read_string_map("labels", meta.labels));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return meta;
}

template <typename T>
Status append(Result<T> decoded, std::vector<T>& out) {
  if (!decoded.ok()) return decoded.status();
  out.push_back(std::move(decoded).value());
  return {};
}

Status add_to_bundle(Kind kind, ObjectMeta meta, const Field& spec, ManifestBundle& bundle) {
  Policy& policy = bundle.policy;
  switch (kind) {
    case Kind::kCluster: return append(decode_cluster(std::move(meta), spec), policy.clusters);
    case Kind::kResourceFlavor:
      return append(decode_resource_flavor(std::move(meta), spec), policy.flavors);
    case Kind::kNodePool: return append(decode_node_pool(std::move(meta), spec), policy.node_pools);
    case Kind::kCohort: return append(decode_cohort(std::move(meta), spec), policy.cohorts);
    case Kind::kTeam: return append(decode_team(std::move(meta), spec), policy.teams);
    case Kind::kPriorityClass:
      return append(decode_priority_class(std::move(meta), spec), policy.priority_classes);
    case Kind::kWorkload: return append(decode_workload(std::move(meta), spec), bundle.workloads);
    case Kind::kBudget: return append(decode_budget(std::move(meta), spec), policy.budgets);
    case Kind::kOrganization:
      return append(decode_organization(std::move(meta), spec), policy.organizations);
    case Kind::kContract: return append(decode_contract(std::move(meta), spec), policy.contracts);
    case Kind::kSignal: return append(decode_signal(std::move(meta), spec), policy.signals);
    case Kind::kPolicyException:
      return append(decode_policy_exception(std::move(meta), spec), policy.exceptions);
    case Kind::kScenario: {
      ALLOT_ASSIGN_OR_RETURN(bundle.scenario, decode_scenario(std::move(meta), spec));
      return {};
    }
  }
  return Status(ErrorCode::kInternal, "unhandled kind");
}

// Decodes one document into `bundle`; errors are located within the document.
Status decode_document(const DocNode& document, ManifestBundle& bundle) {
  const Field root(document, "");
  if (!document.is_map()) {
    return root.error("a manifest document must be a map with apiVersion, kind, metadata and spec");
  }
  if (is_rbac_kind(scalar_at(document, "kind"))) {
    ALLOT_ASSIGN_OR_RETURN(RbacObject object, decode_rbac_document(document));
    add_rbac_object(std::move(object), bundle.rbac);
    return {};
  }
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(root));
  ALLOT_ASSIGN_OR_RETURN(const Field api_version, map.require("apiVersion"));
  ALLOT_ASSIGN_OR_RETURN(const std::string version, api_version.as_string());
  if (version != kApiVersion) {
    return api_version.error("unsupported apiVersion '" + version + "'; expected " +
                             std::string(kApiVersion));
  }
  Kind kind = Kind::kCluster;
  ALLOT_RETURN_IF_ERROR(map.read_required("kind", kind, decode_kind));
  if (std::optional<Field> status = map.get("status")) {
    return status->error("status is written by allot, not by users");
  }
  ObjectMeta meta;
  ALLOT_RETURN_IF_ERROR(map.read_required(
      "metadata", meta, [kind](const Field& f) { return decode_metadata(f, kind); }));
  const Field spec = map.get("spec").value_or(Field(DocNode(), "spec"));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (kind == Kind::kScenario && bundle.scenario) {
    return root.error("a bundle holds at most one Scenario; '" + bundle.scenario->meta.name +
                      "' came first");
  }
  return add_to_bundle(kind, std::move(meta), spec, bundle);
}

// "spec.podSets[0].resources" of the steps that lead there.
std::string field_path(std::span<const JsonStep> steps) {
  std::string path;
  for (const JsonStep& step : steps) {
    if (const std::string* key = std::get_if<std::string>(&step)) {
      path += (path.empty() ? "" : ".") + *key;
    } else {
      path += "[" + std::to_string(std::get<size_t>(step)) + "]";
    }
  }
  return path;
}

// A key that repeats in a JSON body, located as MapReader locates one of a
// YAML map: the document and the field path. The documents are the body, its
// elements (an array) or the elements of its List's items.
Status repeated_key_error(const nlohmann::json& body, bool is_list, std::span<const JsonStep> path,
                          std::string_view source) {
  const std::string message = "duplicate key '" + std::get<std::string>(path.back()) + "'";
  if (!is_list && !body.is_array()) {
    return located(invalid_argument(message, field_path(path)),
                   document_label(DocNode(body), 1, source));
  }
  const size_t skip = is_list ? 1 : 0;  // "items"
  const bool in_items = !is_list || path.front() == JsonStep(std::string("items"));
  const size_t* index =
      in_items && path.size() > skip + 1 ? std::get_if<size_t>(&path[skip]) : nullptr;
  if (index == nullptr) {  // among the List's own fields, in no document
    const std::string where = field_path(path);
    return invalid_argument(message, source.empty() ? where : std::string(source) + ": " + where);
  }
  const nlohmann::json& documents = is_list ? body.at("items") : body;
  return located(invalid_argument(message, field_path(path.subspan(skip + 1))),
                 document_label(DocNode(documents.at(*index)), *index + 1, source));
}

// The documents of a JSON body: one object, an array of them, or a
// Kubernetes-style List ({"kind": "List", "items": [...]}); nullopt for
// anything else, malformed JSON included, which is for yaml-cpp: it says
// where the text is wrong. A key that repeats within an object is an error.
Result<std::optional<std::vector<nlohmann::json>>> as_json_documents(const std::string& text,
                                                                     std::string_view source) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) {
    return std::optional<std::vector<nlohmann::json>>();
  }
  UniqueKeysJson parsed = parse_json_unique_keys(text);
  nlohmann::json& json = parsed.value;
  if (json.is_discarded()) return std::optional<std::vector<nlohmann::json>>();
  // at() after contains() instead of find(): GCC 12 at -O2 takes the found
  // iterator for a possible null pointer (-Wnull-dereference).
  const bool is_list = json.is_object() && json.value("kind", nlohmann::json()) == "List" &&
                       json.contains("items") && json.at("items").is_array();
  if (!parsed.repeated_key.empty()) {
    return repeated_key_error(json, is_list, parsed.repeated_key, source);
  }
  if (is_list) {
    nlohmann::json items = std::move(json.at("items"));
    json = std::move(items);
  }
  std::vector<nlohmann::json> documents;
  if (json.is_array()) {
    documents.reserve(json.size());
    for (nlohmann::json& item : json) documents.push_back(std::move(item));
  } else {
    documents.push_back(std::move(json));
  }
  return std::optional(std::move(documents));
}

Result<std::vector<YAML::Node>> load_yaml(const std::string& text, std::string_view source) {
  ALLOT_RETURN_IF_ERROR(check_yaml_shape(text, source));
  try {
    return YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    std::string where(source);
    if (!e.mark.is_null()) {
      where += (where.empty() ? "" : ": ") + std::string("line ") +
               std::to_string(e.mark.line + 1) + ", column " + std::to_string(e.mark.column + 1);
    }
    return invalid_argument("invalid YAML: " + e.msg, std::move(where));
  }
}

// Sets metadata.<key> of a Workload document when the user left it out.
void fill_default(YAML::Node& document, const char* key, const std::string& value) {
  if (value.empty() || !document.IsMap() || scalar_at(DocNode(document), "kind") != "Workload") {
    return;
  }
  YAML::Node metadata = document["metadata"];
  if (!metadata.IsDefined() || metadata.IsNull()) {
    document["metadata"] = YAML::Node(YAML::NodeType::Map);
    metadata = document["metadata"];
  }
  if (metadata.IsMap() && !metadata[key]) metadata[key] = value;
}

void fill_default(nlohmann::json& document, const char* key, const std::string& value) {
  if (value.empty() || scalar_at(DocNode(document), "kind") != "Workload") return;
  nlohmann::json& metadata = document["metadata"];
  if (metadata.is_null()) metadata = nlohmann::json::object();
  if (metadata.is_object() && metadata.value(key, nlohmann::json()).is_null()) {
    metadata[key] = value;
  }
}

// Decodes document `number` into `parsed`; with `with_json`, also lists it
// in parsed.documents (its JSON for the caller to fill in).
Status add_document(const DocNode& document, size_t number, bool with_json, std::string_view source,
                    ParsedManifests& parsed) {
  const Status status = decode_document(document, parsed.bundle);
  if (!status.ok()) return located(status, document_label(document, number, source));
  if (!with_json) return {};
  const DocNode metadata = document.find("metadata").value_or(DocNode());
  parsed.documents.push_back({scalar_at(document, "kind"), scalar_at(metadata, "name"),
                              scalar_at(metadata, "namespace"), nlohmann::json()});
  return {};
}

Result<ParsedManifests> parse_documents(const std::string& text, const ManifestDefaults& defaults,
                                        bool with_json, std::string_view source) {
  if (Status utf8 = check_utf8(text); !utf8.ok()) {
    const std::string where =
        source.empty() ? utf8.details() : std::string(source) + ": " + utf8.details();
    return Status(utf8.code(), utf8.message(), where);
  }
  ParsedManifests parsed;
  ALLOT_ASSIGN_OR_RETURN(std::optional<std::vector<nlohmann::json>> json_documents,
                         as_json_documents(text, source));
  if (json_documents) {
    // Decoded from the JSON values directly: yaml-cpp's parser and nodes were
    // most of a submit's cost.
    for (size_t i = 0; i < json_documents->size(); ++i) {
      nlohmann::json& document = (*json_documents)[i];
      if (document.is_null()) continue;  // as an empty YAML document
      fill_default(document, "namespace", defaults.workload_namespace);
      fill_default(document, "name", defaults.workload_name);
      ALLOT_RETURN_IF_ERROR(add_document(DocNode(document), i + 1, with_json, source, parsed));
      if (with_json) parsed.documents.back().json = std::move(document);
    }
    return parsed;
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<YAML::Node> documents, load_yaml(text, source));
  for (size_t i = 0; i < documents.size(); ++i) {
    YAML::Node& document = documents[i];
    if (document.IsNull()) continue;  // an empty document, e.g. after a trailing ---
    fill_default(document, "namespace", defaults.workload_namespace);
    fill_default(document, "name", defaults.workload_name);
    ALLOT_RETURN_IF_ERROR(add_document(DocNode(document), i + 1, with_json, source, parsed));
    if (with_json) parsed.documents.back().json = yaml_to_json(document);
  }
  return parsed;
}

template <typename Parse>
auto guarded(std::string_view source_name, Parse&& parse) -> decltype(parse()) {
  // yaml-cpp reports through exceptions; none may leave this layer.
  try {
    return parse();
  } catch (const YAML::Exception& e) {
    return invalid_argument("invalid YAML: " + e.msg, std::string(source_name));
  } catch (const std::exception& e) {
    return Status(ErrorCode::kInternal, std::string("manifest parser failed: ") + e.what(),
                  std::string(source_name));
  }
}

}  // namespace

Result<ManifestBundle> parse_manifests(std::string_view yaml_text, std::string_view source_name) {
  return guarded(source_name, [&]() -> Result<ManifestBundle> {
    ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed,
                           parse_documents(std::string(yaml_text), {}, false, source_name));
    return std::move(parsed.bundle);
  });
}

Result<ParsedManifests> parse_manifests_with_documents(std::string_view yaml_text,
                                                       const ManifestDefaults& defaults,
                                                       std::string_view source_name) {
  return guarded(source_name, [&]() -> Result<ParsedManifests> {
    return parse_documents(std::string(yaml_text), defaults, true, source_name);
  });
}

Result<ManifestBundle> load_manifest_file(const std::string& path) {
  std::error_code error;
  const std::filesystem::file_status file = std::filesystem::status(path, error);
  if (file.type() == std::filesystem::file_type::not_found) {
    return not_found("manifest file not found", path);
  }
  if (error) return failed_precondition("cannot access manifest file: " + error.message(), path);
  if (std::filesystem::is_directory(file)) {
    return invalid_argument("expected a manifest file, got a directory", path);
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) return failed_precondition("cannot read manifest file", path);
  return parse_manifests(text.str(), path);
}

}  // namespace allot
