// Contract (issue 15, item 3; DESIGN.md section 8): the connection contract of
// one project to one cluster, and its lifecycle state.
//
// Contract: plain values. The spec is what a user applies (every field of
// section 8); the status (phase and history) is written by allotd only, by
// the transitions of governance/contract_lifecycle.h, and stored apart from
// the spec (kind ContractStatus), so that re-applying a spec keeps it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/object_meta.h"
#include "model/workload.h"

namespace allot {

struct ContractOwners {
  std::string business;  // each a directory User's userName or a Group's displayName
  std::string operations;
  std::string cost;

  friend bool operator==(const ContractOwners&, const ContractOwners&) = default;
};

// The cluster of the connection: `name` is an applied Cluster; the other
// fields, when given, must agree with it.
struct ContractCluster {
  std::string name;
  std::string account;
  std::string region;
  std::string orchestrator;  // local, slurm, kubernetes: the cluster's backend
  std::string orchestrator_version;

  friend bool operator==(const ContractCluster&, const ContractCluster&) = default;
};

struct SlurmScope {
  std::string account;
  std::string partition;

  friend bool operator==(const SlurmScope&, const SlurmScope&) = default;
};

struct ContractTerms {
  std::string monitoring;
  std::string support;
  std::string decommission;

  friend bool operator==(const ContractTerms&, const ContractTerms&) = default;
};

struct ContractSpec {
  std::string project;
  ContractOwners owners;
  ContractCluster cluster;
  std::string project_role;
  std::string access_role;
  std::vector<WorkloadKind> approved_workload_kinds;
  std::string data_classification;
  std::vector<std::string> namespaces;
  std::optional<SlurmScope> slurm_scope;
  std::string scheduling_policy_owner;
  std::string exception_owner;
  ContractTerms terms;
  Duration review_interval = Duration::hours(int64_t{24} * 90);
  Duration review_grace_period = Duration::hours(int64_t{24} * 14);
  // An http(s) URL a review falling due is POSTed to (issue 15, item 5); empty: none.
  std::string review_webhook;
  // The Signals that monitor the project (issue 15, item 5): each names an
  // applied Signal; one that stops having data opens a review (monitoring
  // coverage dropped).
  std::vector<std::string> monitoring_signals;

  friend bool operator==(const ContractSpec&, const ContractSpec&) = default;
};

struct Contract {
  ObjectMeta meta;
  ContractSpec spec;

  friend bool operator==(const Contract&, const Contract&) = default;
};

enum class ContractPhase : uint8_t { kDraft, kApproved, kActive, kUnderReview, kRevoked };

// What a person does to a contract: POST /api/v1/contracts/{name}/{action}.
enum class ContractAction : uint8_t { kCreate, kApprove, kActivate, kReview, kRenew, kRevoke };

// One step of a contract's history.
struct ContractTransition {
  ContractAction action = ContractAction::kCreate;
  ContractPhase from = ContractPhase::kDraft;
  ContractPhase to = ContractPhase::kDraft;
  std::string by;  // the named person
  Timestamp at;
  std::string reason;

  friend bool operator==(const ContractTransition&, const ContractTransition&) = default;
};

struct ContractStatus {
  ContractPhase phase = ContractPhase::kDraft;
  std::string requested_by;                 // who created it
  std::string approved_by;                  // empty until approved
  std::optional<Timestamp> reviewed_at;     // the last activation or renewal
  std::vector<ContractTransition> history;  // oldest first

  friend bool operator==(const ContractStatus&, const ContractStatus&) = default;
};

std::string_view contract_phase_name(ContractPhase phase);
std::string_view contract_action_name(ContractAction action);

}  // namespace allot
