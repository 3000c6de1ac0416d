// ControlPlaneCalls: the control plane's use cases called as allotd's HTTP
// edge calls them (manifests decoded by api/, answers encoded by api/), for
// tests that assert on the JSON the API serves, without HTTP. Every call is
// made as the anonymous admin, as allotd serves requests today.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "api/manifest_parser.h"
#include "api/workload_submission.h"
#include "api/workload_view_json.h"
#include "model/principal.h"
#include "service/control/control_plane.h"

namespace allot::testing {

// A page of listed workloads: the JSON array of items, as served.
struct JsonWorkloadPage {
  std::string items;
  size_t count = 0;
  std::string continue_token;
};

class ControlPlaneCalls {
 public:
  explicit ControlPlaneCalls(ControlPlane& plane) : plane_(plane) {}

  Result<ApplyResult> apply(std::string_view manifests, bool dry_run) {
    ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(manifests));
    return plane_.policies().apply(caller_, parsed, dry_run);
  }
  Result<std::string> create_workload(const std::string& ns, std::string_view manifest) {
    const WorkloadId id = plane_.workloads().allocate_id();
    ALLOT_ASSIGN_OR_RETURN(Workload workload, decode_workload_submission(manifest, ns, id));
    ALLOT_ASSIGN_OR_RETURN(StoredWorkload stored, plane_.workloads().create(caller_, workload, id));
    return *stored;
  }
  Result<nlohmann::json> cancel_workload(const std::string& ns, const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadView view, plane_.workloads().cancel(caller_, ns, name));
    return workload_view_json(view);
  }
  Result<nlohmann::json> report_checkpoint(const std::string& ns, const std::string& name,
                                           std::optional<Timestamp> at = std::nullopt) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadView view,
                           plane_.workloads().report_checkpoint(caller_, ns, name, at));
    return workload_view_json(view);
  }
  Result<nlohmann::json> scale_workload(const std::string& ns, const std::string& name,
                                        const ScaleRequest& request) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadView view, plane_.workloads().scale(caller_, ns, name, request));
    return workload_view_json(view);
  }
  Result<nlohmann::json> resume_workload(const std::string& ns, const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadView view, plane_.workloads().resume(caller_, ns, name));
    return workload_view_json(view);
  }
  Status delete_workload(const std::string& ns, const std::string& name) {
    return plane_.workloads().remove(caller_, ns, name);
  }
  Status delete_object(const std::string& kind, const std::string& name) {
    return plane_.policies().delete_object(caller_, kind, name);
  }
  Result<nlohmann::json> node_action(const std::string& name, NodeAction action) {
    ALLOT_ASSIGN_OR_RETURN(NodeView node, plane_.nodes().act(caller_, name, action));
    return node_view_json(node);
  }
  Result<JsonWorkloadPage> list_workloads(const WorkloadQuery& query) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadPage page, plane_.workloads().list(caller_, query));
    const nlohmann::json body = nlohmann::json::parse(encode_workload_page(page));
    return JsonWorkloadPage{body["items"].dump(), page.items.size(), page.continue_token};
  }
  Result<nlohmann::json> get_workload(const std::string& ns, const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadView view, plane_.workloads().get(caller_, ns, name));
    return workload_view_json(view);
  }
  Result<nlohmann::json> workload_events(const std::string& ns, const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(auto events, plane_.workloads().events(caller_, ns, name));
    return workload_events_json(events);
  }
  // `kind` is the manifest kind ("Team").
  // GET /api/v1/signals/{name}/history's items.
  Result<std::vector<nlohmann::json>> signal_history(const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(std::vector<std::string> events,
                           plane_.policies().signal_history(caller_, name));
    std::vector<nlohmann::json> out;
    for (const std::string& event : events) out.push_back(nlohmann::json::parse(event));
    return out;
  }
  Result<nlohmann::json> list_objects(const std::string& kind) {
    ALLOT_ASSIGN_OR_RETURN(auto objects, plane_.policies().list_objects(caller_, kind));
    return policy_list_json(objects);
  }
  Result<nlohmann::json> get_object(const std::string& kind, const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(PolicyObjectView object,
                           plane_.policies().get_object(caller_, kind, name));
    return policy_object_json(object);
  }
  Result<nlohmann::json> get_node(const std::string& name) {
    ALLOT_ASSIGN_OR_RETURN(NodeView node, plane_.nodes().get(caller_, name));
    return node_view_json(node);
  }
  nlohmann::json top() { return top_json(*plane_.policies().top(caller_)); }

 private:
  ControlPlane& plane_;
  Principal caller_ = Principal::anonymous_admin();
};

}  // namespace allot::testing
