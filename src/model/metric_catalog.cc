#include "model/metric_catalog.h"

#include <array>
#include <utility>

namespace allot {
namespace {

constexpr std::string_view kQuotaLabels[] = {"team", "cohort", "flavor", "resource"};
constexpr std::string_view kTeamLabel[] = {"team"};
constexpr std::string_view kPreemptionLabels[] = {"team", "reason"};
constexpr std::string_view kCostLabels[] = {"team", "flavor", "currency"};
// A team budget's series carry `team`, a project budget's `project`.
constexpr std::string_view kBudgetMoneyLabels[] = {"budget", "team", "project", "currency"};
constexpr std::string_view kBudgetLabels[] = {"budget", "team", "project"};
constexpr std::string_view kNodeStateLabels[] = {"node", "flavor", "pool"};
constexpr std::string_view kNodeAmountLabels[] = {"node", "flavor", "resource"};
constexpr std::string_view kRequestLabels[] = {"route", "method", "code"};
constexpr std::string_view kRouteLabels[] = {"route", "method"};
constexpr std::string_view kGpuLabels[] = {"node", "gpu", "team"};
constexpr std::string_view kTeamFlavorLabels[] = {"team", "flavor"};

constexpr MetricType kGauge = MetricType::kGauge;
constexpr MetricType kCounter = MetricType::kCounter;
constexpr MetricType kHistogram = MetricType::kHistogram;

const std::array<MetricFamily, 25> kFamilies = {{
    {"allot_team_nominal_quota", kGauge, kQuotaLabels},
    {"allot_team_usage", kGauge, kQuotaLabels},
    {"allot_team_borrowed", kGauge, kQuotaLabels},
    {"allot_team_borrowed_ratio", kGauge, kQuotaLabels},
    {"allot_team_lent", kGauge, kQuotaLabels},
    {"allot_team_pending_workloads", kGauge, kTeamLabel},
    {"allot_team_admitted_workloads", kGauge, kTeamLabel},
    {"allot_admission_wait_seconds", kHistogram, kTeamLabel},
    {"allot_preemptions_total", kCounter, kPreemptionLabels},
    {"allot_team_cost_month_to_date", kGauge, kCostLabels},
    {"allot_budget_spent", kGauge, kBudgetMoneyLabels},
    {"allot_budget_amount", kGauge, kBudgetMoneyLabels},
    {"allot_budget_used_ratio", kGauge, kBudgetLabels},
    {"allot_node_healthy", kGauge, kNodeStateLabels, 1},
    {"allot_node_cordoned", kGauge, kNodeStateLabels, 1},
    {"allot_node_capacity", kGauge, kNodeAmountLabels},
    {"allot_node_allocated", kGauge, kNodeAmountLabels},
    {"allot_gpu_utilization_ratio", kGauge, kGpuLabels, 1},
    {"allot_gpu_memory_used_bytes", kGauge, kGpuLabels},
    {"allot_team_gpu_utilization_ratio", kGauge, kTeamLabel, 1},
    {"allot_team_gpus_allocated_idle", kGauge, kTeamFlavorLabels},
    {"allot_scheduler_cycle_duration_seconds", kHistogram, {}},
    {"allot_scheduler_admissions_per_cycle", kHistogram, {}},
    {"allot_http_requests_total", kCounter, kRequestLabels},
    {"allot_http_request_duration_seconds", kHistogram, kRouteLabels},
}};

}  // namespace

bool MetricSample::is_counter() const {
  return family->type == MetricType::kCounter || part != HistogramPart::kNone;
}

bool MetricSample::has_label(std::string_view label) const {
  if (part == HistogramPart::kBucket && label == "le") return true;
  for (std::string_view known : family->labels) {
    if (known == label) return true;
  }
  return false;
}

std::span<const MetricFamily> metric_families() { return kFamilies; }

const MetricFamily* find_metric_family(std::string_view name) {
  for (const MetricFamily& family : kFamilies) {
    if (family.name == name) return &family;
  }
  return nullptr;
}

std::optional<MetricSample> find_metric_sample(std::string_view sample_name) {
  if (const MetricFamily* family = find_metric_family(sample_name)) {
    if (family->type == MetricType::kHistogram) return std::nullopt;  // only its parts
    return MetricSample{family, HistogramPart::kNone};
  }
  constexpr std::pair<std::string_view, HistogramPart> kParts[] = {
      {"_bucket", HistogramPart::kBucket},
      {"_sum", HistogramPart::kSum},
      {"_count", HistogramPart::kCount}};
  for (const auto& [suffix, part] : kParts) {
    if (!sample_name.ends_with(suffix)) continue;
    const MetricFamily* family =
        find_metric_family(sample_name.substr(0, sample_name.size() - suffix.size()));
    if (family != nullptr && family->type == MetricType::kHistogram) {
      return MetricSample{family, part};
    }
  }
  return std::nullopt;
}

}  // namespace allot
