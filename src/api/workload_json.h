// Workload JSON codec: the form of a workload with its status that allotd
// serves (docs/api.md) and stores.
//
// Contract: encode_workload() writes `spec` as a manifest (parse_manifests
// reads it back to the same Workload) plus `metadata.uid` and `status`.
// workload_from_json() is its exact inverse, fast enough to rebuild 100,000
// workloads at startup; it never throws and names the field at fault.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/workload_document.h"

namespace allot {

// The stored and served text: the canonical JSON (keys sorted, as
// nlohmann::json::dump() writes them), written without building a tree.
std::string encode_workload(const WorkloadDocument& document);
// The same, as a value (encode_workload() parsed), for views that add to it.
nlohmann::json workload_to_json(const WorkloadDocument& document);
nlohmann::json workload_spec_to_json(const WorkloadSpec& spec);

Result<WorkloadDocument> workload_from_json(const nlohmann::json& json);

}  // namespace allot
