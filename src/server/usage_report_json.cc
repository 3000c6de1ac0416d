#include "server/usage_report_json.h"

#include <array>
#include <string>

#include <openssl/evp.h>

#include "api/rfc3339.h"

namespace allot::server {
namespace {

std::string sha256_hex(const std::string& text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_Digest(text.data(), text.size(), digest.data(), &size, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xf];
  }
  return hex;
}

void put_hours(nlohmann::json& out, const std::string& prefix, const ResourceTime& time) {
  const auto name = [&](const char* resource) {
    if (prefix.empty()) return std::string(resource);
    std::string upper = resource;
    upper[0] = static_cast<char>(upper[0] - 'a' + 'A');
    return prefix + upper;
  };
  out[name("gpuHours")] = time.hours(Resource::kGpu);
  out[name("cpuHours")] = time.hours(Resource::kCpu);
  out[name("memoryGiBHours")] = time.hours(Resource::kMemory);
}

nlohmann::json figures_json(const UsageFigures& figures, const RateCard& rates) {
  const PricedTime sum = figures.sum();
  const Costs costs = figures.costs(rates);
  nlohmann::json out = nlohmann::json::object();
  put_hours(out, "", sum.own + sum.borrowed);
  out["ownGpuHours"] = sum.own.hours(Resource::kGpu);
  out["borrowedGpuHours"] = sum.borrowed.hours(Resource::kGpu);
  out["ownCpuHours"] = sum.own.hours(Resource::kCpu);
  out["borrowedCpuHours"] = sum.borrowed.hours(Resource::kCpu);
  out["ownMemoryGiBHours"] = sum.own.hours(Resource::kMemory);
  out["borrowedMemoryGiBHours"] = sum.borrowed.hours(Resource::kMemory);
  out["cost"] = costs.own + costs.borrowed;
  out["ownCost"] = costs.own;
  out["borrowedCost"] = costs.borrowed;
  put_hours(out, "idle", sum.idle);
  out["idleCost"] = costs.idle;
  out["totalCost"] = costs.total();
  nlohmann::json by_version = nlohmann::json::array();
  for (const auto& [version, time] : figures.by_version) {
    const FlavorPrice& price = rates.price(version);
    by_version.push_back({{"rateCard", version},
                          {"cost", cost_of(time.own, price) + cost_of(time.borrowed, price)},
                          {"idleCost", cost_of(time.idle, price)}});
  }
  out["costByRateCard"] = std::move(by_version);
  // Efficiency: null where no GPU of the row was measured ("not measured", never 0).
  const Efficiency& e = figures.efficiency;
  out["measuredGpuHours"] = e.measured() ? nlohmann::json(e.measured_gpu_hours()) : nullptr;
  out["gpuUtilization"] = e.measured() ? nlohmann::json(e.gpu_utilization()) : nullptr;
  return out;
}

nlohmann::json flavor_json(const FlavorBalance& balance, const RateCard& rates) {
  nlohmann::json out = {{"flavor", balance.flavor}};
  put_hours(out, "capacity", balance.capacity);
  put_hours(out, "allocated", balance.allocated);
  put_hours(out, "backendWhileMissing", balance.allocated_while_missing);
  const PricedTime left = balance.idle.sum();
  put_hours(out, "idle", left.idle);
  put_hours(out, "sharedIdle", balance.shared_idle);
  out["idleCost"] = balance.idle.costs(rates).idle;
  return out;
}

nlohmann::json rate_card_json(const RateCardVersion& v) {
  return {{"version", v.version},
          {"flavor", v.flavor},
          {"from", format_rfc3339(v.from)},
          {"currency", v.price.currency},
          {"gpuHour", v.price.gpu_hour},
          {"cpuHour", v.price.cpu_hour},
          {"memoryGiBHour", v.price.memory_gib_hour}};
}

}  // namespace

nlohmann::json usage_report_json(const UsageReport& report, const RateCard& rates) {
  const UsageQuery& query = report.query;
  nlohmann::json by = nlohmann::json::array();
  for (GroupKey key : query.by) by.push_back(std::string(group_key_name(key)));
  nlohmann::json out = {{"from", format_rfc3339(query.from)},
                        {"to", format_rfc3339(query.to)},
                        {"by", by},
                        {"currency", report.currency}};
  nlohmann::json cards = nlohmann::json::array();
  for (const RateCardVersion& v : report.rate_cards) cards.push_back(rate_card_json(v));
  out["rateCards"] = std::move(cards);
  nlohmann::json missing = nlohmann::json::array();
  for (const Period& gap : report.missing) {
    missing.push_back({{"from", format_rfc3339(gap.from)}, {"to", format_rfc3339(gap.to)}});
  }
  out["missingData"] = std::move(missing);
  nlohmann::json adjusted = nlohmann::json::array();
  for (const UsageAdjustment& a : report.adjustments) {
    adjusted.push_back({{"workload", a.workload_name},
                        {"team", a.team.str()},
                        {"flavor", a.flavor},
                        {"from", format_rfc3339(a.span.from)},
                        {"to", format_rfc3339(a.span.to)},
                        {"gpus", a.gpus},
                        {"jobIds", a.job_ids}});
  }
  out["backendAdjustments"] = std::move(adjusted);
  nlohmann::json rows = nlohmann::json::array();
  for (const UsageRow& row : report.rows) {
    nlohmann::json item = figures_json(row.figures, rates);
    for (size_t i = 0; i < query.by.size(); ++i) {
      item[std::string(group_key_name(query.by[i]))] = row.keys[i];
    }
    rows.push_back(std::move(item));
  }
  out["rows"] = std::move(rows);
  nlohmann::json flavors = nlohmann::json::array();
  for (const FlavorBalance& balance : report.flavors)
    flavors.push_back(flavor_json(balance, rates));
  out["idle"] = {{"mode", std::string(idle_mode_name(query.idle))},
                 {"clusterWide", !query.visible_teams.has_value()},
                 {"flavors", std::move(flavors)}};
  out["totals"] = figures_json(report.totals, rates);
  out["contentHash"] = "sha256:" + sha256_hex(out.dump());
  return out;
}

}  // namespace allot::server
