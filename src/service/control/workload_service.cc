#include "service/control/workload_service.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "api/workload_json.h"
#include "service/control/admission_cycle.h"
#include "service/control/caller_rights.h"
#include "service/control/contract_gate.h"
#include "service/control/endpoint_control.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/policy_installation.h"
#include "service/control/space_lifecycle.h"
#include "service/control/workload_explanation.h"
#include "service/control/workload_redaction.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

bool matches(const LiveWorkload& live, const WorkloadQuery& query) {
  if (!query.namespace_name.empty() &&
      live.doc.workload.meta.namespace_name != query.namespace_name) {
    return false;
  }
  if (!query.team.empty() && live.doc.status.team != query.team) return false;
  if (!query.user.empty() && live.doc.status.submitted_by != query.user) return false;
  if (!query.priority_class.empty() &&
      live.doc.workload.spec.priority_class != query.priority_class) {
    return false;
  }
  return query.phases.empty() ||
         std::find(query.phases.begin(), query.phases.end(), live.phase()) != query.phases.end();
}

// Where the caller may see workloads, asked once and only when a workload
// names another one (a preemptor): most reads never need it.
class LazyVisibility {
 public:
  LazyVisibility(const AccessControl& access, const Principal& caller)
      : access_(access), caller_(caller) {}
  const VisibleNamespaces& get() {
    if (!visible_) visible_ = workload_visibility(access_, caller_);
    return *visible_;
  }

 private:
  const AccessControl& access_;
  const Principal& caller_;
  std::optional<VisibleNamespaces> visible_;
};

// The preemptor's key, or kOtherTeamsWorkload when the caller may not see it.
std::string preemptor_as_seen(const std::string& preempted_by, const std::string& own_namespace,
                              LazyVisibility& visibility) {
  if (preempted_by.empty() || preempted_by.starts_with(own_namespace + "/")) return preempted_by;
  return redact_workload_key(preempted_by, visibility.get());
}

// Hides the preemptor from the status (its field and its message) when the
// caller may not see it; whether it did.
bool hide_unseen_preemptor(WorkloadDocument& doc, LazyVisibility& visibility) {
  WorkloadStatus& status = doc.status;
  const std::string shown =
      preemptor_as_seen(status.preempted_by, doc.workload.meta.namespace_name, visibility);
  if (shown == status.preempted_by) return false;
  status.preempted_by = shown;
  status.message = redact_message(status.message, visibility.get());
  return true;
}

// The stored encoding, re-encoded with the preemptor hidden when the caller
// may not see it.
StoredWorkload as_seen(const LiveWorkload& live, LazyVisibility& visibility) {
  if (live.doc.status.preempted_by.empty()) return live.stored;
  WorkloadDocument redacted = live.doc;
  if (!hide_unseen_preemptor(redacted, visibility)) return live.stored;
  return std::make_shared<const std::string>(encode_workload(redacted));
}

// A workload's place in a sort other than the default; its text borrowed
// from the workload (no copy of any document).
struct SortedWorkload {
  const LiveWorkload* live;
  uint64_t uid;
  int64_t number;
  std::string_view text;
};

// The value of the workload's priority class under the current policy; the
// one its request was compiled with when the class is gone (or unnamed).
int64_t sorted_priority(const LiveWorkload& live, const CompiledPolicy* policy) {
  if (policy != nullptr) {
    for (const CompiledPriorityClass& priority_class : policy->priority_classes()) {
      if (priority_class.name == live.doc.workload.spec.priority_class) return priority_class.value;
    }
  }
  return live.request.priority;
}

SortedWorkload sorted_workload(const LiveWorkload& live, WorkloadSortKey key,
                               const CompiledPolicy* policy) {
  const Workload& workload = live.doc.workload;
  const uint64_t uid = live.id().value();
  switch (key) {
    case WorkloadSortKey::kAge: return {&live, uid, static_cast<int64_t>(uid), {}};
    case WorkloadSortKey::kName: return {&live, uid, 0, workload.meta.name};
    case WorkloadSortKey::kNamespace: return {&live, uid, 0, workload.meta.namespace_name};
    case WorkloadSortKey::kPhase: return {&live, uid, static_cast<int64_t>(live.phase()), {}};
    case WorkloadSortKey::kPriority: return {&live, uid, sorted_priority(live, policy), {}};
    case WorkloadSortKey::kUser: return {&live, uid, 0, live.doc.status.submitted_by};
  }
  return {&live, uid, 0, {}};
}

