#include "service/control/policy_service.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "authz/builtin_roles.h"
#include "authz/rbac_validation.h"
#include "governance/contract_revocation.h"
#include "service/control/budget_visibility.h"
#include "service/control/caller_rights.h"
#include "service/control/control_audit.h"
#include "service/control/metering.h"
#include "service/control/policy_installation.h"
#include "service/control/policy_objects.h"
#include "service/control/quota_usage.h"
#include "service/control/rbac_write_check.h"
#include "service/control/review_notices.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

// Names of an apply's workloads are held from their check until the apply is
// in memory (or failed), so that no submit takes one meanwhile.
class ReservedNames {
 public:
  explicit ReservedNames(ClusterState& cluster) : cluster_(cluster) {}
  ~ReservedNames() {
    WriterLock lock(cluster_.mutex());
    for (const std::string& key : keys_) cluster_.state().workloads.release_name(key);
  }
  ReservedNames(const ReservedNames&) = delete;
  ReservedNames& operator=(const ReservedNames&) = delete;

  // Records a name the caller reserved in the state's table.
  void add(std::string key) { keys_.push_back(std::move(key)); }

 private:
  ClusterState& cluster_;
  std::vector<std::string> keys_;
};

// The policy documents whose apply changes them.
void put_changed_documents(const PolicyState& next, const std::vector<PolicyChange>& changes,
                           WriteBatch& batch) {
  for (const auto& [key, json] : next.documents()) {
    for (const PolicyChange& change : changes) {
      if (change.kind == key.first && change.name == key.second && change.action != "unchanged") {
        batch.put_objects.push_back({key.first, key.second, json.dump()});
      }
    }
  }
}

// Issue 10, isolation 9: a team's namespace may change only while it has no
// unfinished work; otherwise its waiting work would move onto the quota of
// the team that takes the old name while its pods still run as this team.
Status check_namespace_changes(const ServerState& state, const Policy& next) {
  for (const Team& before : state.policy.policy().teams) {
    const Team* after = next.find_team(before.meta.name);
    if (after == nullptr || after->namespace_name == before.namespace_name) continue;
    for (const auto& [id, live] : state.workloads.active()) {
      if (is_final(live->phase()) || live->doc.status.team != before.meta.name) continue;
      return failed_precondition(
          "team '" + before.meta.name + "' still has unfinished workloads (" + live->key() +
              "): its namespace cannot change from '" + before.namespace_name + "' to '" +
              after->namespace_name + "' until they finish or are cancelled",
          "Team/" + before.meta.name + ".spec.namespace");
    }
  }
  return {};
}

// A workload of an apply: its name reserved (until the apply is in memory or
// failed), then checked against the policy as it will be.
Result<LiveWorkload> admit_new_workload(ServerState& state, const PolicyState& next,
                                        const Workload& workload, Timestamp now,
                                        const std::string& submitted_by, ReservedNames& reserved) {
  const std::string key = workload.meta.namespace_name + "/" + workload.meta.name;
  if (!state.workloads.reserve_name(key)) {
    return Status(ErrorCode::kAlreadyExists, "workload " + key + " already exists",
                  "Workload/" + key);
  }
  reserved.add(key);
  Result<LiveWorkload> live = new_workload(next, workload, WorkloadId(), now, submitted_by);
  if (!live.ok()) {
    return Status(live.status().code(), live.status().message(),
                  "Workload/" + key + ": " + live.status().details());
  }
  return live;
}

bool has_rbac_objects(const RbacPolicy& rbac) {
  return !rbac.roles.empty() || !rbac.cluster_roles.empty() || !rbac.role_bindings.empty() ||
         !rbac.cluster_role_bindings.empty();
}

// Roles and RoleBindings live in a namespace; the other kinds in none. A list
// of a namespaced kind may leave it out (every namespace the caller may list).
bool is_namespaced_kind(const std::string& kind) { return kind == "Role" || kind == "RoleBinding"; }

Status check_object_namespace(const std::string& kind, const std::string& namespace_name,
                              bool list = false) {
  const bool namespaced = is_namespaced_kind(kind);
  if (namespaced && namespace_name.empty() && !list) {
    return invalid_argument("a " + kind + " lives in a namespace: name it", "namespace");
  }
  if (!namespaced && !namespace_name.empty()) {
    return invalid_argument("a " + kind + " is cluster-scoped and has no namespace", "namespace");
  }
  return {};
}

