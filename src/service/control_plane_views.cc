// ControlPlane, part 4: reads (docs/api.md).
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "api/rfc3339.h"
#include "scheduler/explanation_text.h"
#include "service/control_plane.h"
#include "service/quota_usage.h"

namespace allot {
namespace {

using nlohmann::json;

// Plural resource names of the API to manifest kinds.
std::string kind_of(const std::string& plural) {
  static const std::map<std::string, std::string> kKinds = {
      {"clusters", "Cluster"},   {"resourceflavors", "ResourceFlavor"},
      {"nodepools", "NodePool"}, {"cohorts", "Cohort"},
      {"teams", "Team"},         {"priorityclasses", "PriorityClass"}};
  auto it = kKinds.find(plural);
  return it == kKinds.end() ? std::string() : it->second;
}

json resources_json(const ResourceVector& resources) {
  json out = json::object();
  for (Resource r : kAllResources) {
    out[std::string(resource_name(r))] = format_quantity(r, resources[r]);
  }
  return out;
}

bool matches(const LiveWorkload& live, const WorkloadQuery& query) {
  if (!query.namespace_name.empty() &&
      live.doc.workload.meta.namespace_name != query.namespace_name) {
    return false;
  }
  if (!query.team.empty() && live.doc.status.team != query.team) return false;
  return query.phases.empty() ||
         std::find(query.phases.begin(), query.phases.end(), live.phase()) != query.phases.end();
}

}  // namespace

std::string plural_to_kind(const std::string& plural) { return kind_of(plural); }

// Holds the state for reading. On leaving, once the answer is built, it lets
// go of the state and then waits until every change it could have seen is
// stored: the answer reaches the client only then.
class ControlPlane::CommittedRead {
 public:
  explicit CommittedRead(const ControlPlane& plane)
      : plane_(plane), lock_(plane.mu_), seen_(plane.changes_made_.load()) {}
  ~CommittedRead() {
    lock_.unlock();
    plane_.stored_.wait_until_stored(seen_);
  }
  CommittedRead(const CommittedRead&) = delete;
  CommittedRead& operator=(const CommittedRead&) = delete;

