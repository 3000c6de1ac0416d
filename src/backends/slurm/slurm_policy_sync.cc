#include "backends/slurm/slurm_policy_sync.h"

#include <algorithm>
#include <sstream>

namespace allot::slurm {
namespace {

std::string first_line(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  }
  return "no output";
}

std::string sacctmgr_command_text(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& arg : argv) out += (out.empty() ? "" : " ") + arg;
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

// A team or cohort read back from Slurm: its ceiling from GrpTRES.
std::vector<FlavorLimit> ceiling_of(const TresMap& tres) {
  std::vector<FlavorLimit> out;
  for (const auto& [name, amount] : tres) {
    if (name == "gres/gpu") out.push_back({"", Resource::kGpu, amount});
    if (name.starts_with("gres/gpu:")) out.push_back({name.substr(9), Resource::kGpu, amount});
    if (name == "cpu") out.push_back({"", Resource::kCpu, amount * 1000});
    if (name == "mem") out.push_back({"", Resource::kMemory, amount << 20});
  }
  return out;
}

}  // namespace

Result<CommandResult> SlurmPolicySync::run_ok(const std::vector<std::string>& argv) {
  ALLOT_ASSIGN_OR_RETURN(CommandResult result, runner_.run(argv));
  if (result.succeeded()) return result;
  return Status(ErrorCode::kUnavailable,
                "`" + sacctmgr_command_text(argv) + "` failed" +
                    (result.timed_out ? std::string(" (timed out)")
                                      : " (exit " + std::to_string(result.exit_code) +
                                            "): " + first_line(result.err + result.out)));
}

Result<SlurmAccounting> SlurmPolicySync::read_accounting() {
  SlurmAccounting state;
  ALLOT_ASSIGN_OR_RETURN(
      CommandResult assoc,
      run_ok({"sacctmgr", "-n", "-P", "show", "assoc", "where", "cluster=" + site_.cluster,
              "format=" + std::string(kAssociationFormat)}));
  ALLOT_ASSIGN_OR_RETURN(state.associations, parse_associations(assoc.out));
  ALLOT_ASSIGN_OR_RETURN(CommandResult qos, run_ok({"sacctmgr", "-n", "-P", "show", "qos",
                                                    "format=" + std::string(kQosFormat)}));
  ALLOT_ASSIGN_OR_RETURN(state.qos, parse_qos(qos.out));
  return state;
}

Status SlurmPolicySync::check_site(const SlurmAccounting& desired) {
  ALLOT_ASSIGN_OR_RETURN(CommandResult clusters,
                         run_ok({"sacctmgr", "-n", "-P", "show", "cluster", "format=cluster"}));
  const std::vector<std::string> names = lines_of(clusters.out);
  if (std::find(names.begin(), names.end(), site_.cluster) == names.end()) {
    return failed_precondition("Slurm's accounting has no cluster \"" + site_.cluster + "\"",
                               "spec.slurm.clusterName");
  }
  ALLOT_ASSIGN_OR_RETURN(CommandResult partition,
                         runner_.run({"scontrol", "-o", "show", "partition", site_.partition}));
  if (!partition.succeeded()) {
    return failed_precondition("Slurm has no partition \"" + site_.partition +
                                   "\": " + first_line(partition.err + partition.out),
                               "spec.slurm.partition");
  }
  ALLOT_ASSIGN_OR_RETURN(CommandResult tres,
                         run_ok({"sacctmgr", "-n", "-P", "show", "tres", "format=type,name"}));
  std::set<std::string> known;
  for (const std::string& line : lines_of(tres.out)) {
    const size_t bar = line.find('|');
    if (bar == std::string::npos) continue;
    const std::string name = line.substr(bar + 1);
    known.insert(name.empty() ? line.substr(0, bar) : line.substr(0, bar) + "/" + name);
  }
  for (const SlurmAssociation& a : desired.associations) {
    for (const auto& [name, amount] : a.grp_tres) {
      if (known.contains(name)) continue;
      return failed_precondition(
          "Slurm does not know the TRES \"" + name + "\" (the ceiling of account " + a.account +
          "): a GPU flavor needs its GRES type in slurm.conf (GresTypes, the nodes' Gres, "
          "AccountingStorageTRES); nothing was changed");
    }
  }
  return Status::ok_status();
}

