#include "service/control/metering_state.h"

#include <algorithm>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

namespace allot {
namespace {

// Zero-padded, so that names sort as the numbers do (negative times do not occur).
std::string padded(int64_t value) {
  std::string digits = std::to_string(value);
  if (digits.size() < 20) digits.insert(0, 20 - digits.size(), '0');
  return digits;
}

Result<int64_t> read_int(const nlohmann::json& json, const char* field,
                         const ObjectRecord& object) {
  const auto it = json.find(field);
  if (it == json.end() || !it->is_number_integer()) {
    return invalid_argument("stored " + object.kind + " '" + object.name + "' has no integer `" +
                            field + "`");
  }
  return it->get<int64_t>();
}

Result<double> read_double(const nlohmann::json& json, const char* field,
                           const ObjectRecord& object) {
  const auto it = json.find(field);
  if (it == json.end() || !it->is_number()) {
    return invalid_argument("stored " + object.kind + " '" + object.name + "' has no number `" +
                            field + "`");
  }
  return it->get<double>();
}

Result<std::string> read_text(const nlohmann::json& json, const char* field,
                              const ObjectRecord& object) {
  const auto it = json.find(field);
  if (it == json.end() || !it->is_string()) {
    return invalid_argument("stored " + object.kind + " '" + object.name + "' has no text `" +
                            field + "`");
  }
  return it->get<std::string>();
}

Status load_rate_card(const nlohmann::json& json, const ObjectRecord& object,
                      MeteringState& state) {
  RateCardVersion v;
  ALLOT_ASSIGN_OR_RETURN(v.version, read_int(json, "version", object));
  ALLOT_ASSIGN_OR_RETURN(v.flavor, read_text(json, "flavor", object));
  ALLOT_ASSIGN_OR_RETURN(int64_t from, read_int(json, "from", object));
  v.from = Timestamp::from_millis(from);
  ALLOT_ASSIGN_OR_RETURN(v.price.currency, read_text(json, "currency", object));
  ALLOT_ASSIGN_OR_RETURN(v.price.gpu_hour, read_double(json, "gpuHour", object));
  ALLOT_ASSIGN_OR_RETURN(v.price.cpu_hour, read_double(json, "cpuHour", object));
  ALLOT_ASSIGN_OR_RETURN(v.price.memory_gib_hour, read_double(json, "memoryGiBHour", object));
  state.rate_cards.push_back(std::move(v));
  return {};
}

Status load_capacity(const nlohmann::json& json, const ObjectRecord& object, MeteringState& state) {
  CapacityInterval c;
  ALLOT_ASSIGN_OR_RETURN(c.flavor, read_text(json, "flavor", object));
  ALLOT_ASSIGN_OR_RETURN(int64_t from, read_int(json, "from", object));
  c.start = Timestamp::from_millis(from);
  ALLOT_ASSIGN_OR_RETURN(c.capacity[Resource::kGpu], read_int(json, "gpu", object));
  ALLOT_ASSIGN_OR_RETURN(c.capacity[Resource::kCpu], read_int(json, "cpuMillis", object));
  ALLOT_ASSIGN_OR_RETURN(c.capacity[Resource::kMemory], read_int(json, "memoryBytes", object));
  state.capacity.push_back(std::move(c));
  return {};
}

Status load_adjustment(const nlohmann::json& json, const ObjectRecord& object,
                       MeteringState& state) {
  UsageAdjustment a;
  ALLOT_ASSIGN_OR_RETURN(int64_t workload, read_int(json, "workload", object));
  a.workload = WorkloadId(static_cast<uint64_t>(workload));
  ALLOT_ASSIGN_OR_RETURN(a.workload_name, read_text(json, "workloadName", object));
  ALLOT_ASSIGN_OR_RETURN(std::string team, read_text(json, "team", object));
  a.team = TeamId(std::move(team));
  ALLOT_ASSIGN_OR_RETURN(a.user, read_text(json, "user", object));
  ALLOT_ASSIGN_OR_RETURN(a.flavor, read_text(json, "flavor", object));
  ALLOT_ASSIGN_OR_RETURN(int64_t from, read_int(json, "from", object));
  ALLOT_ASSIGN_OR_RETURN(int64_t to, read_int(json, "to", object));
  a.span = {Timestamp::from_millis(from), Timestamp::from_millis(to)};
  ALLOT_ASSIGN_OR_RETURN(a.gpus, read_int(json, "gpus", object));
  ALLOT_ASSIGN_OR_RETURN(a.job_ids, read_text(json, "jobIds", object));
  state.adjustments.push_back(std::move(a));
  return {};
}

}  // namespace

bool is_metering_kind(std::string_view kind) {
  return kind == kRateCardKind || kind == kFlavorCapacityKind || kind == kMeteringGapKind ||
         kind == kMeteringHeartbeatKind || kind == kUsageAdjustmentKind || kind == kTeamQuotaKind;
}

AllocationInterval allocation_interval_of(AllocationRecord record) {
  AllocationInterval a;
  a.workload = record.workload_id;
  a.workload_name = std::move(record.workload_name);
  a.team = TeamId(std::move(record.team));
  a.user = std::move(record.user);
  a.flavor = std::move(record.flavor);
  a.own = record.own;
  a.borrowed = record.borrowed;
  a.start = Timestamp::from_millis(record.start_ms);
  if (record.end_ms) a.end = Timestamp::from_millis(*record.end_ms);
  return a;
}

ObjectRecord rate_card_object(const RateCardVersion& v) {
  const nlohmann::json json = {{"version", v.version},
                               {"flavor", v.flavor},
                               {"from", v.from.ms()},
                               {"currency", v.price.currency},
                               {"gpuHour", v.price.gpu_hour},
                               {"cpuHour", v.price.cpu_hour},
                               {"memoryGiBHour", v.price.memory_gib_hour}};
  return {std::string(kRateCardKind), padded(v.version), json.dump()};
}

ObjectRecord capacity_object(const CapacityInterval& c) {
  const nlohmann::json json = {{"flavor", c.flavor},
                               {"from", c.start.ms()},
                               {"gpu", c.capacity.gpu()},
                               {"cpuMillis", c.capacity.cpu_millis()},
                               {"memoryBytes", c.capacity.memory_bytes()}};
  return {std::string(kFlavorCapacityKind), c.flavor + "/" + padded(c.start.ms()), json.dump()};
}

ObjectRecord gap_object(const Period& gap) {
  const nlohmann::json json = {{"from", gap.from.ms()}, {"to", gap.to.ms()}};
  return {std::string(kMeteringGapKind), padded(gap.from.ms()), json.dump()};
}

ObjectRecord heartbeat_object(Timestamp at) {
  const nlohmann::json json = {{"at", at.ms()}};
  return {std::string(kMeteringHeartbeatKind), "allotd", json.dump()};
}

ObjectRecord adjustment_object(const UsageAdjustment& a, int64_t sequence) {
  const nlohmann::json json = {{"workload", static_cast<int64_t>(a.workload.value())},
                               {"workloadName", a.workload_name},
                               {"team", a.team.str()},
                               {"user", a.user},
                               {"flavor", a.flavor},
                               {"from", a.span.from.ms()},
                               {"to", a.span.to.ms()},
                               {"gpus", a.gpus},
                               {"jobIds", a.job_ids}};
  return {std::string(kUsageAdjustmentKind), padded(sequence), json.dump()};
}

Status load_metering_object(const ObjectRecord& object, MeteringState& state) {
  if (object.kind == kTeamQuotaKind) return load_team_quota(object, state.quotas);
  const nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
  if (!json.is_object()) {
    return invalid_argument("stored " + object.kind + " '" + object.name +
                            "' is not a JSON object");
  }
  if (object.kind == kRateCardKind) return load_rate_card(json, object, state);
  if (object.kind == kFlavorCapacityKind) return load_capacity(json, object, state);
  if (object.kind == kUsageAdjustmentKind) return load_adjustment(json, object, state);
  if (object.kind == kMeteringGapKind) {
    ALLOT_ASSIGN_OR_RETURN(int64_t from, read_int(json, "from", object));
    ALLOT_ASSIGN_OR_RETURN(int64_t to, read_int(json, "to", object));
    state.gaps.push_back({Timestamp::from_millis(from), Timestamp::from_millis(to)});
    return {};
  }
  ALLOT_ASSIGN_OR_RETURN(int64_t at, read_int(json, "at", object));
  state.heartbeat = Timestamp::from_millis(at);
  return {};
}

void finish_metering_load(MeteringState& state) {
  finish_quota_load(state.quotas);
  std::sort(state.rate_cards.begin(), state.rate_cards.end(),
            [](const auto& a, const auto& b) { return a.version < b.version; });
  std::sort(state.gaps.begin(), state.gaps.end(),
            [](const Period& a, const Period& b) { return a.from < b.from; });
  std::stable_sort(state.capacity.begin(), state.capacity.end(),
                   [](const auto& a, const auto& b) { return a.start < b.start; });
  std::map<std::string, CapacityInterval*> last;
  for (CapacityInterval& c : state.capacity) {
    if (CapacityInterval*& previous = last[c.flavor]) previous->end = c.start;
    last[c.flavor] = &c;
  }
}

}  // namespace allot