 private:
  const ControlPlane& plane_;
  std::shared_lock<std::shared_mutex> lock_;
  uint64_t seen_;
};

json ControlPlane::workload_view(const LiveWorkload& live, Timestamp now) const {
  json view = workload_to_json(live.doc);
  if (!is_waiting(live.phase())) return view;
  json explanation = {{"reason", nullptr},
                      {"preemption", nullptr},
                      {"queuePosition", nullptr},
                      {"estimatedStart", nullptr}};
  if (!live.unschedulable.empty()) {
    explanation["reason"] = "Unschedulable";
    explanation["message"] = live.unschedulable;
  } else if (live.explanation && state_.policy.compiled()) {
    const PendingExplanation& e = *live.explanation;
    explanation["reason"] = std::string(pending_reason_name(e.reason));
    explanation["preemption"] = std::string(preemption_verdict_name(e.preemption));
    explanation["message"] = describe_pending(*state_.policy.compiled(), e, now);
    explanation["queuePosition"] = e.queue_position;
    if (e.estimated_start != Timestamp::infinite_future()) {
      explanation["estimatedStart"] = format_rfc3339(e.estimated_start);
    }
  } else {
    explanation["message"] = "not yet considered by a scheduling cycle";
  }
  view["status"]["explanation"] = std::move(explanation);
  return view;
}

Result<WorkloadPage> ControlPlane::list_workloads(const WorkloadQuery& query) const {
  WorkloadPage page;
  page.items.reserve(std::min<size_t>(query.limit, 10000) * 700);
  page.items += '[';
  const CommittedRead read(*this);
  const auto& all = state_.workloads.all();
  for (auto it = all.upper_bound(query.after_uid); it != all.end(); ++it) {
    if (!matches(it->second, query)) continue;
    if (page.count == query.limit) {
      page.continue_token = std::to_string(std::prev(it)->first);
      break;
    }
    if (page.count > 0) page.items += ',';
    page.items += it->second.stored;
    ++page.count;
  }
  page.items += ']';
  return page;
}

Result<json> ControlPlane::get_workload(const std::string& ns, const std::string& name) const {
  const Timestamp now = clock_.now();
  const CommittedRead read(*this);
  const LiveWorkload* live = find_locked(ns, name);
  if (live == nullptr) return not_found("workload " + ns + "/" + name + " does not exist");
  return workload_view(*live, now);
}

Result<json> ControlPlane::workload_events(const std::string& ns, const std::string& name) const {
  uint64_t uid = 0;
  {
    std::shared_lock lock(mu_);
    const LiveWorkload* live = find_locked(ns, name);
    if (live == nullptr) return not_found("workload " + ns + "/" + name + " does not exist");
    uid = live->uid();
  }
  ALLOT_ASSIGN_OR_RETURN(const std::vector<EventRecord> events, store_.events(uid));
  json items = json::array();
  for (const EventRecord& event : events) {
    items.push_back({{"sequence", event.sequence},
                     {"time", format_rfc3339(Timestamp::from_millis(event.at_ms))},
                     {"type", event.type},
                     {"reason", event.reason},
                     {"message", event.message}});
  }
  return json{{"items", std::move(items)}};
}

Result<LogChunk> ControlPlane::workload_log(const std::string& ns, const std::string& name,
                                            int32_t pod, int64_t offset) const {
  uint64_t uid = 0;
  {
    std::shared_lock lock(mu_);
    const LiveWorkload* live = find_locked(ns, name);
    if (live == nullptr) return not_found("workload " + ns + "/" + name + " does not exist");
    uid = live->uid();
  }
  constexpr int64_t kMaxChunk = 1 << 20;
  LogChunk chunk;
  chunk.path = executor_.log_location(uid, pod);
  Result<std::string> data = executor_.read_log(uid, pod, offset, kMaxChunk);
  if (!data.ok() && data.status().code() == ErrorCode::kNotFound) {
    chunk.next_offset = offset;  // not started yet: nothing to show
    return chunk;
  }
  if (!data.ok()) return data.status();
  chunk.data = std::move(data).value();
  chunk.next_offset = offset + static_cast<int64_t>(chunk.data.size());
  return chunk;
}

Result<json> ControlPlane::list_objects(const std::string& plural) const {
  const std::string kind = kind_of(plural);
  if (kind.empty()) return not_found("unknown resource '" + plural + "'");
  json items = json::array();
  const CommittedRead read(*this);
  for (const auto& [key, document] : state_.policy.documents()) {
    if (key.first == kind) items.push_back(document);
  }
  return json{{"items", std::move(items)}};
}

Result<json> ControlPlane::get_object(const std::string& plural, const std::string& name) const {
  const std::string kind = kind_of(plural);
  if (kind.empty()) return not_found("unknown resource '" + plural + "'");
  const CommittedRead read(*this);
  auto it = state_.policy.documents().find({kind, name});
  if (it == state_.policy.documents().end()) {
    return not_found(kind + " '" + name + "' does not exist");
  }
  json object = it->second;
  if (kind == "Team" && state_.policy.compiled()) {
    json rows = json::array();
    for (const QuotaUsageRow& row : quota_usage(state_)) {
      if (row.team == name) rows.push_back(quota_usage_json(row));
    }
    object["status"] = {{"quota", std::move(rows)}};
  }
  return object;
}

json ControlPlane::node_view(size_t index) const {
  const CompiledPolicy& policy = *state_.policy.compiled();
  const CompiledNode& compiled = policy.nodes()[index];
  const Node& node = compiled.node;
  ResourceVector allocated;
  json workloads = json::array();
  for (const auto& [uid, pointer] : state_.workloads.active()) {
    const LiveWorkload& live = *pointer;
    if (!holds_quota(live.phase())) continue;
    bool here = false;
    for (size_t i = 0; i < live.doc.status.pod_sets.size(); ++i) {
      for (const PodAssignment& pod : live.doc.status.pod_sets[i].pods) {
        if (pod.node != node.name) continue;
        allocated += live.doc.workload.spec.pod_sets[i].resources;
        here = true;
      }
    }
    if (here) workloads.push_back(live.key());
  }
  NodeState condition;
  if (auto it = state_.nodes.find(node.name); it != state_.nodes.end()) condition = it->second;
  return {
      {"name", node.name},
      {"pool", node.pool},
      {"flavor", node.flavor},
      {"rack", compiled.rack},
      {"block", compiled.block},
      {"capacity", resources_json(node.capacity)},
      {"allocated", resources_json(allocated)},
      {"healthy", condition.healthy},
      {"cordoned", condition.cordoned},
      {"reason", condition.reason},
      {"lastHeartbeat",
       condition.last_heartbeat ? json(format_rfc3339(*condition.last_heartbeat)) : json(nullptr)},
      {"workloads", std::move(workloads)}};
}

json ControlPlane::list_nodes() const {
  json items = json::array();
  const CommittedRead read(*this);
  if (const auto& compiled = state_.policy.compiled()) {
    for (size_t i = 0; i < compiled->nodes().size(); ++i) items.push_back(node_view(i));
  }
  return json{{"items", std::move(items)}};
}

Result<json> ControlPlane::get_node(const std::string& name) const {
  const CommittedRead read(*this);
  const auto& compiled = state_.policy.compiled();
  const NodeIndex index = compiled ? compiled->node_by_name(name) : NodeIndex();
  if (!index.valid()) return not_found("node '" + name + "' does not exist");
  return node_view(index.value());
}

json ControlPlane::top() const {
  json rows = json::array();
  const CommittedRead read(*this);
  if (state_.policy.compiled()) {
    for (const QuotaUsageRow& row : quota_usage(state_)) rows.push_back(quota_usage_json(row));
  }
  return json{{"teams", std::move(rows)}};
}

}  // namespace allot
