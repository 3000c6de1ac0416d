#include "accounting/usage_report.h"

#include <algorithm>
#include <array>
#include <limits>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "accounting/calendar_day.h"
#include "accounting/idle_sharing.h"

namespace allot {
namespace {

constexpr std::array<std::pair<GroupKey, std::string_view>, 6> kGroupKeys = {{
    {GroupKey::kTeam, "team"},
    {GroupKey::kUser, "user"},
    {GroupKey::kWorkload, "workload"},
    {GroupKey::kFlavor, "flavor"},
    {GroupKey::kDay, "day"},
    {GroupKey::kProject, "project"},
}};

constexpr std::array<std::pair<IdleMode, std::string_view>, 3> kIdleModes = {{
    {IdleMode::kSeparate, "separate"},
    {IdleMode::kShareEven, "share-even"},
    {IdleMode::kShareNominal, "share-nominal"},
}};

// Where idle is measured: one flavor, day (empty unless grouped by day) and version.
struct CellKey {
  std::string flavor;
  std::string day;
  int64_t version = kNoRateCard;
};

// A CellKey's fields without their strings: the key of a lookup.
struct CellView {
  std::string_view flavor;
  std::string_view day;
  int64_t version = kNoRateCard;
};

// Orders CellKeys, and finds one by a CellView without copying its strings.
struct CellKeyLess {
  using is_transparent = void;  // NOLINT(readability-identifier-naming): the standard's name
  static CellView view_of(const CellKey& k) { return {k.flavor, k.day, k.version}; }
  static CellView view_of(const CellView& v) { return v; }
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    const CellView x = view_of(a);
    const CellView y = view_of(b);
    return std::tie(x.flavor, x.day, x.version) < std::tie(y.flavor, y.day, y.version);
  }
};

struct Cell {
  ResourceTime capacity;
  ResourceTime allocated;
  ResourceTime allocated_while_missing;  // the backend's record inside missing data
};

using RowKey = std::vector<std::string>;

// A RowKey's parts without their strings: the key of a lookup, or of the
// index of the rows (its views then point into the rows' own keys).
struct RowView {
  std::array<std::string_view, kGroupKeys.size()> parts{};
  size_t size = 0;

  void push_back(std::string_view part) { parts[size++] = part; }
  bool operator==(const RowView& other) const {
    return size == other.size &&
           std::equal(parts.begin(), parts.begin() + static_cast<ptrdiff_t>(size),
                      other.parts.begin());
  }
};

struct RowViewHash {
  size_t operator()(const RowView& view) const {
    size_t hash = view.size;
    for (size_t i = 0; i < view.size; ++i) {
      hash = hash * 1'000'003 ^ std::hash<std::string_view>()(view.parts[i]);
    }
    return hash;
  }
};

// Cuts a span into the pieces that are counted: inside the covered periods,
// per day when grouped by day, per rate card version. Each flavor's rate card
// versions over all time, and each day's label, are worked out once.
class Slicer {
 public:
  Slicer(std::vector<Period> covered, bool by_day, const RateCard& rates)
      : covered_(std::move(covered)), by_day_(by_day), rates_(rates) {}

  template <typename Visit>
  void slice(const std::string& flavor, Timestamp start, std::optional<Timestamp> end,
             Visit&& visit) {
    slice_within(covered_, flavor, start, end, visit);
  }

  // The same, inside `spans` (sorted, disjoint) instead of the covered periods.
  template <typename Visit>
  void slice_within(const std::vector<Period>& spans, const std::string& flavor, Timestamp start,
                    std::optional<Timestamp> end, Visit&& visit) {
    const std::vector<RateCard::Segment>& versions = versions_of(flavor);
    for (const Period& span : spans) {
      const Timestamp from = std::max(start, span.from);
      const Timestamp to = end ? std::min(*end, span.to) : span.to;
      if (from < to) slice_days(versions, from, to, visit);
    }
  }