// Refuses a policy under which a namespace that holds objects outside the
// policy (service accounts) belongs to its team no more (namespace_contents.h).
Status check_namespaces_kept(const Policy& before, const Policy& after,
                             const NamespaceContents* contents) {
  if (contents == nullptr) return {};
  for (const Team& team : before.teams) {
    const Team* kept = after.find_team(team.meta.name);
    if (kept != nullptr && kept->namespace_name == team.namespace_name) continue;
    const std::optional<std::string> object = contents->first_object_in(team.namespace_name);
    if (!object) continue;
    const std::string change = kept == nullptr
                                   ? "cannot be deleted"
                                   : "cannot move from namespace '" + team.namespace_name +
                                         "' to '" + kept->namespace_name + "'";
    return failed_precondition("team '" + team.meta.name + "' " + change + " while its " + *object +
                                   " lives in '" + team.namespace_name +
                                   "': delete the team's service accounts first",
                               "Team/" + team.meta.name);
  }
  return {};
}

bool changes_nothing(const std::vector<PolicyChange>& changes) {
  return std::all_of(changes.begin(), changes.end(),
                     [](const PolicyChange& change) { return change.action == "unchanged"; });
}

std::vector<QuotaUsageRow> team_quota(const ServerState& state, const std::string& team) {
  std::vector<QuotaUsageRow> rows;
  for (QuotaUsageRow& row : quota_usage(state)) {
    if (row.team == team) rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

Result<ApplyResult> PolicyService::apply(const Principal& caller, const ParsedManifests& parsed,
                                         bool dry_run) {
  ALLOT_RETURN_IF_ERROR(authorize_apply(cluster_.access(), caller, parsed));
  {
    ReaderLock lock(cluster_.mutex());
    ALLOT_RETURN_IF_ERROR(check_exception_appliers(cluster_.access(), caller, parsed.bundle.policy,
                                                   cluster_.view().policy.policy()));
  }
  if (parsed.bundle.scenario) {
    return invalid_argument("a Scenario is for `allot simulate`, not for allotd");
  }
  ApplyResult result{dry_run, {}};
  const bool has_rbac = has_rbac_objects(parsed.bundle.rbac);
  // Nothing to store or install: a read of the policy in memory, which is the
  // stored one (a change commits before it installs). RBAC objects are
  // authorized against the policy in force, under apply_mu_, first.
  if (parsed.bundle.workloads.empty() && !has_rbac) {
    ReaderLock lock(cluster_.mutex());
    result.changes = cluster_.view().policy.changes_of(parsed.documents);
    if (changes_nothing(result.changes)) return result;
    result.changes.clear();
  }
  MutexLock apply_lock(apply_mu_);
  // Merged, validated and compiled before the gate: submits go on meanwhile.
  const PolicyState current = current_policy();
  if (has_rbac) {
    ALLOT_RETURN_IF_ERROR(
        authorize_rbac_writes(cluster_.access(), caller, parsed.bundle.rbac, current));
  }
  ALLOT_ASSIGN_OR_RETURN(PolicyState next, current.with_applied(parsed.documents, result.changes));
  if (parsed.bundle.workloads.empty() && changes_nothing(result.changes)) return result;
  {
    // Only Approved exceptions apply to the policy the apply is checked under.
    ReaderLock lock(cluster_.mutex());
    ExceptionStatuses statuses = cluster_.view().exception_statuses;
    ALLOT_ASSIGN_OR_RETURN(
        const ExceptionStatusChanges exceptions,
        exception_status_changes(statuses, next.policy(), result.changes, caller, clock_.now()));
    install_exception_statuses(exceptions, statuses);
    next = next.with_withheld_exceptions(withheld_exceptions(statuses));
  }
  ALLOT_ASSIGN_OR_RETURN(next, next.with_exceptions_at(clock_.now()));
  {
    ReaderLock lock(cluster_.mutex());
    ALLOT_RETURN_IF_ERROR(check_contract_changes(cluster_.view().contracts, current.policy(),
                                                 next.policy(), result.changes, directory_));
  }
  if (!parsed.bundle.workloads.empty() || !keeps_every_request(current, next)) {
    return apply_under_gate(caller, parsed, current, std::move(next), std::move(result));
  }
  // A change that gives every workload the request it has (a quota, a
  // cohort, a weight) needs no gate: a submit validated under either policy
  // enters the same, and no team's namespace or existence changes.
  ALLOT_RETURN_IF_ERROR(carry(next, result.changes, dry_run, result.backend_changes));
  if (dry_run) return result;
  ALLOT_RETURN_IF_ERROR(
      store_and_install(std::move(next), {}, result.changes, clock_.now(), caller));
  return result;
}

Result<ApplyResult> PolicyService::apply_under_gate(const Principal& caller,
                                                    const ParsedManifests& parsed,
                                                    const PolicyState& current, PolicyState next,
                                                    ApplyResult result) {
  const PolicyChangeHold change(cluster_.policy_gate());  // no submit in flight (policy_gate.h)
  ALLOT_RETURN_IF_ERROR(
      check_namespaces_kept(current.policy(), next.policy(), namespace_contents_));
  std::vector<LiveWorkload> created;
  const Timestamp now = clock_.now();
  ReservedNames reserved(cluster_);
  {
    WriterLock lock(cluster_.mutex());
    ServerState& state = cluster_.state();
    ALLOT_RETURN_IF_ERROR(check_namespace_changes(state, next.policy()));
    // Workloads are validated against the policy as it will be.
    for (const Workload& workload : parsed.bundle.workloads) {
      ALLOT_ASSIGN_OR_RETURN(LiveWorkload live, admit_new_workload(state, next, workload, now,
                                                                   caller.subject, reserved));
      result.changes.push_back({"Workload", live.key(), "created", {}});
      created.push_back(std::move(live));
    }
  }
  ALLOT_RETURN_IF_ERROR(carry(next, result.changes, result.dry_run, result.backend_changes));
  if (result.dry_run) return result;
  ALLOT_RETURN_IF_ERROR(
      store_and_install(std::move(next), std::move(created), result.changes, now, caller));
  return result;
}

Status PolicyService::store_and_install(PolicyState next, std::vector<LiveWorkload> created,
                                        const std::vector<PolicyChange>& changes, Timestamp now,
                                        const Principal& caller) {
  const std::string& by = caller.subject;
  WriteBatch batch;
  put_changed_documents(next, changes, batch);
  MeteringChanges metering = metering_changes_of(next, now);
  put_metering_changes(metering, batch);
  ContractStatusChanges contracts = new_contract_statuses(changes, by, now);
  put_contract_statuses(contracts, batch);
  OpenedReviews reviews = reviews_opened_by(next, now);
  put_opened_reviews(reviews, batch);
  ExceptionStatusChanges exceptions;
  {
    ReaderLock lock(cluster_.mutex());
    ALLOT_ASSIGN_OR_RETURN(
        exceptions, exception_status_changes(cluster_.view().exception_statuses, next.policy(),
                                             changes, caller, now));
  }
  put_exception_statuses(exceptions, batch);
  put_quota_changes(next, exceptions, now, metering, batch);
  for (LiveWorkload& live : created) {
    live.doc.uid = cluster_.allocate_id();
    live.request.id = live.doc.uid;
    enter_phase(live, WorkloadPhase::kPending, "Submitted", "waiting for admission", now, batch);
  }
  // Stored before it is installed, holding no lock that cancels or the
  // admission loop need: nothing in memory changes until it is stored.
  const WriteBatch told = batch;  // for the change feed, once installed
  const Status committed = cluster_.store().commit(std::move(batch));
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "nothing was applied: " + committed.message());
  }
  install(std::move(next), std::move(created), std::move(metering), contracts, std::move(reviews),
          exceptions);
  cluster_.publish(told);
  return {};
}

