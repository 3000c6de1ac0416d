#include "service/metrics/prometheus_text.h"

#include <charconv>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

namespace allot {
namespace {

using Label = std::pair<std::string_view, std::string_view>;

// Appends samples to the text, one family at a time.
class Exposition {
 public:
  explicit Exposition(std::string& out) : out_(out) {}

  void family(std::string_view name, std::string_view type, std::string_view help) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += "\n# TYPE ";
    out_ += name;
    out_ += ' ';
    out_ += type;
    out_ += '\n';
  }

  void sample(std::string_view name, std::string_view suffix, std::initializer_list<Label> labels,
              double value, std::string_view le = {}) {
    name_and_labels(name, suffix, labels, le);
    number(value);
    out_ += '\n';
  }

  void histogram(std::string_view name, std::initializer_list<Label> labels, const Histogram& h) {
    uint64_t cumulative = 0;
    char bound[32];
    for (size_t i = 0; i < h.counts().size(); ++i) {
      cumulative += h.counts()[i];
      std::string_view le = "+Inf";
      if (i < h.bounds().size()) {
        const auto end = std::to_chars(bound, bound + sizeof bound, h.bounds()[i]).ptr;
        le = std::string_view(bound, static_cast<size_t>(end - bound));
      }
      name_and_labels(name, "_bucket", labels, le);
      integer(cumulative);
      out_ += '\n';
    }
    sample(name, "_sum", labels, h.sum());
    name_and_labels(name, "_count", labels, {});
    integer(h.count());
    out_ += '\n';
  }

 private:
  void name_and_labels(std::string_view name, std::string_view suffix,
                       std::initializer_list<Label> labels, std::string_view le) {
    out_ += name;
    out_ += suffix;
    if (labels.size() == 0 && le.empty()) {
      out_ += ' ';
      return;
    }
    out_ += '{';
    bool first = true;
    for (const auto& [key, value] : labels) {
      if (!first) out_ += ',';
      first = false;
      label(key, value);
    }
    if (!le.empty()) {
      if (!first) out_ += ',';
      label("le", le);
    }
    out_ += "} ";
  }

  void label(std::string_view key, std::string_view value) {
    out_ += key;
    out_ += "=\"";
    for (const char c : value) {
      if (c == '\\') {
        out_ += "\\\\";
      } else if (c == '"') {
        out_ += "\\\"";
      } else if (c == '\n') {
        out_ += "\\n";
      } else {
        out_ += c;
      }
    }
    out_ += '"';
  }

  void number(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    out_.append(text, end);
  }

  void integer(uint64_t value) {
    char text[24];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    out_.append(text, end);
  }