 private:
  template <typename Visit>
  void slice_days(const std::vector<RateCard::Segment>& versions, Timestamp from, Timestamp to,
                  Visit& visit) {
    while (from < to) {
      const Timestamp piece_end =
          by_day_ ? std::min(to, day_start(from) + Duration::millis(kMillisPerDay)) : to;
      const std::string& day = by_day_ ? label_of(from) : no_day_;
      // The first version still in force at `from`, then each one up to piece_end.
      auto segment =
          std::upper_bound(versions.begin(), versions.end(), from,
                           [](Timestamp at, const RateCard::Segment& s) { return at < s.to; });
      for (; segment != versions.end() && segment->from < piece_end; ++segment) {
        const Timestamp piece_from = std::max(from, segment->from);
        const Timestamp piece_to = std::min(piece_end, segment->to);
        if (piece_from < piece_to) visit(day, segment->version, piece_to - piece_from);
      }
      from = piece_end;
    }
  }

  // The flavor's rate card versions from the first timestamp to the last, in time order.
  const std::vector<RateCard::Segment>& versions_of(const std::string& flavor) {
    const auto found = versions_.find(flavor);
    if (found != versions_.end()) return found->second;
    return versions_
        .emplace(flavor, rates_.segments(
                             flavor, Timestamp::from_millis(std::numeric_limits<int64_t>::min()),
                             Timestamp::from_millis(std::numeric_limits<int64_t>::max())))
        .first->second;
  }

  const std::string& label_of(Timestamp at) {
    const int64_t day = day_start(at).ms();
    const auto found = labels_.find(day);
    if (found != labels_.end()) return found->second;
    return labels_.emplace(day, day_label(at)).first->second;
  }

  std::vector<Period> covered_;
  bool by_day_;
  const RateCard& rates_;
  std::map<std::string, std::vector<RateCard::Segment>, std::less<>> versions_;
  std::unordered_map<int64_t, std::string> labels_;  // by the day's start
  std::string no_day_;
};

bool has_key(const UsageQuery& query, GroupKey key) {
  return std::find(query.by.begin(), query.by.end(), key) != query.by.end();
}

Status check_query(const UsageQuery& query) {
  if (query.from >= query.to) return invalid_argument("the report's `from` must be before `to`");
  for (size_t i = 0; i < query.by.size(); ++i) {
    if (std::count(query.by.begin(), query.by.end(), query.by[i]) > 1) {
      return invalid_argument(std::string("`by` names '") +
                              std::string(group_key_name(query.by[i])) + "' twice");
    }
  }
  if (query.idle == IdleMode::kSeparate) return {};
  for (GroupKey key : query.by) {
    if (key == GroupKey::kUser || key == GroupKey::kWorkload || key == GroupKey::kProject) {
      return invalid_argument(std::string("idle=") + std::string(idle_mode_name(query.idle)) +
                              " shares idle capacity among teams; `by` may then name only team, "
                              "flavor and day, not '" +
                              std::string(group_key_name(key)) + "'");
    }
  }
  return {};
}

// The contract whose namespaces hold the workload ("namespace/name"); "" for none.
std::string_view usage_project_of(const std::map<std::string, std::string>& projects,
                                  const std::string& workload_name) {
  const auto it = projects.find(workload_name.substr(0, workload_name.find('/')));
  return it == projects.end() ? std::string_view() : std::string_view(it->second);
}

// The row of an allocation's piece on `day`: views of the allocation's strings.
RowView allocation_key(const UsageQuery& query, const AllocationInterval& a, const std::string& day,
                       const std::map<std::string, std::string>& projects) {
  RowView key;
  for (GroupKey k : query.by) {
    switch (k) {
      case GroupKey::kTeam: key.push_back(a.team.str()); break;
      case GroupKey::kUser: key.push_back(a.user); break;
      case GroupKey::kWorkload: key.push_back(a.workload_name); break;
      case GroupKey::kFlavor: key.push_back(a.flavor); break;
      case GroupKey::kDay: key.push_back(day); break;
      case GroupKey::kProject: key.push_back(usage_project_of(projects, a.workload_name)); break;
    }
  }
  return key;
}

RowKey idle_key(const UsageQuery& query, const TeamId& team, const CellKey& cell) {
  RowKey key;
  for (GroupKey k : query.by) {
    if (k == GroupKey::kTeam) key.push_back(team.str());
    if (k == GroupKey::kFlavor) key.push_back(cell.flavor);
    if (k == GroupKey::kDay) key.push_back(cell.day);
  }
  return key;
}

bool visible(const UsageQuery& query, const TeamId& team) {
  return !query.visible_teams || query.visible_teams->contains(team);
}

// The state of one report while it is built.
struct Builder {
  const UsageLedger& ledger;
  const UsageQuery& query;
  Slicer slicer;
  std::map<CellKey, Cell, CellKeyLess> cells;
  std::map<RowKey, UsageFigures> rows;
  std::map<std::string, FlavorBalance> flavors;
  // The rows by their keys' views: finding a row copies no string.
  std::unordered_map<RowView, UsageFigures*, RowViewHash> row_index;