// The sort's order (workload_sort.h): the number, the text, then the uid.
bool sorted_before(WorkloadSort sort, const SortedWorkload& a, const SortedWorkload& b) {
  if (a.number != b.number) return sort.descending ? a.number > b.number : a.number < b.number;
  if (a.text != b.text) return sort.descending ? a.text > b.text : a.text < b.text;
  return a.uid < b.uid;
}

// One page in a sort other than by age: the ids and keys of what
// matches after the cursor, only the first `limit` of them ordered.
WorkloadPage sorted_page(const ServerState& state, const WorkloadQuery& query,
                         const VisibleNamespaces& visible, LazyVisibility& visibility) {
  const CompiledPolicy* policy = state.policy.compiled().get();
  const SortedWorkload cursor{nullptr, query.after_uid, query.after_value.number,
                              query.after_value.text};
  const bool from_start = query.after_uid == 0 && query.after_value == WorkloadSortValue{};
  std::vector<SortedWorkload> rest;
  for (const auto& [id, live] : state.workloads.all()) {
    if (!matches(live, query) || !visible.contains(live.doc.workload.meta.namespace_name)) {
      continue;
    }
    const SortedWorkload entry = sorted_workload(live, query.sort.key, policy);
    if (from_start || sorted_before(query.sort, cursor, entry)) rest.push_back(entry);
  }
  const size_t shown = std::min(rest.size(), query.limit);
  const auto before = [&](const SortedWorkload& a, const SortedWorkload& b) {
    return sorted_before(query.sort, a, b);
  };
  std::partial_sort(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(shown), rest.end(),
                    before);
  WorkloadPage page;
  page.items.reserve(shown);
  for (size_t i = 0; i < shown; ++i) {
    page.items.push_back(as_seen(*rest[i].live, visibility));
  }
  if (rest.size() > query.limit) {
    const SortedWorkload& last = rest[query.limit - 1];
    page.continue_token =
        encode_workload_cursor(query.sort, {{last.number, std::string(last.text)}, last.uid});
  }
  return page;
}

// A page by age (uid order) or -age (its reverse): a walk of the table from
// the cursor, nothing sorted.
template <typename Iterator>
WorkloadPage uid_order_page(Iterator it, Iterator end, const WorkloadQuery& query,
                            const VisibleNamespaces& visible, LazyVisibility& visibility) {
  WorkloadPage page;
  page.items.reserve(std::min<size_t>(query.limit, 10000));
  uint64_t last = 0;
  for (; it != end; ++it) {
    if (!matches(it->second, query) ||
        !visible.contains(it->second.doc.workload.meta.namespace_name)) {
      continue;
    }
    if (page.items.size() == query.limit) {
      page.continue_token =
          encode_workload_cursor(query.sort, {{static_cast<int64_t>(last), ""}, last});
      break;
    }
    page.items.push_back(as_seen(it->second, visibility));
    last = it->first.value();
  }
  return page;
}

Status no_such_workload(const std::string& ns, const std::string& name) {
  return not_found("workload " + ns + "/" + name + " does not exist");
}

}  // namespace