Result<std::set<std::string>> SlurmPolicySync::busy_accounts() {
  ALLOT_ASSIGN_OR_RETURN(CommandResult jobs, run_ok({"squeue", "-h", "-o", "%a"}));
  std::set<std::string> out;
  for (const std::string& line : lines_of(jobs.out)) out.insert(line);
  return out;
}

Result<SyncPlan> SlurmPolicySync::plan(const BackendPolicy& desired) {
  root_ = desired.root;
  if (!desired.site.cluster.empty()) site_.cluster = desired.site.cluster;
  if (!desired.site.partition.empty()) site_.partition = desired.site.partition;
  ALLOT_RETURN_IF_ERROR(check_site(desired_accounting(desired)));
  ALLOT_ASSIGN_OR_RETURN(SlurmAccounting observed, read_accounting());
  ALLOT_ASSIGN_OR_RETURN(std::set<std::string> busy, busy_accounts());
  return plan_sync(desired, observed, site_.cluster, busy);
}

Result<SyncReport> SlurmPolicySync::apply(const BackendPolicy& desired) {
  ALLOT_ASSIGN_OR_RETURN(SyncPlan plan, this->plan(desired));
  SyncReport report;
  report.deferred = plan.deferred;
  for (const SacctmgrChange& change : plan.changes) {
    std::vector<std::string> argv = {"sacctmgr", "-i"};
    argv.insert(argv.end(), change.args.begin(), change.args.end());
    Result<CommandResult> done = run_ok(argv);
    if (!done.ok()) {
      return Status(ErrorCode::kUnavailable, done.status().message() + "; " +
                                                 std::to_string(report.changes.size()) + " of " +
                                                 std::to_string(plan.changes.size()) +
                                                 " changes made (the next apply finishes them)");
    }
    report.changes.push_back(change.command_line());
  }
  return report;
}

Result<SyncReport> SlurmPolicySync::dry_run(const BackendPolicy& desired) {
  ALLOT_ASSIGN_OR_RETURN(SyncPlan plan, this->plan(desired));
  SyncReport report;
  for (const SacctmgrChange& change : plan.changes) report.changes.push_back(change.command_line());
  report.deferred = std::move(plan.deferred);
  report.drift = std::move(plan.drift);
  return report;
}

Result<BackendPolicy> SlurmPolicySync::observe() {
  ALLOT_ASSIGN_OR_RETURN(SlurmAccounting all, read_accounting());
  const SlurmAccounting mine = managed_part(all, root_);
  BackendPolicy out;
  out.root = root_;
  auto has_children = [&](const std::string& account) {
    return std::any_of(
        mine.associations.begin(), mine.associations.end(),
        [&](const SlurmAssociation& a) { return a.user.empty() && a.parent == account; });
  };
  auto parent_of = [&](const std::string& parent) {
    return parent == root_ ? std::string() : parent;
  };
  for (const SlurmAssociation& a : mine.associations) {
    if (a.account == root_) continue;
    if (!a.user.empty()) {
      for (SyncedTeam& team : out.teams) {
        if (team.team.str() == a.account) team.users.push_back(a.user);
      }
      continue;
    }
    if (has_children(a.account)) {
      out.cohorts.push_back({a.account, parent_of(a.parent)});
      continue;
    }
    SyncedTeam team;
    team.team = TeamId(a.account);
    team.parent = parent_of(a.parent);
    team.ceiling = ceiling_of(a.grp_tres);
    team.fair_share_weight = static_cast<double>(a.fairshare) / 100.0;
    team.priority_classes = a.qos;
    out.teams.push_back(std::move(team));
  }
  for (const SlurmQos& q : mine.qos) {
    out.priority_classes.push_back({q.name, static_cast<int32_t>(q.priority), !q.preempt.empty()});
  }
  return out;
}

}  // namespace allot::slurm