  Cell& cell_of(const CellView& key) {
    auto found = cells.find(key);
    if (found == cells.end()) {
      found =
          cells.emplace(CellKey{std::string(key.flavor), std::string(key.day), key.version}, Cell{})
              .first;
    }
    return found->second;
  }

  UsageFigures& row_of(const RowView& key) {
    const auto found = row_index.find(key);
    if (found != row_index.end()) return *found->second;
    auto [row, added] = rows.try_emplace(
        RowKey(key.parts.begin(), key.parts.begin() + static_cast<ptrdiff_t>(key.size)));
    RowView own_key;
    for (const std::string& part : row->first) own_key.push_back(part);
    row_index.emplace(own_key, &row->second);
    return row->second;
  }

  // Per workload the backend accounted: the missing-data periods of
  // [from, to) that its coverage entries span (backend_reconciliation.h).
  std::map<WorkloadId, std::vector<Period>> backend_covered_gaps;

  void cover_gaps(const std::vector<Period>& gaps) {
    if (gaps.empty()) return;
    std::map<WorkloadId, std::vector<Period>> coverage;
    for (const UsageAdjustment& j : ledger.adjustments) {
      if (j.gpus == 0) coverage[j.workload].push_back(j.span);
    }
    for (auto& [workload, spans] : coverage) {
      std::vector<Period> inside;
      for (const Period& gap : gaps) {
        for (const Period& piece : subtract_periods(gap, subtract_periods(gap, spans))) {
          inside.push_back(piece);
        }
      }
      if (!inside.empty()) backend_covered_gaps.emplace(workload, std::move(inside));
    }
  }

  // How a piece of `a` (own and borrowed, for `d` on `day`, version `v`) is counted.
  void count_piece(const AllocationInterval& a, bool shown, bool while_missing,
                   const std::string& day, int64_t v, Duration d) {
    const ResourceTime own = ResourceTime::of(a.own, d);
    const ResourceTime borrowed = ResourceTime::of(a.borrowed, d);
    Cell& cell = cell_of({a.flavor, day, v});
    (while_missing ? cell.allocated_while_missing : cell.allocated) += own + borrowed;
    if (!shown) return;
    PricedTime& row = row_of(allocation_key(query, a, day, ledger.projects)).by_version[v];
    row.own += own;
    row.borrowed += borrowed;
  }

  // Counts `a` over the covered periods and, where the backend accounted its
  // workload, over the missing-data periods its record spans.
  void count(const AllocationInterval& a) {
    const bool shown = visible(query, a.team);
    slicer.slice(a.flavor, a.start, a.end, [&](const std::string& day, int64_t v, Duration d) {
      count_piece(a, shown, false, day, v, d);
    });
    const auto gaps = backend_covered_gaps.find(a.workload);
    if (gaps == backend_covered_gaps.end()) return;
    slicer.slice_within(gaps->second, a.flavor, a.start, a.end,
                        [&](const std::string& day, int64_t v, Duration d) {
                          count_piece(a, shown, true, day, v, d);
                        });
  }

  void add_allocations() {
    for (const AllocationInterval& a : ledger.allocations) count(a);
  }

  // The allocation of `u`'s workload that holds u's start (else its first).
  const AllocationInterval* holder_of(
      const std::map<WorkloadId, std::vector<const AllocationInterval*>>& by_workload,
      const UtilizationInterval& u) const {
    const auto found = by_workload.find(u.workload);
    if (found == by_workload.end()) return nullptr;
    for (const AllocationInterval* a : found->second) {
      if (a->start <= u.start && (!a->end || u.start < *a->end)) return a;
    }
    return found->second.front();
  }

  void add_utilization() {
    if (ledger.utilization.empty()) return;
    std::map<WorkloadId, std::vector<const AllocationInterval*>> by_workload;
    for (const AllocationInterval& a : ledger.allocations) by_workload[a.workload].push_back(&a);
    for (const UtilizationInterval& u : ledger.utilization) {
      const AllocationInterval* a = holder_of(by_workload, u);
      if (a == nullptr || !visible(query, a->team)) continue;
      slicer.slice(a->flavor, u.start, u.end, [&](const std::string& day, int64_t, Duration d) {
        Efficiency& e = row_of(allocation_key(query, *a, day, ledger.projects)).efficiency;
        e.measured_gpu_ms += d.ms();
        e.busy_gpu_ppm_ms += WideInt{d.ms()} * u.utilization_ppm;
      });
    }
  }

