// Manifest parsing: multi-document YAML (or JSON, which is YAML) into model
// values, in the format of DESIGN.md section 2 ("Manifests by example").
//
// Contract: parse_manifests() either returns every document or an error; it
// never returns part of a batch. Errors say where: the document's position and
// identity, and the field path, e.g.
//   details = "document 3 (Team/research): spec.quota[0].resources.gpu.nominal"
// Unknown kinds, unknown fields, wrong types, negative or malformed quantities
// and durations are errors. Cross-object references (a team's cohort, a
// workload's priority class) are not checked here: see validate_policy() and
// the scheduler's workload admission checks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "model/policy.h"
#include "model/scenario.h"
#include "model/workload.h"

namespace allot {

struct ManifestBundle {
  Policy policy;
  std::vector<Workload> workloads;
  std::optional<Scenario> scenario;
};

// `source_name` (a file name) prefixes error locations when not empty.
Result<ManifestBundle> parse_manifests(std::string_view yaml_text,
                                       std::string_view source_name = {});

// Reads and parses a file. Errors name the file.
Result<ManifestBundle> load_manifest_file(const std::string& path);

}  // namespace allot
