#include "api/rbac_documents.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "api/manifest_fields.h"

namespace allot {
namespace {

constexpr std::string_view kRbacGroup = "rbac.authorization.k8s.io";
constexpr std::array<std::string_view, 2> kApiVersions = {"allot/v1",
                                                          "rbac.authorization.k8s.io/v1"};

enum class RbacKind { kRole, kClusterRole, kRoleBinding, kClusterRoleBinding };

constexpr EnumName<RbacKind> kRbacKindNames[] = {
    {"Role", RbacKind::kRole},
    {"ClusterRole", RbacKind::kClusterRole},
    {"RoleBinding", RbacKind::kRoleBinding},
    {"ClusterRoleBinding", RbacKind::kClusterRoleBinding},
};

constexpr EnumName<SubjectKind> kSubjectKinds[] = {
    {"User", SubjectKind::kUser},
    {"Group", SubjectKind::kGroup},
    {"ServiceAccount", SubjectKind::kServiceAccount},
};

constexpr EnumName<RoleRefKind> kRoleRefKinds[] = {
    {"Role", RoleRefKind::kRole},
    {"ClusterRole", RoleRefKind::kClusterRole},
};

bool namespaced(RbacKind kind) { return kind == RbacKind::kRole || kind == RbacKind::kRoleBinding; }

// Kubernetes' names of RBAC objects: any path segment.
Result<std::string> as_rbac_name(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(std::string name, field.as_string());
  if (name.empty()) return field.error("a name cannot be empty");
  if (name == "." || name == ".." || name.find_first_of("/%") != std::string::npos) {
    return field.error("'" + name + "' is not a valid RBAC name: no '/' or '%', not '.' or '..'");
  }
  return name;
}

Result<std::string> as_non_empty(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(std::string text, field.as_string());
  if (text.empty()) return field.error("cannot be empty");
  return text;
}

// A list of strings; with `non_empty`, no element may be "" (apiGroups may:
// "" is the core group).
Result<std::vector<std::string>> as_entries(const Field& field, bool non_empty) {
  if (!non_empty) return field.as_string_list();
  return decode_list<std::string>(field, as_non_empty);
}

Result<std::string> as_resource(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(std::string resource, as_non_empty(field));
  const size_t slash = resource.find('/');
  if (slash == 0 || slash + 1 == resource.size() ||
      (slash != std::string::npos && resource.find('/', slash + 1) != std::string::npos)) {
    return field.error("'" + resource +
                       "' is not a resource: write a resource, resource/subresource, * or */"
                       "subresource");
  }
  return resource;
}

Result<std::string> as_url(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(std::string url, as_non_empty(field));
  if (url != "*" && url.front() != '/') {
    return field.error("'" + url + "' is not a URL path: start it with '/' (or write *)");
  }
  return url;
}

Status check_rule(const Field& field, const PolicyRule& rule, bool urls_allowed) {
  if (rule.verbs.empty()) return field.error("a rule needs verbs (at least one, or *)");
  if (!rule.non_resource_urls.empty()) {
    if (!urls_allowed) return field.error("nonResourceURLs are for ClusterRoles only");
    if (!rule.resources.empty() || !rule.api_groups.empty() || !rule.resource_names.empty()) {
      return field.error(
          "a rule names either resources (with apiGroups) or nonResourceURLs, not both");
    }
    return {};
  }
  if (rule.resources.empty()) return field.error("a rule needs resources (or nonResourceURLs)");
  if (rule.api_groups.empty()) {
    return field.error("a rule needs apiGroups (allot for allot's resources, or *)");
  }
  return {};
}

Result<PolicyRule> decode_rule(const Field& field, bool urls_allowed) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  PolicyRule rule;
  auto entries = [](bool non_empty) {
    return [non_empty](const Field& f) { return as_entries(f, non_empty); };
  };
  ALLOT_RETURN_IF_ERROR(map.read("verbs", rule.verbs, entries(true)));
  ALLOT_RETURN_IF_ERROR(map.read("apiGroups", rule.api_groups, entries(false)));
  ALLOT_RETURN_IF_ERROR(map.read("resources", rule.resources, [](const Field& f) {
    return decode_list<std::string>(f, as_resource);
  }));
  ALLOT_RETURN_IF_ERROR(map.read("resourceNames", rule.resource_names, entries(true)));
  ALLOT_RETURN_IF_ERROR(map.read("nonResourceURLs", rule.non_resource_urls, [](const Field& f) {
    return decode_list<std::string>(f, as_url);
  }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  ALLOT_RETURN_IF_ERROR(check_rule(field, rule, urls_allowed));
  return rule;
}

Result<std::vector<PolicyRule>> decode_rules(const Field& field, bool urls_allowed) {
  return decode_list<PolicyRule>(
      field, [urls_allowed](const Field& f) { return decode_rule(f, urls_allowed); });
}

Result<std::map<std::string, std::string>> decode_selector(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  if (std::optional<Field> expressions = map.get("matchExpressions")) {
    return expressions->error("matchExpressions are not supported yet; use matchLabels");
  }
  std::map<std::string, std::string> labels;
  ALLOT_RETURN_IF_ERROR(map.read_string_map("matchLabels", labels));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (labels.empty())
    return field.error("a selector needs matchLabels (an empty one matches nothing)");
  return labels;
}

Result<AggregationRule> decode_aggregation(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  AggregationRule rule;
  ALLOT_RETURN_IF_ERROR(
      map.read("clusterRoleSelectors", rule.cluster_role_selectors, [](const Field& f) {
        return decode_list<std::map<std::string, std::string>>(f, decode_selector);
      }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return rule;
}

// apiGroup of a subject or roleRef: absent, or exactly `expected`.
Status read_api_group(MapReader& map, std::string_view expected) {
  std::optional<Field> field = map.get("apiGroup");
  if (!field) return {};
  ALLOT_ASSIGN_OR_RETURN(const std::string group, field->as_string());
  if (group == expected) return {};
  return field->error("apiGroup must be " +
                      (expected.empty() ? std::string("\"\"") : std::string(expected)));
}

Result<Subject> decode_subject(const Field& field, const std::string& binding_namespace) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  Subject subject;
  ALLOT_RETURN_IF_ERROR(map.read_required(
      "kind", subject.kind, [](const Field& f) { return f.as_enum<SubjectKind>(kSubjectKinds); }));
  const bool account = subject.kind == SubjectKind::kServiceAccount;
  ALLOT_RETURN_IF_ERROR(account ? map.read_required_name("name", subject.name)
                                : map.read_required("name", subject.name, as_non_empty));
  ALLOT_RETURN_IF_ERROR(read_api_group(map, account ? "" : kRbacGroup));
  std::optional<Field> ns = map.get("namespace");
  if (ns && !account) return ns->error("User and Group subjects take no namespace");
  if (ns) {
    ALLOT_ASSIGN_OR_RETURN(subject.namespace_name, ns->as_name());
  }
  if (account && subject.namespace_name.empty()) {
    if (binding_namespace.empty()) {
      return field.error("a ServiceAccount subject of a ClusterRoleBinding needs a namespace");
    }
    subject.namespace_name = binding_namespace;
  }
  ALLOT_RETURN_IF_ERROR(map.finish());
  return subject;
}

Result<RoleRef> decode_role_ref(const Field& field, bool cluster_binding) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  RoleRef ref;
  ALLOT_ASSIGN_OR_RETURN(const Field kind, map.require("kind"));
  ALLOT_ASSIGN_OR_RETURN(ref.kind, kind.as_enum<RoleRefKind>(kRoleRefKinds));
  if (cluster_binding && ref.kind == RoleRefKind::kRole) {
    return kind.error("a ClusterRoleBinding references a ClusterRole, never a Role");
  }
  ALLOT_RETURN_IF_ERROR(map.read_required("name", ref.name, as_rbac_name));
  ALLOT_RETURN_IF_ERROR(read_api_group(map, kRbacGroup));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return ref;
}

Result<ObjectMeta> decode_metadata(const Field& field, RbacKind kind) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ObjectMeta meta;
  ALLOT_RETURN_IF_ERROR(map.read_required("name", meta.name, as_rbac_name));
  if (namespaced(kind)) {
    ALLOT_RETURN_IF_ERROR(map.read_required_name("namespace", meta.namespace_name));
  } else if (std::optional<Field> ns = map.get("namespace")) {
    return ns->error("this kind is cluster-scoped and takes no namespace");
  }
  ALLOT_RETURN_IF_ERROR(map.read_string_map("labels", meta.labels));
  std::map<std::string, std::string> annotations;  // accepted, not kept
  ALLOT_RETURN_IF_ERROR(map.read_string_map("annotations", annotations));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return meta;
}

Result<std::vector<Subject>> decode_subjects(MapReader& map, const std::string& ns) {
  std::vector<Subject> subjects;
  ALLOT_RETURN_IF_ERROR(map.read("subjects", subjects, [&ns](const Field& f) {
    return decode_list<Subject>(f, [&ns](const Field& s) { return decode_subject(s, ns); });
  }));
  return subjects;
}

// The body of one kind, read from the document's top-level map.
Result<RbacObject> decode_body(RbacKind kind, ObjectMeta meta, MapReader& map) {
  switch (kind) {
    case RbacKind::kRole: {
      Role role{std::move(meta), {}};
      ALLOT_RETURN_IF_ERROR(
          map.read("rules", role.rules, [](const Field& f) { return decode_rules(f, false); }));
      return RbacObject(std::move(role));
    }
    case RbacKind::kClusterRole: {
      ClusterRole role{std::move(meta), {}, std::nullopt};
      ALLOT_RETURN_IF_ERROR(
          map.read("rules", role.rules, [](const Field& f) { return decode_rules(f, true); }));
      ALLOT_RETURN_IF_ERROR(map.read("aggregationRule", role.aggregation, decode_aggregation));
      return RbacObject(std::move(role));
    }
    case RbacKind::kRoleBinding:
    case RbacKind::kClusterRoleBinding: {
      const bool cluster = kind == RbacKind::kClusterRoleBinding;
      ALLOT_ASSIGN_OR_RETURN(std::vector<Subject> subjects,
                             decode_subjects(map, meta.namespace_name));
      RoleRef ref;
      ALLOT_RETURN_IF_ERROR(map.read_required(
          "roleRef", ref, [cluster](const Field& f) { return decode_role_ref(f, cluster); }));
      if (cluster) return RbacObject(ClusterRoleBinding{std::move(meta), std::move(subjects), ref});
      return RbacObject(RoleBinding{std::move(meta), std::move(subjects), ref});
    }
  }
  return Status(ErrorCode::kInternal, "unhandled RBAC kind");
}

Status check_api_version(MapReader& map) {
  ALLOT_ASSIGN_OR_RETURN(const Field field, map.require("apiVersion"));
  ALLOT_ASSIGN_OR_RETURN(const std::string version, field.as_string());
  if (std::find(kApiVersions.begin(), kApiVersions.end(), version) != kApiVersions.end()) {
    return {};
  }
  return field.error("unsupported apiVersion '" + version +
                     "'; expected allot/v1 or rbac.authorization.k8s.io/v1");
}

}  // namespace

bool is_rbac_kind(std::string_view kind) {
  return std::any_of(std::begin(kRbacKindNames), std::end(kRbacKindNames),
                     [kind](const EnumName<RbacKind>& known) { return known.name == kind; });
}

Result<RbacObject> decode_rbac_document(const DocNode& document) {
  const Field root(document, "");
  if (!document.is_map()) {
    return root.error("an RBAC document must be a map with apiVersion, kind and metadata");
  }
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(root));
  ALLOT_RETURN_IF_ERROR(check_api_version(map));
  RbacKind kind = RbacKind::kRole;
  ALLOT_RETURN_IF_ERROR(map.read_required(
      "kind", kind, [](const Field& f) { return f.as_enum<RbacKind>(kRbacKindNames); }));
  // Looked at, not read: neither is among the fields an unknown one is told to use.
  if (std::optional<DocNode> spec = document.find("spec")) {
    return Field(*spec, "spec")
        .error(
            "RBAC objects have no spec: rules, aggregationRule, subjects and roleRef sit at the "
            "top "
            "level, as in Kubernetes");
  }
  if (std::optional<DocNode> status = document.find("status")) {
    return Field(*status, "status").error("status is written by allot, not by users");
  }
  ObjectMeta meta;
  ALLOT_RETURN_IF_ERROR(map.read_required(
      "metadata", meta, [kind](const Field& f) { return decode_metadata(f, kind); }));
  ALLOT_ASSIGN_OR_RETURN(RbacObject object, decode_body(kind, std::move(meta), map));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return object;
}

void add_rbac_object(RbacObject object, RbacPolicy& policy) {
  std::visit(
      [&policy](auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, Role>) policy.roles.push_back(std::move(value));
        if constexpr (std::is_same_v<T, ClusterRole>) {
          policy.cluster_roles.push_back(std::move(value));
        }
        if constexpr (std::is_same_v<T, RoleBinding>) {
          policy.role_bindings.push_back(std::move(value));
        }
        if constexpr (std::is_same_v<T, ClusterRoleBinding>) {
          policy.cluster_role_bindings.push_back(std::move(value));
        }
      },
      object);
}

}  // namespace allot
