#include "backends/slurm/desired_accounting.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace allot::slurm {
namespace {

// Beyond this a ceiling is "no limit" (the quota tree's sentinel is larger).
constexpr int64_t kUnlimited = INT64_MAX / 8;
constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kCohortFairshare = 100;

int64_t fairshare_of(double weight) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(weight * 100.0)));
}

int64_t saturating_add(int64_t a, int64_t b) { return a > kUnlimited - b ? kUnlimited : a + b; }

// Accounts ordered so that every parent comes before its children.
std::vector<SlurmAssociation> parents_first(std::vector<SlurmAssociation> accounts) {
  std::map<std::string, std::string> parent_of;
  for (const SlurmAssociation& a : accounts) parent_of[a.account] = a.parent;
  auto depth = [&](const std::string& name) {
    int d = 0;
    for (auto it = parent_of.find(name); it != parent_of.end() && d < 64;
         it = parent_of.find(it->second)) {
      ++d;
    }
    return d;
  };
  std::stable_sort(accounts.begin(), accounts.end(),
                   [&](const SlurmAssociation& x, const SlurmAssociation& y) {
                     return depth(x.account) < depth(y.account);
                   });
  return accounts;
}

std::vector<SlurmQos> qos_of(const BackendPolicy& policy) {
  int32_t lowest = 0;
  for (const SyncedPriorityClass& pc : policy.priority_classes) lowest = std::min(lowest, pc.value);
  std::vector<SlurmQos> out;
  for (const SyncedPriorityClass& pc : policy.priority_classes) {
    SlurmQos q;
    q.name = pc.name;
    q.priority = int64_t{pc.value} - lowest;
    q.preempt_mode = "requeue";
    q.description = qos_marker(policy.root);
    for (const SyncedPriorityClass& other : policy.priority_classes) {
      if (pc.preempts_lower && other.value < pc.value) q.preempt.push_back(other.name);
    }
    std::sort(q.preempt.begin(), q.preempt.end());
    out.push_back(std::move(q));
  }
  return out;
}

// The QoS a team may use (sorted) and its default: the lowest-valued one.
void set_team_qos(const BackendPolicy& policy, const SyncedTeam& team, SlurmAssociation& a) {
  const SyncedPriorityClass* lowest = nullptr;
  for (const SyncedPriorityClass& pc : policy.priority_classes) {
    const bool allowed = team.priority_classes.empty() ||
                         std::find(team.priority_classes.begin(), team.priority_classes.end(),
                                   pc.name) != team.priority_classes.end();
    if (!allowed) continue;
    a.qos.push_back(pc.name);
    if (lowest == nullptr || pc.value < lowest->value) lowest = &pc;
  }
  std::sort(a.qos.begin(), a.qos.end());
  if (lowest != nullptr) a.default_qos = lowest->name;
}

}  // namespace

std::string qos_marker(const std::string& root) { return "allot:" + root; }

TresMap ceiling_tres(const SyncedTeam& team, bool typed_gres) {
  TresMap tres;
  int64_t cpu_milli = 0;
  int64_t mem_bytes = 0;
  bool cpu = false;
  bool mem = false;
  for (const FlavorLimit& limit : team.ceiling) {
    if (limit.amount >= kUnlimited) continue;
    switch (limit.resource) {
      case Resource::kGpu:
        tres[typed_gres ? "gres/gpu:" + limit.flavor : "gres/gpu"] += limit.amount;
        break;
      case Resource::kCpu:
        cpu = true;
        cpu_milli = saturating_add(cpu_milli, limit.amount);
        break;
      case Resource::kMemory:
        mem = true;
        mem_bytes = saturating_add(mem_bytes, limit.amount);
        break;
    }
  }
  if (cpu && cpu_milli < kUnlimited) tres["cpu"] = (cpu_milli + 999) / 1000;
  if (mem && mem_bytes < kUnlimited) tres["mem"] = (mem_bytes + kMiB - 1) / kMiB;
  return tres;
}

SlurmAccounting desired_accounting(const BackendPolicy& policy) {
  const bool typed = policy.flavors.size() > 1;
  std::vector<SlurmAssociation> accounts;
  const std::vector<std::string> all_qos = [&] {
    std::vector<std::string> names;
    for (const SyncedPriorityClass& pc : policy.priority_classes) names.push_back(pc.name);
    std::sort(names.begin(), names.end());
    return names;
  }();
  auto under_root = [&](const std::string& parent) {
    return parent.empty() ? policy.root : parent;
  };
  accounts.push_back({policy.root, "", "root", kCohortFairshare, {}, all_qos, ""});
  for (const SyncedCohort& cohort : policy.cohorts) {
    accounts.push_back(
        {cohort.name, "", under_root(cohort.parent), kCohortFairshare, {}, all_qos, ""});
  }
  std::vector<SlurmAssociation> users;
  for (const SyncedTeam& team : policy.teams) {
    SlurmAssociation a;
    a.account = team.team.str();
    a.parent = under_root(team.parent);
    a.fairshare = fairshare_of(team.fair_share_weight);
    a.grp_tres = ceiling_tres(team, typed);
    set_team_qos(policy, team, a);
    for (const std::string& user : team.users) {
      users.push_back({a.account, user, "", 1, {}, {}, ""});
    }
    accounts.push_back(std::move(a));
  }
  SlurmAccounting out;
  out.associations = parents_first(std::move(accounts));
  out.associations.insert(out.associations.end(), users.begin(), users.end());
  out.qos = qos_of(policy);
  return out;
}

}  // namespace allot::slurm
