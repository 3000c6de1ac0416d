#include "api/workload_view_json.h"

#include <utility>

#include "api/rfc3339.h"
#include "api/workload_json.h"

namespace allot {
namespace {

using nlohmann::json;

json explanation_json(const PendingExplanationView& e) {
  json out = {{"reason", e.reason ? json(*e.reason) : json(nullptr)},
              {"preemption", e.preemption ? json(*e.preemption) : json(nullptr)},
              {"queuePosition", e.queue_position ? json(*e.queue_position) : json(nullptr)},
              {"estimatedStart",
               e.estimated_start ? json(format_rfc3339(*e.estimated_start)) : json(nullptr)}};
  out["message"] = e.message;
  return out;
}

}  // namespace

json workload_view_json(const WorkloadView& view) {
  json out = workload_to_json(view.doc);
  if (view.explanation) out["status"]["explanation"] = explanation_json(*view.explanation);
  return out;
}

std::string encode_workload_page(const WorkloadPage& page) {
  constexpr std::string_view kItems = "{\"items\":[";
  constexpr std::string_view kContinue = "],\"continue\":\"";
  size_t size = kItems.size() + kContinue.size() + page.continue_token.size() + 2;
  for (const StoredWorkload& item : page.items) size += item->size() + 1;
  // One allocation for the whole answer (a page of 10,000 is about 6 MB).
  std::string body;
  body.reserve(size);
  body.append(kItems);
  for (size_t i = 0; i < page.items.size(); ++i) {
    if (i > 0) body += ',';
    body.append(*page.items[i]);
  }
  body.append(kContinue).append(page.continue_token).append("\"}");
  return body;
}

json workload_events_json(const std::vector<WorkloadEventView>& events) {
  json items = json::array();
  for (const WorkloadEventView& event : events) {
    items.push_back({{"sequence", event.sequence},
                     {"time", format_rfc3339(event.time)},
                     {"type", event.type},
                     {"reason", event.reason},
                     {"message", event.message}});
  }
  return json{{"items", std::move(items)}};
}

}  // namespace allot