OpenedReviews PolicyService::reviews_opened_by(const PolicyState& next, Timestamp now) const {
  ReaderLock lock(cluster_.mutex());
  const ServerState& state = cluster_.view();
  const std::vector<ReviewDue> due =
      event_reviews_due(state.policy.policy(), next.policy(), state.contracts);
  return open_reviews(due, next.policy(), state.contracts, now);
}

MeteringChanges PolicyService::metering_changes_of(const PolicyState& next, Timestamp now) const {
  ReaderLock lock(cluster_.mutex());
  MeteringChanges changes = metering_changes(cluster_.view().metering, next.policy(),
                                             next.backend_nodes(), next.compiled().get(), now);
  changes.quotas.clear();  // put_quota_changes(), once the exceptions' statuses are known
  return changes;
}

void PolicyService::put_quota_changes(const PolicyState& next,
                                      const ExceptionStatusChanges& exceptions, Timestamp now,
                                      MeteringChanges& metering, WriteBatch& batch) const {
  ReaderLock lock(cluster_.mutex());
  ExceptionStatuses statuses = cluster_.view().exception_statuses;
  install_exception_statuses(exceptions, statuses);
  const PolicyState in_force = policy_under_exception_statuses(next, statuses, now);
  metering.quotas = quota_changes(cluster_.view().metering.quotas, in_force.compiled().get(), now);
  for (const TeamQuotaInterval& q : metering.quotas)
    batch.put_objects.push_back(team_quota_object(q));
}

