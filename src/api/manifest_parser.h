// Manifest parsing: multi-document YAML (or JSON, which is YAML) into model
// values, in the format of DESIGN.md section 2 ("Manifests by example").
//
// Contract: parse_manifests() either returns every document or an error; it
// never returns part of a batch. Errors say where: the document's position and
// identity, and the field path, e.g.
//   details = "document 3 (Team/research): spec.quota[0].resources.gpu.nominal"
// Unknown kinds, unknown fields, wrong types, negative or malformed quantities
// and durations are errors. The RBAC kinds (Role, ClusterRole, RoleBinding,
// ClusterRoleBinding) are decoded by decode_rbac_document() (rbac_documents.h)
// into ManifestBundle::rbac, so that one file may hold both. Cross-object references (a team's
// cohort, a workload's priority class) are not checked here: see validate_policy() and the
// scheduler's workload admission checks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/policy.h"
#include "model/rbac/rbac_policy.h"
#include "model/scenario.h"
#include "model/workload.h"

namespace allot {

struct ManifestBundle {
  Policy policy;
  // Role, ClusterRole, RoleBinding, ClusterRoleBinding (rbac_documents.h):
  // Kubernetes' shape, apiVersion allot/v1 or rbac.authorization.k8s.io/v1.
  RbacPolicy rbac;
  std::vector<Workload> workloads;
  std::optional<Scenario> scenario;
};

// `source_name` (a file name) prefixes error locations when not empty.
Result<ManifestBundle> parse_manifests(std::string_view yaml_text,
                                       std::string_view source_name = {});

// One document of a batch as the user wrote it (after defaults), in JSON: the
// form allotd stores and serves.
struct ManifestDocument {
  std::string kind;
  std::string name;
  std::string namespace_name;
  nlohmann::json json;
};

struct ParsedManifests {
  ManifestBundle bundle;
  std::vector<ManifestDocument> documents;  // in the order of the text
};

// Filled into documents before they are decoded, where the user left them out.
struct ManifestDefaults {
  std::string workload_namespace;  // metadata.namespace of a Workload
  std::string workload_name;       // metadata.name of a Workload (one per batch)
};

// Like parse_manifests(), and also returns each document in JSON.
Result<ParsedManifests> parse_manifests_with_documents(std::string_view yaml_text,
                                                       const ManifestDefaults& defaults = {},
                                                       std::string_view source_name = {});

// Reads and parses a file. Errors name the file.
Result<ManifestBundle> load_manifest_file(const std::string& path);

}  // namespace allot
