// JSON of the workload read models (docs/api.md): a workload with its
// explanation, a page of workloads, and a workload's events.
//
// Contract: pure encoders; never throw. The page is written around the
// stored encodings themselves (no re-encoding): {"items":[...],"continue":"..."}.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/views/workload_view.h"

namespace allot {

nlohmann::json workload_view_json(const WorkloadView& view);
std::string encode_workload_page(const WorkloadPage& page);
nlohmann::json workload_events_json(const std::vector<WorkloadEventView>& events);

}  // namespace allot