  // An adjustment counts as own use of its workload, signed.
  void add_adjustments() {
    for (const UsageAdjustment& j : ledger.adjustments) {
      if (j.gpus == 0) continue;
      count({j.workload,
             j.workload_name,
             j.team,
             j.user,
             j.flavor,
             ResourceVector(j.gpus, 0, 0),
             {},
             j.span.from,
             j.span.to});
    }
  }

  void add_capacity() {
    for (const CapacityInterval& c : ledger.capacity) {
      slicer.slice(c.flavor, c.start, c.end, [&](const std::string& day, int64_t v, Duration d) {
        cell_of({c.flavor, day, v}).capacity += ResourceTime::of(c.capacity, d);
      });
    }
  }

  // The teams that share a flavor's idle, by name, with their nominal quota.
  std::vector<std::pair<TeamId, ResourceVector>> sharers(const std::string& flavor) const {
    std::map<TeamId, ResourceVector> teams;
    for (const NominalQuota& q : ledger.nominal) {
      if (q.flavor == flavor) teams[q.team] += q.nominal;
    }
    return {teams.begin(), teams.end()};
  }

  // Shares one resource of a cell's idle; returns what was handed out.
  WideInt share(const CellKey& key, Resource r, WideInt idle,
                const std::vector<std::pair<TeamId, ResourceVector>>& teams) {
    std::vector<WideInt> weights;
    WideInt sum = 0;
    for (const auto& [team, nominal] : teams) {
      weights.push_back(query.idle == IdleMode::kShareEven ? 1 : nominal[r]);
      sum += weights.back();
    }
    if (sum == 0) return 0;
    const std::vector<WideInt> shares = split_exact(idle, weights);
    for (size_t i = 0; i < teams.size(); ++i) {
      if (shares[i] == 0 || !visible(query, teams[i].first)) continue;
      rows[idle_key(query, teams[i].first, key)].by_version[key.version].idle[r] += shares[i];
    }
    return idle;
  }

  void settle_idle() {
    for (const auto& [key, cell] : cells) {
      FlavorBalance& balance = flavors[key.flavor];
      balance.flavor = key.flavor;
      balance.capacity += cell.capacity;
      balance.allocated += cell.allocated;
      balance.allocated_while_missing += cell.allocated_while_missing;
      ResourceTime idle = cell.capacity - cell.allocated;
      if (query.idle != IdleMode::kSeparate) {
        const auto teams = sharers(key.flavor);
        for (Resource r : kAllResources) {
          if (teams.empty() || idle[r] == 0) continue;
          const WideInt shared = share(key, r, idle[r], teams);
          balance.shared_idle[r] += shared;
          idle[r] -= shared;
        }
      }
      if (!idle.is_zero()) balance.idle.by_version[key.version].idle += idle;
    }
  }
};

std::vector<Period> clipped_missing(const UsageLedger& ledger, const UsageQuery& query) {
  const Period whole{query.from, query.to};
  std::vector<Period> inside = subtract_periods(whole, subtract_periods(whole, ledger.missing));
  return inside;
}

void collect_versions(const UsageFigures& figures, std::set<int64_t>& versions) {
  for (const auto& [version, time] : figures.by_version) {
    if (version != kNoRateCard) versions.insert(version);
  }
}

Status name_rate_cards(const UsageLedger& ledger, UsageReport& report) {
  std::set<int64_t> versions;
  for (const UsageRow& row : report.rows) collect_versions(row.figures, versions);
  for (const FlavorBalance& f : report.flavors) collect_versions(f.idle, versions);
  for (int64_t version : versions) {
    const RateCardVersion* found = ledger.rates.find(version);
    if (found == nullptr) continue;
    if (!report.currency.empty() && report.currency != found->price.currency) {
      return invalid_argument("the rate cards in [from, to) use more than one currency (" +
                              report.currency + ", " + found->price.currency +
                              "); report a period with one currency");
    }
    report.currency = found->price.currency;
    report.rate_cards.push_back(*found);
  }
  return {};
}

}  // namespace