void PolicyService::install(PolicyState next, std::vector<LiveWorkload> created,
                            MeteringChanges metering, const ContractStatusChanges& contracts,
                            OpenedReviews reviews, const ExceptionStatusChanges& exceptions) {
  std::optional<RbacPolicy> rbac;
  {
    // The writer lock: a scheduling cycle planning under it meets no new policy.
    ClusterWriter writer(cluster_);
    WriterLock lock(cluster_.mutex());
    if (cluster_.state().policy.rbac() != next.rbac()) rbac = next.rbac();
    install_exception_statuses(exceptions, cluster_.state().exception_statuses);
    next = policy_under_exception_statuses(std::move(next), cluster_.state().exception_statuses,
                                           clock_.now());
    install_policy(cluster_.state(), std::move(next));
    for (LiveWorkload& live : created) {
      const WorkloadId id = live.id();
      cluster_.state().workloads.insert(std::move(live));
      cluster_.state().activity.track(*cluster_.state().workloads.find(id));
    }
    apply_metering_changes(std::move(metering), cluster_.state().metering);
    install_contract_statuses(contracts, cluster_.state().contracts);
    install_contract_statuses(reviews.statuses, cluster_.state().contracts);
    announce_reviews(std::move(reviews), cluster_.state(), cluster_);
  }
  // Before the answer: the caller's next request is decided by the new bindings.
  if (rbac) cluster_.access().install_rbac(std::move(*rbac));
  signal_.wake();
}

Status PolicyService::carry(const PolicyState& next, const std::vector<PolicyChange>& changes,
                            bool dry_run, std::vector<std::string>& lines) {
  if (backend_ == nullptr) return {};
  const bool policy_changes = std::any_of(changes.begin(), changes.end(), [](const auto& change) {
    return change.kind != "Workload" && change.action != "unchanged";
  });
  if (!policy_changes) return {};
  ALLOT_ASSIGN_OR_RETURN(lines, backend_->carry(next, dry_run));
  return {};
}

Status PolicyService::carry_stored_policy() {
  if (backend_ == nullptr || !backend_->active()) return {};
  MutexLock apply_lock(apply_mu_);
  const PolicyState current = current_policy();
  ALLOT_ASSIGN_OR_RETURN(std::vector<std::string> lines, backend_->carry(current, false));
  return {};
}

PolicyState PolicyService::current_policy() const {
  ReaderLock lock(cluster_.mutex());
  return cluster_.view().policy;
}

Status PolicyService::delete_object(const Principal& caller, const std::string& kind,
                                    const std::string& name, const std::string& namespace_name) {
  ALLOT_RETURN_IF_ERROR(
      cluster_.access().authorize(caller, "delete", resource_of_kind(kind), namespace_name, name));
  ALLOT_RETURN_IF_ERROR(check_object_namespace(kind, namespace_name));
  if (is_builtin_rbac_name(kind, name)) {
    return failed_precondition(kind + " '" + name + "' is built into allot and cannot be deleted");
  }
  MutexLock apply_lock(apply_mu_);
  const PolicyState current = current_policy();
  ALLOT_ASSIGN_OR_RETURN(PolicyState next,
                         current.without(document_key(kind, namespace_name, name)));
  ALLOT_ASSIGN_OR_RETURN(next, next.with_exceptions_at(clock_.now()));
  const PolicyChangeHold change(cluster_.policy_gate());  // no submit in flight (policy_gate.h)
  ALLOT_RETURN_IF_ERROR(
      check_namespaces_kept(current.policy(), next.policy(), namespace_contents_));
  {
    ReaderLock lock(cluster_.mutex());
    const ServerState& state = cluster_.view();
    if (kind == "Contract") ALLOT_RETURN_IF_ERROR(check_contract_delete(state.contracts, name));
    if (kind == "Team") {
      for (const auto& [id, live] : state.workloads.active()) {
        if (!is_final(live->phase()) && live->doc.status.team == name) {
          return failed_precondition("team '" + name + "' still has unfinished workloads (" +
                                     live->key() + "); cancel them first");
        }
      }
    }
  }
  std::vector<std::string> carried;
  ALLOT_RETURN_IF_ERROR(carry(next, {{kind, name, "deleted", {}}}, false, carried));
  WriteBatch batch;
  const DocumentKey key = document_key(kind, namespace_name, name);
  batch.delete_objects.push_back({key.first, key.second});
  MeteringChanges metering = metering_changes_of(next, clock_.now());
  put_metering_changes(metering, batch);
  ContractStatusChanges contracts;
  if (kind == "Contract") contracts.erase.push_back(name);
  put_contract_statuses(contracts, batch);
  ExceptionStatusChanges exceptions;
  if (kind == "PolicyException") exceptions.erase.push_back(name);
  put_exception_statuses(exceptions, batch);
  put_quota_changes(next, exceptions, clock_.now(), metering, batch);
  OpenedReviews reviews = reviews_opened_by(next, clock_.now());
  put_opened_reviews(reviews, batch);
  const WriteBatch told = batch;
  const Status committed = cluster_.store().commit(std::move(batch));
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "nothing was deleted: " + committed.message());
  }
  install(std::move(next), {}, std::move(metering), contracts, std::move(reviews), exceptions);
  cluster_.publish(told);
  return {};
}

