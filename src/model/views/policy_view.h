// Read models of the policy: the changes an apply made (or would make), and
// one policy object as applied, with a team's quota status.
//
// Contract: plain values. PolicyObjectView::document is the object as applied,
// in JSON (the manifest's canonical form, as it is stored).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/contract.h"
#include "model/policy_exception.h"
#include "model/views/quota_usage_view.h"

namespace allot {

struct PolicyChange {
  std::string kind;
  std::string name;    // "namespace/name" for workloads, Roles and RoleBindings
  std::string action;  // "created", "configured", "unchanged", "deleted"
  std::vector<std::string> diff;

  friend bool operator==(const PolicyChange&, const PolicyChange&) = default;
};

struct ApplyResult {
  bool dry_run = false;
  std::vector<PolicyChange> changes;  // Workload entries too ("created")
  // What carrying the policy into the backend changed there (Slurm: the
  // sacctmgr commands; dry run: would change, and "drift: ..." lines).
  std::vector<std::string> backend_changes = {};
};

// A Budget's standing as last evaluated (service/control/budget_monitor.h).
struct BudgetStandingView {
  std::optional<Timestamp> from;  // the current period; none outside a fixed one
  std::optional<Timestamp> to;
  double spent = 0;
  double used = 0;  // spent / amount
  std::vector<double> reached;
  bool exhausted = false;
  bool stops_admission = false;
  std::optional<Timestamp> runs_out;  // at the current burn, within the period
  std::string problem;                // why it could not be evaluated, if so

  friend bool operator==(const BudgetStandingView&, const BudgetStandingView&) = default;
};

// A Contract's status with its review schedule (service/control/contract_service.h).
struct ContractStandingView {
  ContractStatus status;
  std::optional<Timestamp> review_due;  // none before activation
  std::optional<Timestamp> grace_ends;

  friend bool operator==(const ContractStandingView&, const ContractStandingView&) = default;
};

// A Signal's state as last evaluated (service/control/signal_monitor.h).
struct SignalStatusView {
  std::string state;  // inactive, pending or firing
  std::optional<Timestamp> since;
  std::vector<std::string> series;  // the series that match ("node=n1,pool=a")
  size_t undelivered = 0;           // its events the webhook has not taken yet

  friend bool operator==(const SignalStatusView&, const SignalStatusView&) = default;
};

struct PolicyObjectView {
  std::string kind;  // the manifest kind ("Team")
  std::string name;
  std::string document;
  // Teams only: the team's quota usage rows.
  std::optional<std::vector<QuotaUsageRow>> quota;
  std::string namespace_name = {};  // Roles and RoleBindings; empty for cluster-scoped kinds
  // Budgets only, once evaluated: the standing in the current period.
  std::optional<BudgetStandingView> budget = {};
  // Contracts only: status.phase, its history and the review schedule.
  std::optional<ContractStandingView> contract = {};
  // PolicyExceptions only: phase, requestedBy, decidedBy and history.
  std::optional<ExceptionStatus> exception = {};
  // Signals only, once evaluated: the state.
  std::optional<SignalStatusView> signal = {};
};

}  // namespace allot
