// CompiledPolicy: the Policy and node inventory turned into dense, indexed
// arrays that the scheduler reads on its hot paths.
//
// Contract: immutable after compile(); safe to share between threads. The
// quota tree has one node per team (indices [0, team_count)) followed by one
// node per cohort. Limits are stored per quota node and flavor-resource
// ("fr" = flavor * kResourceCount + resource). A flavor-resource that no quota
// anywhere declares is *ungoverned*: only node capacity limits it.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"
#include "base/time.h"
#include "model/node.h"
#include "model/policy.h"
#include "scheduler/ids.h"

namespace allot {

inline constexpr int64_t kNoLimit = INT64_MAX / 4;
inline constexpr int32_t kNoParent = -1;

struct QuotaLimits {
  int64_t nominal = 0;
  int64_t borrowing_limit = kNoLimit;
  int64_t lending_limit = kNoLimit;
};

struct CompiledTeam {
  std::string name;
  std::string namespace_name;
  int32_t quota_node = 0;                 // == index of the team
  std::vector<FlavorIndex> flavor_order;  // flavors the team may use, in order
  TeamPreemption preemption;
  QueueingStrategy queueing = QueueingStrategy::kBestEffortFifo;
  double fair_share_weight = 1.0;
  std::vector<PriorityClassIndex> allowed_classes;  // empty: all
};

struct CompiledPriorityClass {
  std::string name;
  int32_t value = 0;
  PreemptionPolicy preemption_policy = PreemptionPolicy::kPreemptLowerPriority;
  Duration min_runtime;
  Duration grace_period;
};

struct CompiledNode {
  Node node;
  FlavorIndex flavor;
  int32_t rack = 0;   // dense rack number, unique across flavors
  int32_t block = 0;  // dense block number, unique across flavors
};

class CompiledPolicy {
 public:
  static Result<CompiledPolicy> compile(const Policy& policy, std::vector<Node> nodes);

  [[nodiscard]] int32_t team_count() const { return static_cast<int32_t>(teams_.size()); }
  [[nodiscard]] int32_t cohort_count() const { return static_cast<int32_t>(cohort_names_.size()); }
  [[nodiscard]] int32_t quota_node_count() const { return team_count() + cohort_count(); }
  [[nodiscard]] int32_t flavor_count() const { return static_cast<int32_t>(flavor_names_.size()); }
  [[nodiscard]] int32_t fr_count() const { return flavor_count() * kResourceCount; }
  [[nodiscard]] int32_t node_count() const { return static_cast<int32_t>(nodes_.size()); }
  [[nodiscard]] int32_t rack_count() const { return rack_count_; }
  [[nodiscard]] int32_t block_count() const { return block_count_; }

  [[nodiscard]] const CompiledTeam& team(TeamIndex t) const { return teams_[t.value()]; }
  [[nodiscard]] const std::vector<CompiledTeam>& teams() const { return teams_; }
  [[nodiscard]] const CompiledPriorityClass& priority_class(PriorityClassIndex p) const {
    return classes_[p.value()];
  }
  [[nodiscard]] const std::vector<CompiledPriorityClass>& priority_classes() const {
    return classes_;
  }
  [[nodiscard]] const std::string& flavor_name(FlavorIndex f) const {
    return flavor_names_[f.value()];
  }
  [[nodiscard]] const CompiledNode& node(NodeIndex n) const { return nodes_[n.value()]; }
  [[nodiscard]] const std::vector<CompiledNode>& nodes() const { return nodes_; }
  // Whether the node's inventory marks it healthy and not cordoned, as a
  // dense vector (the snapshot's NodeConditions can still take it out).
  [[nodiscard]] bool node_listed_healthy(NodeIndex n) const { return listed_healthy_[n.value()]; }
  [[nodiscard]] bool node_listed_schedulable(NodeIndex n) const {
    return listed_schedulable_[n.value()];
  }

  // Quota tree structure.
  [[nodiscard]] int32_t parent(int32_t quota_node) const { return parents_[quota_node]; }
  [[nodiscard]] const std::vector<int32_t>& children(int32_t quota_node) const {
    return children_[quota_node];
  }
  [[nodiscard]] bool is_team(int32_t quota_node) const { return quota_node < team_count(); }
  [[nodiscard]] const std::string& quota_node_name(int32_t quota_node) const;
  [[nodiscard]] double quota_node_weight(int32_t quota_node) const { return weights_[quota_node]; }
  [[nodiscard]] const QuotaLimits& limits(int32_t quota_node, int32_t fr) const {
    return limits_[static_cast<size_t>(quota_node) * fr_count() + fr];
  }
  [[nodiscard]] bool governed(int32_t fr) const { return governed_[fr]; }
  // Quota nodes from leaves to roots (children before parents).
  [[nodiscard]] const std::vector<int32_t>& bottom_up_order() const { return bottom_up_; }

  [[nodiscard]] bool fair_sharing() const { return fair_sharing_; }
  // Whether work may be moved for a team's work within its nominal (a
  // cluster's scheduling.consolidation: WithinNominal).
  [[nodiscard]] bool consolidation() const { return consolidation_; }
  [[nodiscard]] Duration cycle() const { return cycle_; }
  // The shortest time between two cycles (SchedulingSettings).
  [[nodiscard]] Duration min_cycle_interval() const { return min_cycle_interval_; }

  // Lookups by user-facing name; invalid ids when absent.
  [[nodiscard]] TeamIndex team_by_namespace(std::string_view ns) const;
  [[nodiscard]] TeamIndex team_by_name(std::string_view name) const;
  [[nodiscard]] PriorityClassIndex priority_class_by_name(std::string_view name) const;
  [[nodiscard]] FlavorIndex flavor_by_name(std::string_view name) const;
  [[nodiscard]] NodeIndex node_by_name(std::string_view name) const;
  [[nodiscard]] CohortIndex cohort_by_name(std::string_view name) const;

  static int32_t fr_of(FlavorIndex f, Resource r) {
    return f.value() * kResourceCount + static_cast<int32_t>(r);
  }

 private:
  void compile_names(const Policy& policy);
  void compile_quota_tree(const Policy& policy);
  [[nodiscard]] CompiledTeam compile_team(const Team& team, int32_t index) const;
  void apply_quota(int32_t quota_node, const std::vector<FlavorQuota>& quota);
  Status compile_nodes(std::vector<Node> nodes);

  std::vector<CompiledTeam> teams_;
  std::vector<std::string> cohort_names_;
  std::vector<CompiledPriorityClass> classes_;
  std::vector<std::string> flavor_names_;
  std::vector<CompiledNode> nodes_;
  std::vector<bool> listed_healthy_;
  std::vector<bool> listed_schedulable_;
  std::vector<int32_t> parents_;
  std::vector<std::vector<int32_t>> children_;
  std::vector<double> weights_;
  std::vector<QuotaLimits> limits_;
  std::vector<bool> governed_;
  std::vector<int32_t> bottom_up_;
  int32_t rack_count_ = 0;
  int32_t block_count_ = 0;
  bool fair_sharing_ = false;
  bool consolidation_ = false;
  Duration cycle_ = Duration::seconds(1);
  Duration min_cycle_interval_;
  std::unordered_map<std::string, uint32_t> team_by_namespace_;
  std::unordered_map<std::string, uint32_t> team_by_name_;
  std::unordered_map<std::string, uint32_t> class_by_name_;
  std::unordered_map<std::string, uint32_t> flavor_by_name_;
  std::unordered_map<std::string, uint32_t> node_by_name_;
  std::unordered_map<std::string, uint32_t> cohort_by_name_;
};

}  // namespace allot