Result<std::vector<std::string>> PolicyService::remove_role_bindings(
    const std::vector<std::string>& namespaces, const std::string& why) {
  MutexLock apply_lock(apply_mu_);
  const PolicyState current = current_policy();
  const auto bindings = revocation_bindings(current.rbac(), namespaces);
  std::vector<std::string> removed;
  if (bindings.empty()) return removed;
  PolicyState next = current;
  WriteBatch batch;
  for (const auto& [ns, name] : bindings) {
    const DocumentKey key = document_key("RoleBinding", ns, name);
    ALLOT_ASSIGN_OR_RETURN(next, next.without(key));
    batch.delete_objects.push_back({key.first, key.second});
    removed.push_back(std::string(ns).append("/").append(name));
  }
  ALLOT_ASSIGN_OR_RETURN(next, next.with_exceptions_at(clock_.now()));
  const WriteBatch told = batch;
  const Status committed = cluster_.store().commit(std::move(batch));
  if (!committed.ok()) {
    return Status(ErrorCode::kUnavailable, "no binding was removed: " + committed.message());
  }
  {
    WriterLock lock(cluster_.mutex());
    for (const auto& [ns, name] : bindings) {
      cluster_.audit_control(
          system_audit_event("delete", "rolebindings", ns, name, why, clock_.now()));
    }
  }
  install(std::move(next), {}, {}, {}, {}, {});
  cluster_.publish(told);
  return removed;
}

namespace {

// The namespace of the team a PolicyException relaxes the policy for, where
// the team's roles read it (builtin_roles.cc); empty when there is no such
// exception or team.
std::string exception_namespace(const Policy& policy, const std::string& name) {
  for (const PolicyException& e : policy.exceptions) {
    if (e.meta.name != name) continue;
    const Team* team = policy.find_team(e.spec.team);
    if (team == nullptr) return {};
    return team->namespace_name.empty() ? team->meta.name : team->namespace_name;
  }
  return {};
}

// Where `caller` may list PolicyExceptions: everywhere (cluster-wide `list`),
// or the namespaces of the teams whose roles it holds; denied when neither.
Result<VisibleNamespaces> exception_visibility(const AccessControl& access,
                                               const Principal& caller) {
  const Status cluster_wide = access.authorize(caller, "list", "policyexceptions", "");
  if (cluster_wide.ok()) return VisibleNamespaces{true, {}};
  ALLOT_ASSIGN_OR_RETURN(VisibleNamespaces visible,
                         visible_namespaces(access, caller, "policyexceptions", {}));
  if (!visible.everywhere && visible.namespaces.empty()) return cluster_wide;
  return visible;
}

// Where `caller` may list Budgets (budget_visibility.h): everywhere, or the
// namespaces where it holds the roles that list them; denied when neither
// and it owns no project budget's contract.
Result<VisibleNamespaces> budget_visibility(const ClusterState& cluster, const Principal& caller) {
  VisibleNamespaces visible = budget_list_reach(cluster.access(), caller);
  if (visible.everywhere || !visible.namespaces.empty()) return visible;
  const CommittedRead read(cluster);
  if (owns_any_budget_contract(cluster.view().policy.policy(), caller)) return visible;
  return cluster.access().authorize(caller, "list", "budgets", "");
}

}  // namespace