Result<StoredWorkload> WorkloadService::create(const Principal& caller, const Workload& workload,
                                               WorkloadId id) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(
      caller, "create", "workloads", workload.meta.namespace_name, workload.meta.name));
  if (workload.meta.labels.contains(kReplicaOfLabel)) {
    return invalid_argument(
        std::string("the label ") + kReplicaOfLabel + " is set by allotd on an endpoint's replicas",
        "metadata.labels");
  }
  // Validated and inserted under one policy (policy_gate.h).
  const SubmitHold submit(cluster_.policy_gate());
  const Timestamp now = clock_.now();
  LiveWorkload live;
  {
    WriterLock lock(cluster_.mutex());
    ServerState& state = cluster_.state();
    ALLOT_ASSIGN_OR_RETURN(live, new_workload(state.policy, workload, id, now, caller.subject));
    ALLOT_RETURN_IF_ERROR(check_submit_contracts(state, workload, now));
    if (!state.workloads.reserve_name(live.key())) {
      return Status(ErrorCode::kAlreadyExists, "workload " + live.key() + " already exists");
    }
  }
  WriteBatch batch;
  enter_phase(live, WorkloadPhase::kPending, "Submitted", "waiting for admission", now, batch);
  const Status committed = cluster_.commit_creation(std::move(batch));
  WriterLock lock(cluster_.mutex());
  ServerState& state = cluster_.state();
  state.workloads.release_name(live.key());
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "the workload was not stored: " + committed.message());
  }
  StoredWorkload stored = live.stored;
  state.workloads.insert(std::move(live));
  const LiveWorkload& inserted = *state.workloads.find(id);
  state.activity.track(inserted);
  // A submit queued behind an identical blocked one changes no plan: the
  // next cycle that runs for another reason plans it (settled_queues.h).
  if (!state.settled.joins(pending_request(inserted))) signal_.wake(LoopSignal::Wake::kSubmit);
  return stored;
}

Result<WorkloadView> WorkloadService::cancel(const Principal& caller, const std::string& ns,
                                             const std::string& name) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "cancel", "workloads", ns, name));
  WorkloadView view;
  {
    // The writer's end waits until the cancel is stored and its pods are
    // told to stop; it holds no lock meanwhile.
    ClusterWriter writer(cluster_);
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    LiveWorkload* live = state.workloads.find(ns, name);
    if (live == nullptr) return no_such_workload(ns, name);
    WriteBatch batch;
    Actions actions;
    ALLOT_RETURN_IF_ERROR(cancel_workload(*live, state, clock_.now(), batch, actions));
    if (is_endpoint_parent(live->doc.workload)) {
      reconcile_endpoint(
          state, *live, [this] { return cluster_.allocate_id(); }, clock_.now(), batch, actions);
    }
    view.doc = live->doc;
    lock.queue(std::move(batch), std::move(actions));
  }
  signal_.wake();
  return view;
}

Result<WorkloadView> WorkloadService::resume(const Principal& caller, const std::string& ns,
                                             const std::string& name) {
  ALLOT_RETURN_IF_ERROR(
      cluster_.access().authorize(caller, "update", "workloads/resume", ns, name));
  WorkloadView view;
  {
    ClusterWriter writer(cluster_);  // its end waits for the commit, as cancel's
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    LiveWorkload* live = state.workloads.find(ns, name);
    if (live == nullptr) return no_such_workload(ns, name);
    WriteBatch batch;
    ALLOT_RETURN_IF_ERROR(resume_space(*live, state, caller.subject, clock_.now(), batch));
    view.doc = live->doc;
    lock.queue(std::move(batch), Actions());
  }
  signal_.wake();
  return view;
}

Status WorkloadService::remove(const Principal& caller, const std::string& ns,
                               const std::string& name) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "delete", "workloads", ns, name));
  {
    ClusterWriter writer(cluster_);  // its end waits for the commit, as cancel's
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    LiveWorkload* live = state.workloads.find(ns, name);
    if (live == nullptr) return no_such_workload(ns, name);
    const WorkloadId id = live->id();
    WriteBatch batch;
    Actions actions;
    if (!is_final(live->phase())) {
      ALLOT_RETURN_IF_ERROR(cancel_workload(*live, state, clock_.now(), batch, actions));
      // Stored with the stop, so that a restart before the pods stopped still erases it.
      live->doc.status.deleting = true;
      store_record(*live, batch);
    }
    if (is_endpoint_parent(live->doc.workload)) {
      live->doc.status.deleting = true;  // its replicas go with it
      reconcile_endpoint(
          state, *live, [this] { return cluster_.allocate_id(); }, clock_.now(), batch, actions);
    }
    state.erase_when_stopped.push_back(id);
    erase_deleted_workloads(state, batch);
    lock.queue(std::move(batch), std::move(actions));
  }
  signal_.wake();
  return {};
}

