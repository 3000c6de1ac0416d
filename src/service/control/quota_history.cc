#include "service/control/quota_history.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

namespace allot {
namespace {

const TeamQuotaInterval* open_quota_of(const std::vector<TeamQuotaInterval>& history,
                                       const std::string& team) {
  const TeamQuotaInterval* open = nullptr;
  for (const TeamQuotaInterval& q : history) {
    if (q.team == team && !q.end) open = &q;
  }
  return open;
}

std::string quota_padded(int64_t value) {
  std::string digits = std::to_string(value);
  if (digits.size() < 20) digits.insert(0, 20 - digits.size(), '0');
  return digits;
}

}  // namespace

TeamQuotaGpus team_quota_gpus(const CompiledPolicy& policy, const CompiledTeam& team) {
  TeamQuotaGpus gpus;
  bool limited = true;
  int64_t ceiling = 0;
  for (const FlavorIndex flavor : team.flavor_order) {
    const QuotaLimits limits =
        policy.limits(team.quota_node, CompiledPolicy::fr_of(flavor, Resource::kGpu));
    gpus.nominal += limits.nominal;
    limited = limited && limits.borrowing_limit != kNoLimit;
    if (limited) ceiling += limits.nominal + limits.borrowing_limit;
  }
  if (limited) gpus.ceiling = ceiling;
  return gpus;
}

std::vector<TeamQuotaInterval> quota_changes(const std::vector<TeamQuotaInterval>& history,
                                             const CompiledPolicy* policy, Timestamp now) {
  std::vector<TeamQuotaInterval> changes;
  std::set<std::string> present;
  if (policy != nullptr) {
    for (int32_t t = 0; t < policy->team_count(); ++t) {
      const CompiledTeam& team = policy->team(TeamIndex(t));
      present.insert(team.name);
      const TeamQuotaGpus gpus = team_quota_gpus(*policy, team);
      const TeamQuotaInterval* open = open_quota_of(history, team.name);
      if (open != nullptr && open->gpus == gpus) continue;
      changes.push_back({team.name, gpus, now, std::nullopt});
    }
  }
  for (const TeamQuotaInterval& q : history) {
    if (q.end || present.contains(q.team) || q.gpus == TeamQuotaGpus{0, 0}) continue;
    changes.push_back({q.team, {0, 0}, now, std::nullopt});  // the team is gone
  }
  return changes;
}

void apply_quota_changes(std::vector<TeamQuotaInterval> changes,
                         std::vector<TeamQuotaInterval>& history) {
  for (TeamQuotaInterval& change : changes) {
    for (TeamQuotaInterval& previous : history) {
      if (previous.team == change.team && !previous.end) previous.end = change.start;
    }
    history.push_back(std::move(change));
  }
}

std::optional<TeamQuotaGpus> quota_at(const std::vector<TeamQuotaInterval>& history,
                                      const std::string& team, Timestamp at) {
  for (const TeamQuotaInterval& q : history) {
    if (q.team == team && q.start <= at && (!q.end || at < *q.end)) return q.gpus;
  }
  return std::nullopt;
}

ObjectRecord team_quota_object(const TeamQuotaInterval& q) {
  const nlohmann::json json = {
      {"team", q.team},
      {"from", q.start.ms()},
      {"nominalGpus", q.gpus.nominal},
      {"ceilingGpus", q.gpus.ceiling ? nlohmann::json(*q.gpus.ceiling) : nlohmann::json(nullptr)}};
  return {std::string(kTeamQuotaKind), q.team + "/" + quota_padded(q.start.ms()), json.dump()};
}

Status load_team_quota(const ObjectRecord& object, std::vector<TeamQuotaInterval>& history) {
  const nlohmann::json json = nlohmann::json::parse(object.document, nullptr, false);
  const auto bad = [&object](const char* what) {
    return invalid_argument("stored " + object.kind + " '" + object.name + "' has no " + what);
  };
  if (!json.is_object()) return bad("JSON object");
  if (!json.contains("team") || !json["team"].is_string()) return bad("text `team`");
  if (!json.contains("from") || !json["from"].is_number_integer()) return bad("integer `from`");
  if (!json.contains("nominalGpus") || !json["nominalGpus"].is_number_integer()) {
    return bad("integer `nominalGpus`");
  }
  const auto ceiling = json.find("ceilingGpus");
  if (ceiling == json.end() || !(ceiling->is_null() || ceiling->is_number_integer())) {
    return bad("integer or null `ceilingGpus`");
  }
  TeamQuotaInterval q;
  q.team = json["team"].get<std::string>();
  q.start = Timestamp::from_millis(json["from"].get<int64_t>());
  q.gpus.nominal = json["nominalGpus"].get<int64_t>();
  if (ceiling->is_number_integer()) q.gpus.ceiling = ceiling->get<int64_t>();
  history.push_back(std::move(q));
  return {};
}

void finish_quota_load(std::vector<TeamQuotaInterval>& history) {
  std::stable_sort(history.begin(), history.end(),
                   [](const auto& a, const auto& b) { return a.start < b.start; });
  std::map<std::string, TeamQuotaInterval*> last;
  for (TeamQuotaInterval& q : history) {
    if (TeamQuotaInterval*& previous = last[q.team]) previous->end = q.start;
    last[q.team] = &q;
  }
}

}  // namespace allot
