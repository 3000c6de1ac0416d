// PolicyService: the policy as code (DESIGN.md section 2): apply manifests
// all or nothing (dryRun shows the diff), delete a policy object, read the
// objects as applied with a team's quota status, and `top`.
//
// Contract:
// - apply() validates every document against the policy as it will be
//   (workloads in the same apply included) before anything changes; a failed
//   apply or a failed commit changes nothing (kUnavailable for the commit).
//   One policy change at a time. The new policy is merged and compiled
//   before the policy gate is taken (submits go on meanwhile); it is stored
//   before anything in memory changes, holding no lock that cancels or the
//   admission loop need, then installed under the cluster's writer lock
//   (taken after the gate), so that a scheduling cycle that plans under that
//   lock meets no new policy (admission_loop.h). An apply
//   that brings no workload and gives every workload the request it has (a
//   quota change: policy_installation.h) takes no gate at all; one that
//   changes no document is a read: it stores nothing and waits for no other
//   change. An apply with RBAC objects authorizes them against the policy in
//   force under the same lock (rbac_write_check.h: create or update, and
//   escalation prevention); once committed, AccessControl decides with them.
// - delete_object() refuses to delete what the rest of the policy still
//   names (a team whose namespace holds Roles or RoleBindings included), a
//   team that still has unfinished work, and a built-in role
//   (kFailedPrecondition).
// - An apply or a delete that makes an Active contract's review due (its
//   owners or roles, its cluster's capacity, orchestrator version or
//   classification, the Organization's levels: governance/contract_reviews.h)
//   moves it UnderReview in the same commit, by system:allotd with the
//   reason, and notifies its owners (review_notices.h).
// - A PolicyException is applied by its owner, a team-admin of its team or
//   its approver (exception_state.h): stored Requested (not in force) unless
//   its approver applies it; its status is stored with it and only Approved
//   exceptions reach the scheduler and the admission gate.
// - Reads answer only what is stored (CommittedRead).
// - Every call checks the caller first (caller_rights.h). Thread-safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "api/manifest_parser.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "base/result.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "model/views/quota_usage_view.h"
#include "service/control/backend_carrier.h"
#include "service/control/cluster_state.h"
#include "service/control/contract_state.h"
#include "service/control/exception_state.h"
#include "service/control/live_workload.h"
#include "service/control/loop_signal.h"
#include "service/control/metering.h"
#include "service/control/namespace_contents.h"
#include "service/control/policy_state.h"
#include "service/control/review_notices.h"
#include "service/identity/directory_view.h"

namespace allot {

class PolicyService {
 public:
  PolicyService(ClusterState& cluster, LoopSignal& signal, const Clock& clock)
      : cluster_(cluster), signal_(signal), clock_(clock) {}

  Result<ApplyResult> apply(const Principal& caller, const ParsedManifests& manifests, bool dry_run)
      ALLOT_EXCLUDES(apply_mu_);
  // `kind` is the manifest kind ("Team"); `namespace_name` is for Roles and
  // RoleBindings (required for them, empty for the cluster-scoped kinds).
  Status delete_object(const Principal& caller, const std::string& kind, const std::string& name,
                       const std::string& namespace_name = {}) ALLOT_EXCLUDES(apply_mu_);

  // Deletes every RoleBinding of `namespaces` as one change, on allotd's own
  // authority: a contract's revocation removes its project's bindings
  // (contract_service.h; governance/contract_revocation.h), each audited as
  // user system:allotd, verb delete, resource rolebindings, with `why`.
  // Returns those removed, as namespace/name. kUnavailable when the commit
  // fails (nothing removed).
  // Runs `change` as one policy change (none other meanwhile): a decision on
  // a PolicyException (exception_service.h) never interleaves with an apply
  // that changes the exception's status.
  Status serialized(const std::function<Status()>& change) ALLOT_EXCLUDES(apply_mu_) {
    MutexLock apply_lock(apply_mu_);
    return change();
  }
  Result<std::vector<std::string>> remove_role_bindings(const std::vector<std::string>& namespaces,
                                                        const std::string& why)
      ALLOT_EXCLUDES(apply_mu_);

  // Roles and RoleBindings: of `namespace_name`, or of every namespace where
  // the caller may list them when it is empty. ClusterRoles and
  // ClusterRoleBindings include the built-ins (authz/builtin_roles.h), first.
  [[nodiscard]] Result<std::vector<PolicyObjectView>> list_objects(
      const Principal& caller, const std::string& kind,
      const std::string& namespace_name = {}) const;
  [[nodiscard]] Result<PolicyObjectView> get_object(const Principal& caller,
                                                    const std::string& kind,
                                                    const std::string& name,
                                                    const std::string& namespace_name = {}) const;
  [[nodiscard]] Result<TopView> top(const Principal& caller) const;
  // The signal's fired and resolved events (the SignalEvent documents kept,
  // oldest first), read as the Signal is (`get` on signals); kNotFound when
  // no such Signal is applied and none of its events is kept.
  [[nodiscard]] Result<std::vector<std::string>> signal_history(const Principal& caller,
                                                                const std::string& name) const;

