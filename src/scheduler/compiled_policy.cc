#include "scheduler/compiled_policy.h"

#include <algorithm>
#include <map>

namespace allot {
namespace {

template <typename Id>
Id lookup(const std::unordered_map<std::string, uint32_t>& index, std::string_view name) {
  auto it = index.find(std::string(name));
  if (it == index.end()) return Id::invalid();
  return Id(static_cast<typename Id::rep_type>(it->second));
}

// Depth of each quota node (roots have depth 0), used to order bottom-up.
std::vector<int32_t> quota_node_depths(const std::vector<int32_t>& parents) {
  std::vector<int32_t> depth(parents.size(), 0);
  for (size_t i = 0; i < parents.size(); ++i) {
    int32_t d = 0;
    for (int32_t p = parents[i]; p != kNoParent; p = parents[p]) ++d;
    depth[i] = d;
  }
  return depth;
}

}  // namespace

const std::string& CompiledPolicy::quota_node_name(int32_t quota_node) const {
  if (is_team(quota_node)) return teams_[quota_node].name;
  return cohort_names_[quota_node - team_count()];
}

Result<CompiledPolicy> CompiledPolicy::compile(const Policy& policy, std::vector<Node> nodes) {
  ALLOT_RETURN_IF_ERROR(validate_policy(policy));
  CompiledPolicy out;
  for (const auto& cluster : policy.clusters) {
    out.fair_sharing_ = out.fair_sharing_ || cluster.scheduling.fair_sharing;
    out.consolidation_ = out.consolidation_ ||
                         cluster.scheduling.consolidation == ConsolidationPolicy::kWithinNominal;
    out.cycle_ = cluster.scheduling.cycle;
    out.min_cycle_interval_ = cluster.scheduling.min_cycle_interval;
  }
  out.compile_names(policy);
  out.compile_quota_tree(policy);
  ALLOT_RETURN_IF_ERROR(out.compile_nodes(std::move(nodes)));
  return out;
}

void CompiledPolicy::compile_names(const Policy& policy) {
  for (uint32_t i = 0; i < policy.flavors.size(); ++i) {
    flavor_names_.push_back(policy.flavors[i].meta.name);
    flavor_by_name_[policy.flavors[i].meta.name] = i;
  }
  for (uint32_t i = 0; i < policy.priority_classes.size(); ++i) {
    const PriorityClass& pc = policy.priority_classes[i];
    classes_.push_back(
        {pc.meta.name, pc.value, pc.preemption_policy, pc.min_runtime, pc.preemption_grace_period});
    class_by_name_[pc.meta.name] = i;
  }
  for (uint32_t i = 0; i < policy.cohorts.size(); ++i) {
    cohort_names_.push_back(policy.cohorts[i].meta.name);
    cohort_by_name_[policy.cohorts[i].meta.name] = i;
  }
}

void CompiledPolicy::apply_quota(int32_t quota_node, const std::vector<FlavorQuota>& quota) {
  for (const FlavorQuota& fq : quota) {
    const FlavorIndex f = flavor_by_name(fq.flavor);
    for (Resource r : kAllResources) {
      if (!fq.declared[static_cast<size_t>(r)]) continue;
      const ResourceQuota& rq = fq.of(r);
      const int32_t fr = fr_of(f, r);
      QuotaLimits& limits = limits_[static_cast<size_t>(quota_node) * fr_count() + fr];
      limits.nominal = rq.nominal;
      limits.borrowing_limit = rq.borrowing_limit.value_or(kNoLimit);
      limits.lending_limit = rq.lending_limit.value_or(kNoLimit);
      governed_[fr] = true;
    }
  }
}

CompiledTeam CompiledPolicy::compile_team(const Team& team, int32_t index) const {
  CompiledTeam compiled;
  compiled.name = team.meta.name;
  compiled.namespace_name = team.namespace_name.empty() ? team.meta.name : team.namespace_name;
  compiled.quota_node = index;
  for (const FlavorQuota& fq : team.quota)
    compiled.flavor_order.push_back(flavor_by_name(fq.flavor));
  compiled.preemption = team.preemption;
  compiled.queueing = team.queueing;
  compiled.fair_share_weight = team.fair_share_weight;
  for (const std::string& name : team.allowed_priority_classes) {
    compiled.allowed_classes.push_back(priority_class_by_name(name));
  }
  return compiled;
}

void CompiledPolicy::compile_quota_tree(const Policy& policy) {
  const auto teams = static_cast<int32_t>(policy.teams.size());
  const int32_t quota_nodes = teams + cohort_count();
  parents_.assign(quota_nodes, kNoParent);
  children_.assign(quota_nodes, {});
  weights_.assign(quota_nodes, 1.0);
  limits_.assign(static_cast<size_t>(quota_nodes) * fr_count(), QuotaLimits{});
  governed_.assign(fr_count(), false);
  for (int32_t t = 0; t < teams; ++t) {
    const Team& team = policy.teams[t];
    teams_.push_back(compile_team(team, t));
    team_by_name_[teams_.back().name] = static_cast<uint32_t>(t);
    team_by_namespace_[teams_.back().namespace_name] = static_cast<uint32_t>(t);
    weights_[t] = team.fair_share_weight;
    if (!team.cohort.empty()) {
      parents_[t] = teams + static_cast<int32_t>(cohort_by_name(team.cohort).value());
    }
    apply_quota(t, team.quota);
  }
  for (int32_t c = 0; c < cohort_count(); ++c) {
    const Cohort& cohort = policy.cohorts[c];
    weights_[teams + c] = cohort.fair_share_weight;
    if (!cohort.parent.empty()) {
      parents_[teams + c] = teams + static_cast<int32_t>(cohort_by_name(cohort.parent).value());
    }
    apply_quota(teams + c, cohort.quota);
  }
  for (int32_t n = 0; n < quota_nodes; ++n) {
    if (parents_[n] != kNoParent) children_[parents_[n]].push_back(n);
  }
  const std::vector<int32_t> depth = quota_node_depths(parents_);
  bottom_up_.resize(quota_nodes);
  for (int32_t n = 0; n < quota_nodes; ++n) bottom_up_[n] = n;
  std::stable_sort(bottom_up_.begin(), bottom_up_.end(),
                   [&](int32_t a, int32_t b) { return depth[a] > depth[b]; });
}

Status CompiledPolicy::compile_nodes(std::vector<Node> nodes) {
  // Racks and blocks get dense numbers unique across flavors.
  std::map<std::pair<std::string, int32_t>, int32_t> rack_ids;
  std::map<std::pair<std::string, int32_t>, int32_t> block_ids;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    CompiledNode compiled;
    compiled.flavor = flavor_by_name(nodes[i].flavor);
    if (!compiled.flavor.valid()) {
      return not_found("node '" + nodes[i].name + "' has unknown flavor '" + nodes[i].flavor + "'");
    }
    if (nodes[i].capacity.gpu() > 64) {
      return invalid_argument("node '" + nodes[i].name + "' declares more than 64 GPUs");
    }
    compiled.rack =
        rack_ids
            .try_emplace({nodes[i].flavor, nodes[i].rack}, static_cast<int32_t>(rack_ids.size()))
            .first->second;
    compiled.block =
        block_ids
            .try_emplace({nodes[i].flavor, nodes[i].block}, static_cast<int32_t>(block_ids.size()))
            .first->second;
    node_by_name_[nodes[i].name] = i;
    listed_healthy_.push_back(nodes[i].healthy);
    listed_schedulable_.push_back(nodes[i].healthy && !nodes[i].cordoned);
    compiled.node = std::move(nodes[i]);
    nodes_.push_back(std::move(compiled));
  }
  rack_count_ = static_cast<int32_t>(rack_ids.size());
  block_count_ = static_cast<int32_t>(block_ids.size());
  return {};
}

TeamIndex CompiledPolicy::team_by_namespace(std::string_view ns) const {
  return lookup<TeamIndex>(team_by_namespace_, ns);
}
TeamIndex CompiledPolicy::team_by_name(std::string_view name) const {
  return lookup<TeamIndex>(team_by_name_, name);
}
PriorityClassIndex CompiledPolicy::priority_class_by_name(std::string_view name) const {
  return lookup<PriorityClassIndex>(class_by_name_, name);
}
FlavorIndex CompiledPolicy::flavor_by_name(std::string_view name) const {
  return lookup<FlavorIndex>(flavor_by_name_, name);
}
NodeIndex CompiledPolicy::node_by_name(std::string_view name) const {
  return lookup<NodeIndex>(node_by_name_, name);
}
CohortIndex CompiledPolicy::cohort_by_name(std::string_view name) const {
  return lookup<CohortIndex>(cohort_by_name_, name);
}

}  // namespace allot
