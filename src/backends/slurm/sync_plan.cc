#include "backends/slurm/sync_plan.h"

#include <algorithm>
#include <map>

namespace allot::slurm {
namespace {

using AccountMap = std::map<std::string, const SlurmAssociation*>;

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ",") + item;
  return out;
}

std::string shown(const std::string& text) { return text.empty() ? "(none)" : text; }

AccountMap accounts_of(const SlurmAccounting& state) {
  AccountMap out;
  for (const SlurmAssociation& a : state.associations) {
    if (a.user.empty()) out.emplace(a.account, &a);
  }
  return out;
}

// Every account under `root` (itself included), parents before children.
std::vector<std::string> subtree(const SlurmAccounting& state, const std::string& root) {
  std::vector<std::string> out;
  if (!accounts_of(state).contains(root)) return out;
  out.push_back(root);
  for (size_t i = 0; i < out.size(); ++i) {
    for (const SlurmAssociation& a : state.associations) {
      if (a.user.empty() && a.parent == out[i] && a.account != out[i] &&
          std::find(out.begin(), out.end(), a.account) == out.end()) {
        out.push_back(a.account);
      }
    }
  }
  return out;
}

// GrpTRES= that turns `have` into `want`: changed keys, and -1 for keys to clear.
std::string tres_change(const TresMap& have, const TresMap& want) {
  TresMap change;
  for (const auto& [name, amount] : want) {
    auto it = have.find(name);
    if (it == have.end() || it->second != amount) change[name] = amount;
  }
  for (const auto& [name, amount] : have) {
    if (!want.contains(name)) change[name] = -1;
  }
  return format_tres(change);
}

class Planner {
 public:
  Planner(const BackendPolicy& policy, const SlurmAccounting& observed, const std::string& cluster,
          const std::set<std::string>& busy)
      : policy_(policy),
        observed_(observed),
        desired_(desired_accounting(policy)),
        cluster_(cluster),
        busy_(busy),
        have_(accounts_of(observed)),
        managed_(subtree(observed, policy.root)) {}

  Result<SyncPlan> run() {
    for (const SlurmAssociation& want : desired_.associations) {
      if (!want.user.empty() || !have_.contains(want.account)) continue;
      if (std::find(managed_.begin(), managed_.end(), want.account) == managed_.end()) {
        return failed_precondition(
            "Slurm account \"" + want.account + "\" exists outside allot's root account \"" +
            policy_.root + "\" (under \"" + have_.at(want.account)->parent +
            "\"): allot does not take over a site's own accounts; rename the team or cohort, or "
            "remove the account from Slurm");
      }
    }
    plan_qos();
    for (const SlurmAssociation& want : desired_.associations) {
      if (want.user.empty()) plan_account(want);
    }
    plan_users();
    plan_preempt_lists();
    plan_account_removals();
    plan_qos_removals();
    return std::move(plan_);
  }

 private:
  void change(std::vector<std::string> args) { plan_.changes.push_back({std::move(args)}); }
  void drift(const std::string& object, const std::string& field, const std::string& have,
             const std::string& want) {
    plan_.drift.push_back(object + ": " + field + " " + shown(have) + " in Slurm, " + shown(want) +
                          " in allot's policy");
  }
  const SlurmQos* observed_qos(const std::string& name) const {
    for (const SlurmQos& q : observed_.qos) {
      if (q.name == name) return &q;
    }
    return nullptr;
  }

  void plan_qos() {
    for (const SlurmQos& want : desired_.qos) {
      const SlurmQos* have = observed_qos(want.name);
      if (have == nullptr) {
        change({"add", "qos", want.name, "Priority=" + std::to_string(want.priority),
                "PreemptMode=" + want.preempt_mode, "Description=" + want.description});
        continue;
      }
      std::vector<std::string> set;
      const std::string object = "qos " + want.name;
      if (have->priority != want.priority) {
        drift(object, "Priority", std::to_string(have->priority), std::to_string(want.priority));
        set.push_back("Priority=" + std::to_string(want.priority));
      }
      if (have->preempt_mode != want.preempt_mode) {
        drift(object, "PreemptMode", have->preempt_mode, want.preempt_mode);
        set.push_back("PreemptMode=" + want.preempt_mode);
      }
      if (have->description != want.description) {
        drift(object, "Description", have->description, want.description);
        set.push_back("Description=" + want.description);
      }
      if (set.empty()) continue;
      std::vector<std::string> args = {"modify", "qos", "where", "name=" + want.name, "set"};
      args.insert(args.end(), set.begin(), set.end());
      change(std::move(args));
    }
  }