std::string_view group_key_name(GroupKey key) {
  for (const auto& [k, name] : kGroupKeys) {
    if (k == key) return name;
  }
  return "?";
}

Result<GroupKey> parse_group_key(std::string_view name) {
  for (const auto& [k, text] : kGroupKeys) {
    if (text == name) return k;
  }
  return invalid_argument("unknown grouping '" + std::string(name) +
                          "': expected team, user, workload, flavor or day");
}

std::string_view idle_mode_name(IdleMode mode) {
  for (const auto& [m, name] : kIdleModes) {
    if (m == mode) return name;
  }
  return "?";
}

Result<IdleMode> parse_idle_mode(std::string_view name) {
  for (const auto& [m, text] : kIdleModes) {
    if (text == name) return m;
  }
  return invalid_argument("unknown idle mode '" + std::string(name) +
                          "': expected separate, share-even or share-nominal");
}

PricedTime UsageFigures::sum() const {
  PricedTime total;
  for (const auto& [version, time] : by_version) {
    total.own += time.own;
    total.borrowed += time.borrowed;
    total.idle += time.idle;
  }
  return total;
}

double cost_of(const ResourceTime& time, const FlavorPrice& price) {
  return time.hours(Resource::kGpu) * price.gpu_hour + time.hours(Resource::kCpu) * price.cpu_hour +
         time.hours(Resource::kMemory) * price.memory_gib_hour;
}

Costs UsageFigures::costs(const RateCard& rates) const {
  Costs costs;
  for (const auto& [version, time] : by_version) {
    const FlavorPrice& price = rates.price(version);
    costs.own += cost_of(time.own, price);
    costs.borrowed += cost_of(time.borrowed, price);
    costs.idle += cost_of(time.idle, price);
  }
  return costs;
}

namespace {
constexpr double kUsageMillisPerHour = 3'600'000.0;
constexpr double kUsagePpm = 1'000'000.0;
}  // namespace

double Efficiency::measured_gpu_hours() const {
  return static_cast<double>(measured_gpu_ms) / kUsageMillisPerHour;
}

double Efficiency::busy_gpu_hours() const {
  return static_cast<double>(busy_gpu_ppm_ms) / kUsagePpm / kUsageMillisPerHour;
}

double Efficiency::gpu_utilization() const {
  return static_cast<double>(busy_gpu_ppm_ms) / kUsagePpm / static_cast<double>(measured_gpu_ms);
}

void UsageFigures::add(const UsageFigures& other) {
  efficiency.measured_gpu_ms += other.efficiency.measured_gpu_ms;
  efficiency.busy_gpu_ppm_ms += other.efficiency.busy_gpu_ppm_ms;
  for (const auto& [version, time] : other.by_version) {
    PricedTime& mine = by_version[version];
    mine.own += time.own;
    mine.borrowed += time.borrowed;
    mine.idle += time.idle;
  }
}

Result<UsageReport> build_usage_report(const UsageLedger& ledger, const UsageQuery& query) {
  ALLOT_RETURN_IF_ERROR(check_query(query));
  const Period whole{query.from, query.to};
  Builder builder{
      ledger,
      query,
      Slicer(subtract_periods(whole, ledger.missing), has_key(query, GroupKey::kDay), ledger.rates),
      {},
      {},
      {},
      {},
      {}};
  std::vector<Period> missing = clipped_missing(ledger, query);
  builder.cover_gaps(missing);
  builder.add_allocations();
  builder.add_utilization();
  builder.add_adjustments();
  builder.add_capacity();
  builder.settle_idle();

  UsageReport report;
  report.query = query;
  report.missing = std::move(missing);
  for (const UsageAdjustment& a : ledger.adjustments) {
    if (a.gpus != 0 && a.span.from < query.to && query.from < a.span.to && visible(query, a.team)) {
      report.adjustments.push_back(a);
    }
  }
  for (auto& [key, figures] : builder.rows) {
    report.totals.add(figures);
    report.rows.push_back({key, std::move(figures)});
  }
  if (!query.visible_teams) {
    for (auto& [flavor, balance] : builder.flavors) report.flavors.push_back(std::move(balance));
  }
  ALLOT_RETURN_IF_ERROR(name_rate_cards(ledger, report));
  return report;
}

}  // namespace allot