Result<std::vector<PolicyObjectView>> PolicyService::list_objects(
    const Principal& caller, const std::string& kind, const std::string& namespace_name) const {
  ALLOT_RETURN_IF_ERROR(check_object_namespace(kind, namespace_name, /*list=*/true));
  const std::string resource = resource_of_kind(kind);
  VisibleNamespaces visible{true, {}};
  if (is_namespaced_kind(kind)) {
    WorkloadQuery where;
    where.namespace_name = namespace_name;
    ALLOT_ASSIGN_OR_RETURN(visible, visible_namespaces(cluster_.access(), caller, resource, where));
  } else if (kind == "Budget") {
    ALLOT_ASSIGN_OR_RETURN(visible, budget_visibility(cluster_, caller));
  } else if (kind == "PolicyException") {
    ALLOT_ASSIGN_OR_RETURN(visible, exception_visibility(cluster_.access(), caller));
  } else {
    ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(caller, "list", resource, ""));
  }
  std::vector<PolicyObjectView> items = builtin_objects(kind);
  const CommittedRead read(cluster_);
  for (const auto& [key, document] : cluster_.view().policy.documents()) {
    if (key.first != kind) continue;
    PolicyObjectView view = object_view(key, document);
    if (kind == "Budget") view.budget = budget_standing(cluster_.view().budgets, view.name);
    if (kind == "Contract") {
      view.contract =
          contract_standing(cluster_.view().policy.policy(), cluster_.view().contracts, view.name);
    }
    if (kind == "Signal") view.signal = signal_status(cluster_.view().signals, view.name);
    if (kind == "PolicyException") {
      view.exception =
          exception_standing_at(cluster_.view().exception_statuses, cluster_.view().policy.policy(),
                                view.name, clock_.now());
    }
    const Policy& policy = cluster_.view().policy.policy();
    bool shown = visible.contains(view.namespace_name);
    if (kind == "Budget") shown = budget_readable(policy, visible, caller, view.name);
    if (kind == "PolicyException") shown = visible.contains(exception_namespace(policy, view.name));
    if (shown) items.push_back(std::move(view));
  }
  return items;
}

Result<PolicyObjectView> PolicyService::get_object(const Principal& caller, const std::string& kind,
                                                   const std::string& name,
                                                   const std::string& namespace_name) const {
  const Status allowed =
      cluster_.access().authorize(caller, "get", resource_of_kind(kind), namespace_name, name);
  if (!allowed.ok()) {
    // A Budget is also read where its team (or its contract's namespaces)
    // lives, by the roles there, and by its contract's owners
    // (budget_visibility.h); a PolicyException where its team lives, by the
    // team's roles.
    if (kind != "Budget" && kind != "PolicyException") return allowed;
    std::vector<std::string> namespaces;
    bool owner = false;
    {
      const CommittedRead read(cluster_);
      const Policy& policy = cluster_.view().policy.policy();
      if (kind == "Budget") {
        namespaces = budget_namespaces(policy, name);
        owner = owns_budget_contract(policy, caller, name);
      } else if (std::string ns = exception_namespace(policy, name); !ns.empty()) {
        namespaces.push_back(std::move(ns));
      }
    }
    const std::string resource = resource_of_kind(kind);
    const bool granted =
        owner || std::any_of(namespaces.begin(), namespaces.end(), [&](const std::string& ns) {
          return cluster_.access().authorize(caller, "get", resource, ns, name).ok();
        });
    if (!granted) return allowed;
  }
  ALLOT_RETURN_IF_ERROR(check_object_namespace(kind, namespace_name));
  for (PolicyObjectView& builtin : builtin_objects(kind)) {
    if (builtin.name == name) return std::move(builtin);
  }
  const CommittedRead read(cluster_);
  const ServerState& state = cluster_.view();
  const DocumentKey key = document_key(kind, namespace_name, name);
  auto it = state.policy.documents().find(key);
  if (it == state.policy.documents().end()) {
    return not_found(kind + " '" + key.second + "' does not exist");
  }
  PolicyObjectView object = object_view(key, it->second);
  if (kind == "Team" && state.policy.compiled()) object.quota = team_quota(state, name);
  if (kind == "Budget") object.budget = budget_standing(state.budgets, name);
  if (kind == "Contract") {
    object.contract = contract_standing(state.policy.policy(), state.contracts, name);
  }
  if (kind == "Signal") object.signal = signal_status(state.signals, name);
  if (kind == "PolicyException") {
    object.exception =
        exception_standing_at(state.exception_statuses, state.policy.policy(), name, clock_.now());
  }
  return object;
}

}  // namespace allot