  void plan_account(const SlurmAssociation& want) {
    auto it = have_.find(want.account);
    if (it == have_.end()) {
      std::vector<std::string> args = {"add",
                                       "account",
                                       want.account,
                                       "Cluster=" + cluster_,
                                       "Parent=" + want.parent,
                                       "Fairshare=" + std::to_string(want.fairshare),
                                       "Description=allot",
                                       "Organization=" + policy_.root};
      if (!want.grp_tres.empty()) args.push_back("GrpTRES=" + format_tres(want.grp_tres));
      if (!want.qos.empty()) args.push_back("QOS=" + join(want.qos));
      if (!want.default_qos.empty()) args.push_back("DefaultQOS=" + want.default_qos);
      change(std::move(args));
      return;
    }
    const SlurmAssociation& have = *it->second;
    const std::string object = "account " + want.account;
    std::vector<std::string> set;
    if (have.parent != want.parent) {
      drift(object, "Parent", have.parent, want.parent);
      set.push_back("Parent=" + want.parent);
    }
    if (have.fairshare != want.fairshare) {
      drift(object, "Fairshare", std::to_string(have.fairshare), std::to_string(want.fairshare));
      set.push_back("Fairshare=" + std::to_string(want.fairshare));
    }
    if (have.grp_tres != want.grp_tres) {
      drift(object, "GrpTRES", format_tres(have.grp_tres), format_tres(want.grp_tres));
      set.push_back("GrpTRES=" + tres_change(have.grp_tres, want.grp_tres));
    }
    if (!want.qos.empty() && have.qos != want.qos) {
      drift(object, "QOS", join(have.qos), join(want.qos));
      set.push_back("QOS=" + join(want.qos));
    }
    if (!want.default_qos.empty() && have.default_qos != want.default_qos) {
      drift(object, "DefaultQOS", have.default_qos, want.default_qos);
      set.push_back("DefaultQOS=" + want.default_qos);
    }
    if (set.empty()) return;
    std::vector<std::string> args = {
        "modify", "account", "where", "name=" + want.account, "cluster=" + cluster_, "set"};
    args.insert(args.end(), set.begin(), set.end());
    change(std::move(args));
  }

  // Users are only added: until the identity directory lists every member,
  // the associations made for workloads' users must survive a sync.
  void plan_users() {
    for (const SlurmAssociation& want : desired_.associations) {
      if (want.user.empty()) continue;
      const bool present = std::any_of(observed_.associations.begin(), observed_.associations.end(),
                                       [&](const SlurmAssociation& a) {
                                         return a.user == want.user && a.account == want.account;
                                       });
      if (!present) {
        change({"add", "user", want.user, "Account=" + want.account, "Cluster=" + cluster_});
      }
    }
  }

  void plan_preempt_lists() {
    for (const SlurmQos& want : desired_.qos) {
      const SlurmQos* have = observed_qos(want.name);
      const std::vector<std::string> before =
          have == nullptr ? std::vector<std::string>{} : have->preempt;
      if (before == want.preempt) continue;
      if (have != nullptr) drift("qos " + want.name, "Preempt", join(before), join(want.preempt));
      change(
          {"modify", "qos", "where", "name=" + want.name, "set", "Preempt=" + join(want.preempt)});
    }
  }

  bool busy(const std::string& account) const {
    for (const std::string& name : subtree(observed_, account)) {
      if (busy_.contains(name)) return true;
    }
    return false;
  }

  void plan_account_removals() {
    const AccountMap want = accounts_of(desired_);
    for (auto it = managed_.rbegin(); it != managed_.rend(); ++it) {
      const std::string& name = *it;
      if (want.contains(name)) continue;
      plan_.drift.push_back("account " + name + ": under \"" + policy_.root +
                            "\" in Slurm but not in allot's policy");
      if (!busy(name)) {
        change({"delete", "account", "where", "name=" + name, "cluster=" + cluster_});
        continue;
      }
      plan_.deferred.push_back(name);
      TresMap zero;
      for (const auto& [tres, amount] : have_.at(name)->grp_tres) {
        if (tres.starts_with("gres/gpu") && amount != 0) zero[tres] = 0;
      }
      if (!have_.at(name)->grp_tres.contains("gres/gpu")) zero["gres/gpu"] = 0;
      if (zero.empty()) continue;
      change({"modify", "account", "where", "name=" + name, "cluster=" + cluster_, "set",
              "GrpTRES=" + format_tres(zero)});
    }
  }

  void plan_qos_removals() {
    for (const SlurmQos& have : observed_.qos) {
      if (have.description != qos_marker(policy_.root)) continue;
      const bool wanted = std::any_of(desired_.qos.begin(), desired_.qos.end(),
                                      [&](const SlurmQos& q) { return q.name == have.name; });
      if (wanted) continue;
      plan_.drift.push_back("qos " + have.name + ": allot's in Slurm but not in the policy");
      change({"delete", "qos", "where", "name=" + have.name});
    }
  }

  const BackendPolicy& policy_;
  const SlurmAccounting& observed_;
  const SlurmAccounting desired_;
  const std::string& cluster_;
  const std::set<std::string>& busy_;
  const AccountMap have_;
  const std::vector<std::string> managed_;
  SyncPlan plan_;
};

}  // namespace

std::string SacctmgrChange::command_line() const {
  std::string out = "sacctmgr -i";
  for (const std::string& arg : args) {
    const bool quote = arg.find_first_of(" \t'\"") != std::string::npos;
    out += " " + (quote ? "'" + arg + "'" : arg);
  }
  return out;
}

Result<SyncPlan> plan_sync(const BackendPolicy& policy, const SlurmAccounting& observed,
                           const std::string& cluster, const std::set<std::string>& busy_accounts) {
  return Planner(policy, observed, cluster, busy_accounts).run();
}

SlurmAccounting managed_part(const SlurmAccounting& observed, const std::string& root) {
  SlurmAccounting out;
  const std::vector<std::string> managed = subtree(observed, root);
  for (const SlurmAssociation& a : observed.associations) {
    if (std::find(managed.begin(), managed.end(), a.account) != managed.end()) {
      out.associations.push_back(a);
    }
  }
  for (const SlurmQos& q : observed.qos) {
    if (q.description == qos_marker(root)) out.qos.push_back(q);
  }
  return out;
}

}  // namespace allot::slurm