  std::string& out_;
};

// An amount in the project's units (GPUs, millicores, bytes) in base units.
double base_units(Resource resource, int64_t amount) {
  if (resource == Resource::kCpu) return static_cast<double>(amount) / 1000.0;
  return static_cast<double>(amount);
}

void quota_family(Exposition& out, const MetricsSnapshot& snapshot, std::string_view name,
                  std::string_view help, int64_t QuotaUsageRow::*field, bool nonzero_only) {
  out.family(name, "gauge", help);
  for (const QuotaUsageRow& row : snapshot.quotas) {
    const int64_t amount = row.*field;
    if (nonzero_only && amount == 0) continue;
    out.sample(name, "",
               {{"team", row.team},
                {"cohort", row.cohort},
                {"flavor", row.flavor},
                {"resource", resource_name(row.resource)}},
               base_units(row.resource, amount));
  }
}

void quota_families(Exposition& out, const MetricsSnapshot& snapshot) {
  quota_family(out, snapshot, "allot_team_nominal_quota",
               "The team's nominal quota per flavor and resource (GPUs, CPU cores, bytes).",
               &QuotaUsageRow::nominal, false);
  quota_family(out, snapshot, "allot_team_usage",
               "What the team's admitted and running workloads hold per flavor and resource.",
               &QuotaUsageRow::usage, false);
  quota_family(out, snapshot, "allot_team_borrowed",
               "The team's usage above its nominal quota (written where nonzero).",
               &QuotaUsageRow::borrowed, true);
  out.family("allot_team_borrowed_ratio", "gauge",
             "The team's borrowed / nominal quota (written where both are nonzero).");
  for (const QuotaUsageRow& row : snapshot.quotas) {
    if (row.borrowed == 0 || row.nominal == 0) continue;
    out.sample("allot_team_borrowed_ratio", "",
               {{"team", row.team},
                {"cohort", row.cohort},
                {"flavor", row.flavor},
                {"resource", resource_name(row.resource)}},
               static_cast<double>(row.borrowed) / static_cast<double>(row.nominal));
  }
  quota_family(out, snapshot, "allot_team_lent",
               "The team's idle nominal quota that other teams of its cohort use (written where "
               "nonzero).",
               &QuotaUsageRow::lent, true);
}

// Pending and admitted counts are per team: one sample per team, from its first row.
void workload_families(Exposition& out, const MetricsSnapshot& snapshot) {
  const std::pair<std::string_view, int32_t QuotaUsageRow::*> families[] = {
      {"allot_team_pending_workloads", &QuotaUsageRow::pending},
      {"allot_team_admitted_workloads", &QuotaUsageRow::admitted}};
  for (const auto& [name, field] : families) {
    out.family(name, "gauge",
               field == &QuotaUsageRow::pending
                   ? "Workloads of the team waiting for admission."
                   : "Workloads of the team admitted or running (holding quota).");
    std::string_view last;
    for (const QuotaUsageRow& row : snapshot.quotas) {
      if (row.team == last) continue;
      last = row.team;
      out.sample(name, "", {{"team", row.team}}, row.*field);
    }
  }
}

void team_activity_families(Exposition& out, const MetricsSnapshot& snapshot) {
  out.family("allot_admission_wait_seconds", "histogram",
             "Seconds from a workload's submission (or requeue) to its admission.");
  for (const auto& [team, histogram] : snapshot.teams.admission_wait) {
    out.histogram("allot_admission_wait_seconds", {{"team", team}}, histogram);
  }
  out.family("allot_preemptions_total", "counter",
             "Workloads preempted, by the victim's team and the scheduler's reason.");
  for (const auto& [key, count] : snapshot.teams.preemptions) {
    out.sample("allot_preemptions_total", "", {{"team", key.first}, {"reason", key.second}},
               static_cast<double>(count));
  }
  out.family("allot_team_cost_month_to_date", "gauge",
             "Cost accrued by the team on the flavor since the start of the current UTC month, "
             "from the metering ledger and the rate cards.");
  for (const TeamCost& cost : snapshot.costs) {
    out.sample("allot_team_cost_month_to_date", "",
               {{"team", cost.team}, {"flavor", cost.flavor}, {"currency", cost.currency}},
               cost.amount);
  }
}

// A team budget's series carry `team`, a project budget's `project`.
Label budget_owner_label(const BudgetSample& b) {
  if (b.project.empty()) return {"team", b.team};
  return {"project", b.project};
}

void budget_families(Exposition& out, const std::vector<BudgetSample>& budgets) {
  out.family("allot_budget_spent", "gauge",
             "Spent by the budget's team or project since the start of its current period.");
  for (const BudgetSample& b : budgets) {
    out.sample("allot_budget_spent", "",
               {{"budget", b.name}, budget_owner_label(b), {"currency", b.currency}}, b.spent);
  }
  out.family("allot_budget_amount", "gauge", "The budget's amount per period.");
  for (const BudgetSample& b : budgets) {
    out.sample("allot_budget_amount", "",
               {{"budget", b.name}, budget_owner_label(b), {"currency", b.currency}}, b.amount);
  }
  out.family("allot_budget_used_ratio", "gauge",
             "Spent / amount in the current period (1 or more: exhausted).");
  for (const BudgetSample& b : budgets) {
    out.sample("allot_budget_used_ratio", "", {{"budget", b.name}, budget_owner_label(b)},
               b.spent / b.amount);
  }
}

void node_families(Exposition& out, const std::vector<NodeSample>& nodes) {
  out.family("allot_node_healthy", "gauge", "1 when the node's health checks pass, else 0.");
  for (const NodeSample& node : nodes) {
    out.sample("allot_node_healthy", "",
               {{"node", node.name}, {"flavor", node.flavor}, {"pool", node.pool}},
               node.healthy ? 1 : 0);
  }
  out.family("allot_node_cordoned", "gauge", "1 when the node takes no new work, else 0.");
  for (const NodeSample& node : nodes) {
    out.sample("allot_node_cordoned", "",
               {{"node", node.name}, {"flavor", node.flavor}, {"pool", node.pool}},
               node.cordoned ? 1 : 0);
  }
  const std::pair<std::string_view, ResourceVector NodeSample::*> families[] = {
      {"allot_node_capacity", &NodeSample::capacity},
      {"allot_node_allocated", &NodeSample::allocated}};
  for (const auto& [name, field] : families) {
    out.family(name, "gauge",
               field == &NodeSample::capacity
                   ? "The node's capacity per resource (GPUs, CPU cores, bytes)."
                   : "What admitted and running pods hold on the node per resource.");
    for (const NodeSample& node : nodes) {
      for (const Resource r : kAllResources) {
        out.sample(name, "",
                   {{"node", node.name}, {"flavor", node.flavor}, {"resource", resource_name(r)}},
                   base_units(r, (node.*field)[r]));
      }
    }
  }
}

// Per GPU, then per team the mean over the GPUs its pods hold; nothing when
// no GPU was measured.
void gpu_families(Exposition& out, const std::vector<GpuUsageSample>& gpus) {
  if (gpus.empty()) return;
  out.family("allot_gpu_utilization_ratio", "gauge",
             "Share of NVML's last sample period a kernel ran on the GPU (0..1), with the team "
             "whose pod holds it (empty: none).");
  for (const GpuUsageSample& gpu : gpus) {
    const std::string index = std::to_string(gpu.gpu);
    out.sample("allot_gpu_utilization_ratio", "",
               {{"node", gpu.node}, {"gpu", index}, {"team", gpu.team}}, gpu.utilization);
  }
  out.family("allot_gpu_memory_used_bytes", "gauge",
             "GPU memory in use, in bytes, with the team whose pod holds the GPU.");
  for (const GpuUsageSample& gpu : gpus) {
    const std::string index = std::to_string(gpu.gpu);
    out.sample("allot_gpu_memory_used_bytes", "",
               {{"node", gpu.node}, {"gpu", index}, {"team", gpu.team}},
               static_cast<double>(gpu.memory_used_bytes));
  }
  std::map<std::string, std::pair<double, int>> teams;  // team -> (sum, GPUs)
  for (const GpuUsageSample& gpu : gpus) {
    if (!gpu.held()) continue;
    auto& [sum, count] = teams[gpu.team];
    sum += gpu.utilization;
    ++count;
  }
  out.family("allot_team_gpu_utilization_ratio", "gauge",
             "Mean utilisation (0..1) of the GPUs the team's pods hold.");
  for (const auto& [team, total] : teams) {
    out.sample("allot_team_gpu_utilization_ratio", "", {{"team", team}},
               total.first / total.second);
  }
}

// Per team and flavor, the GPUs its pods hold whose utilisation is below
// kIdleGpuUtilization (0 where none is); nothing when no GPU was measured.
void idle_gpu_family(Exposition& out, const std::vector<GpuUsageSample>& gpus,
                     const std::map<std::string, std::string>& node_flavors) {
  std::map<std::pair<std::string, std::string>, int> idle;  // (team, flavor) -> GPUs
  for (const GpuUsageSample& gpu : gpus) {
    if (!gpu.held()) continue;
    const auto flavor = node_flavors.find(gpu.node);
    int& count = idle[{gpu.team, flavor == node_flavors.end() ? "" : flavor->second}];
    if (gpu.utilization < kIdleGpuUtilization) ++count;
  }
  if (idle.empty()) return;
  out.family("allot_team_gpus_allocated_idle", "gauge",
             "GPUs the team's pods hold whose last measured utilisation is below 0.05.");
  for (const auto& [key, count] : idle) {
    out.sample("allot_team_gpus_allocated_idle", "", {{"team", key.first}, {"flavor", key.second}},
               count);
  }
}

void cluster_activity_families(Exposition& out, const ClusterActivity& activity) {
  out.family("allot_scheduler_cycle_duration_seconds", "histogram",
             "Seconds a scheduling cycle takes, from its snapshot to its plan applied.");
  out.histogram("allot_scheduler_cycle_duration_seconds", {}, activity.cycle_duration);
  out.family("allot_scheduler_admissions_per_cycle", "histogram",
             "Workloads admitted per scheduling cycle.");
  out.histogram("allot_scheduler_admissions_per_cycle", {}, activity.admissions_per_cycle);
  out.family("allot_http_requests_total", "counter",
             "HTTP requests answered, by route pattern, method and status code.");
  for (const auto& [key, count] : activity.requests) {
    const std::string code = std::to_string(key.code);
    out.sample("allot_http_requests_total", "",
               {{"route", key.route}, {"method", key.method}, {"code", code}},
               static_cast<double>(count));
  }
  out.family("allot_http_request_duration_seconds", "histogram",
             "Seconds from a request read to its answer, by route pattern and method.");
  for (const auto& [key, histogram] : activity.request_duration) {
    out.histogram("allot_http_request_duration_seconds",
                  {{"route", key.first}, {"method", key.second}}, histogram);
  }
}

}  // namespace

std::string render_prometheus(const MetricsSnapshot& snapshot) {
  std::string text;
  text.reserve(128 * (snapshot.quotas.size() * 2 + 64));
  Exposition out(text);
  quota_families(out, snapshot);
  workload_families(out, snapshot);
  team_activity_families(out, snapshot);
  budget_families(out, snapshot.budgets);
  gpu_families(out, snapshot.gpus);
  idle_gpu_family(out, snapshot.gpus, snapshot.node_flavors);
  if (snapshot.cluster) {
    node_families(out, snapshot.cluster->nodes);
    cluster_activity_families(out, snapshot.cluster->activity);
  }
  return text;
}

}  // namespace allot
