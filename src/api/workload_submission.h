// Workload submission: the body of `POST /api/v1/namespaces/NS/workloads`
// (docs/api.md) decoded into the one Workload it must hold.
//
// Contract: the body is one Workload document, YAML or JSON; a missing
// metadata.namespace is the URL's, a missing metadata.name is "wl-<id>".
// More or other documents, or a namespace that differs from the URL's, are
// kInvalidArgument saying where; parse errors are those of manifest_parser.h.
// Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"
#include "model/ids.h"
#include "model/workload.h"

namespace allot {

Result<Workload> decode_workload_submission(std::string_view body, const std::string& ns,
                                            WorkloadId id);

}  // namespace allot