  // What lives in the teams' namespaces outside the policy: a team holding
  // any cannot go or move (namespace_contents.h). Set once, before serving.
  void set_namespace_contents(const NamespaceContents* contents) { namespace_contents_ = contents; }
  // The backend the policy is carried into before it is stored (Slurm:
  // backend_carrier.h); null or inactive: none. Set once, before serving.
  void set_backend(BackendCarrier* backend) { backend_ = backend; }
  // The directory a Contract's owners must be in (contract_state.h); null:
  // no owner exists. Set once, before serving.
  void set_directory(const DirectoryView* directory) { directory_ = directory; }
  // Carries the stored policy into the backend again (at start: what changed
  // there by hand is undone); ok when there is no backend.
  Status carry_stored_policy() ALLOT_EXCLUDES(apply_mu_);

 private:
  // A copy of the policy in memory. Only a policy change changes it, under
  // apply_mu_: while that is held, the copy stays current.
  [[nodiscard]] PolicyState current_policy() const ALLOT_REQUIRES(apply_mu_);
  // An apply that may change requests or brings workloads: validated and
  // installed under the policy gate; its workloads are `caller`'s.
  Result<ApplyResult> apply_under_gate(const Principal& caller, const ParsedManifests& parsed,
                                       const PolicyState& current, PolicyState next,
                                       ApplyResult result) ALLOT_REQUIRES(apply_mu_);
  // Commits the changed documents and the new workloads, then installs them
  // under the cluster's writer lock.
  // The Contracts and PolicyExceptions it creates are requested by `caller`.
  Status store_and_install(PolicyState next, std::vector<LiveWorkload> created,
                           const std::vector<PolicyChange>& changes, Timestamp now,
                           const Principal& caller) ALLOT_REQUIRES(apply_mu_);
  // Installs a committed policy (and the workloads it brings, and the metering
  // changes stored with it) in memory, and its RBAC objects in AccessControl
  // when they changed.
  // REQUIRES: the cluster's writer lock.
  // The reviews it opens (review_notices.h) are announced with it.
  // The exceptions' statuses are installed with it, and the policy in force
  // follows them (only Approved exceptions apply).
  void install(PolicyState next, std::vector<LiveWorkload> created, MeteringChanges metering,
               const ContractStatusChanges& contracts, OpenedReviews reviews,
               const ExceptionStatusChanges& exceptions) ALLOT_REQUIRES(apply_mu_);
  // The reviews of Active contracts that the change to `next` makes due
  // (governance/contract_reviews.h: a contract's owners or roles, its
  // cluster's capacity, version or classification, the Organization's
  // levels): opened at `now` with the change that makes them due.
  [[nodiscard]] OpenedReviews reviews_opened_by(const PolicyState& next, Timestamp now) const
      ALLOT_REQUIRES(apply_mu_);
  // The rate card versions and capacities `next` changes (metering.h); no
  // quotas (put_quota_changes()).
  MeteringChanges metering_changes_of(const PolicyState& next, Timestamp now) const
      ALLOT_REQUIRES(apply_mu_);
  // Sets `metering`'s quota changes (quota_history.h) to those of `next` as
  // installed: under the exceptions' statuses with `exceptions` made (a
  // requested exception is not in force), and puts them in `batch`.
  void put_quota_changes(const PolicyState& next, const ExceptionStatusChanges& exceptions,
                         Timestamp now, MeteringChanges& metering, WriteBatch& batch) const
      ALLOT_REQUIRES(apply_mu_);

  // The policy carried into the backend when a policy document changes
  // (dry run: what would change), before anything is stored; its lines go to
  // `lines`.
  Status carry(const PolicyState& next, const std::vector<PolicyChange>& changes, bool dry_run,
               std::vector<std::string>& lines) ALLOT_REQUIRES(apply_mu_);

  ClusterState& cluster_;
  LoopSignal& signal_;
  const Clock& clock_;
  const NamespaceContents* namespace_contents_ = nullptr;
  BackendCarrier* backend_ = nullptr;
  const DirectoryView* directory_ = nullptr;
  // One policy change at a time; taken before the cluster's writer lock.
  Mutex apply_mu_;
};

}  // namespace allot