Result<WorkloadPage> WorkloadService::list(const Principal& caller,
                                           const WorkloadQuery& query) const {
  ALLOT_ASSIGN_OR_RETURN(const VisibleNamespaces visible,
                         visible_namespaces(cluster_.access(), caller, "workloads", query));
  LazyVisibility visibility(cluster_.access(), caller);
  const CommittedRead read(cluster_);
  const auto& all = cluster_.view().workloads.all();
  if (query.sort.key != WorkloadSortKey::kAge) {
    return sorted_page(cluster_.view(), query, visible, visibility);
  }
  if (!query.sort.descending) {
    return uid_order_page(all.upper_bound(WorkloadId(query.after_uid)), all.end(), query, visible,
                          visibility);
  }
  const auto newest =
      query.after_uid == 0
          ? all.rbegin()
          : std::make_reverse_iterator(all.lower_bound(WorkloadId(query.after_uid)));
  return uid_order_page(newest, all.rend(), query, visible, visibility);
}

Result<WorkloadView> WorkloadService::get(const Principal& caller, const std::string& ns,
                                          const std::string& name) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "get", "workloads", ns, name));
  const Timestamp now = clock_.now();
  const CommittedRead read(cluster_);
  const LiveWorkload* live = cluster_.view().workloads.find(ns, name);
  if (live == nullptr) return no_such_workload(ns, name);
  WorkloadView view = workload_view(*live, cluster_.view(), now);
  if (cluster_.view().backend_job) {  // the executor's last poll, fresher than the stored one
    if (std::optional<BackendJob> job = cluster_.view().backend_job(live->id())) {
      view.doc.status.backend = std::move(job);
    }
  }
  if (is_endpoint_parent(live->doc.workload)) {
    view.doc.status.replicas = replica_counts(cluster_.view().workloads, *live);
  }
  LazyVisibility visibility(cluster_.access(), caller);
  hide_unseen_preemptor(view.doc, visibility);
  return view;
}

Result<WorkloadId> WorkloadService::id_of(const std::string& ns, const std::string& name) const {
  ReaderLock lock(cluster_.mutex());
  const LiveWorkload* live = cluster_.view().workloads.find(ns, name);
  if (live == nullptr) return no_such_workload(ns, name);
  return live->id();
}

Result<std::vector<WorkloadEventView>> WorkloadService::events(const Principal& caller,
                                                               const std::string& ns,
                                                               const std::string& name) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "list", "events", ns, name));
  ALLOT_ASSIGN_OR_RETURN(const WorkloadId id, id_of(ns, name));
  ALLOT_ASSIGN_OR_RETURN(const std::vector<EventRecord> events, cluster_.store().events(id));
  const VisibleNamespaces visible = workload_visibility(cluster_.access(), caller);
  std::vector<WorkloadEventView> views;
  views.reserve(events.size());
  for (const EventRecord& event : events) {
    views.push_back({event.sequence, Timestamp::from_millis(event.at_ms), event.type, event.reason,
                     redact_message(event.message, visible)});
  }
  return views;
}

Result<LogChunk> WorkloadService::log(const Principal& caller, const std::string& ns,
                                      const std::string& name, int32_t pod, int64_t offset) const {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "get", "workloads/logs", ns, name));
  WorkloadId id;
  int64_t pods = 0;
  {
    ReaderLock lock(cluster_.mutex());
    const LiveWorkload* live = cluster_.view().workloads.find(ns, name);
    if (live == nullptr) return no_such_workload(ns, name);
    id = live->id();
    for (const PodSet& pod_set : live->doc.workload.spec.pod_sets) pods += pod_set.count;
  }
  if (pod < 0 || pod >= pods) {
    return not_found("workload " + ns + "/" + name + " has no pod " + std::to_string(pod) +
                     " (its pods are 0 to " + std::to_string(pods - 1) + ")");
  }
  constexpr int64_t kMaxChunk = 1 << 20;
  Executor& executor = actions_.executor();
  LogChunk chunk;
  chunk.path = executor.log_location({id, pod});
  Result<std::string> data = executor.read_log({id, pod}, offset, kMaxChunk);
  if (!data.ok() && data.status().code() == ErrorCode::kNotFound) {
    chunk.next_offset = offset;  // not started yet: nothing to show
    return chunk;
  }
  if (!data.ok()) return data.status();
  chunk.data = std::move(data).value();
  chunk.next_offset = offset + static_cast<int64_t>(chunk.data.size());
  return chunk;
}

}  // namespace allot
