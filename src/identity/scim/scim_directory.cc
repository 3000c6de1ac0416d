#include "identity/scim/scim_directory.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>
#include <utility>

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_names.h"
#include "identity/scim/scim_patch.h"
#include "identity/scim/scim_resource.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

// "2026-12-02T07:25:44.123Z": RFC 3339 in UTC, fixed width, so that dateTime
// filters compare as text (days from civil, H. Hinnant's algorithm).
std::string format_time(Timestamp at) {
  const int64_t ms = at.ms();
  const int64_t days = (ms >= 0 ? ms : ms - 86'399'999) / 86'400'000;
  const int64_t day_ms = ms - days * 86'400'000;
  const int64_t z = days + 719'468;
  const int64_t era = (z >= 0 ? z : z - 146'096) / 146'097;
  const int64_t doe = z - era * 146'097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36'524 - doe / 146'096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  char text[128];
  std::snprintf(text, sizeof(text), "%04lld-%02lld-%02lldT%02lld:%02lld:%02lld.%03lldZ",
                static_cast<long long>(year), static_cast<long long>(month),
                static_cast<long long>(day), static_cast<long long>(day_ms / 3'600'000),
                static_cast<long long>(day_ms / 60'000 % 60),
                static_cast<long long>(day_ms / 1000 % 60), static_cast<long long>(day_ms % 1000));
  return text;
}

std::string_view name_attribute(ResourceKind kind) {
  return kind == ResourceKind::kUser ? "userName" : "displayName";
}

std::string name_key(ResourceKind kind, const json& resource) {
  const json* name = find_member(resource, name_attribute(kind));
  return name != nullptr && name->is_string() ? ascii_lower(name->get_ref<const std::string&>())
                                              : std::string();
}

std::string string_member(const json& object, std::string_view name) {
  const json* value = find_member(object, name);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

uint64_t version_of(const json& resource) {
  const std::string version = string_member(resource.value("meta", json::object()), "version");
  // W/"<n>"
  if (version.size() < 4) return 0;
  uint64_t number = 0;
  for (char c : version.substr(3, version.size() - 4)) {
    if (c < '0' || c > '9') return 0;
    number = number * 10 + static_cast<uint64_t>(c - '0');
  }
  return number;
}

void touch(json& resource, Timestamp now) {
  json& meta = resource["meta"];
  meta["lastModified"] = format_time(now);
  meta["version"] = "W/\"" + std::to_string(version_of(resource) + 1) + "\"";
}

// The `name eq "value"` or `id eq "value"` a filter is, if it is one.
std::optional<std::pair<std::string, std::string>> indexed_lookup(ResourceKind kind,
                                                                  const FilterNode& filter) {
  if (filter.kind != FilterNode::Kind::kCompare || filter.op != CompareOp::kEq ||
      !filter.value.is_string() || !filter.path.sub_attribute.empty()) {
    return std::nullopt;
  }
  if (!filter.path.schema.empty() && !iequals(filter.path.schema, core_schema(kind).id)) {
    return std::nullopt;
  }
  if (iequals(filter.path.attribute, name_attribute(kind))) {
    return std::make_pair(std::string("name"), ascii_lower(filter.value.get<std::string>()));
  }
  if (iequals(filter.path.attribute, "id")) {
    return std::make_pair(std::string("id"), filter.value.get<std::string>());
  }
  return std::nullopt;
}

// The same for a filter, or for one operand of an `and` (Entra asks
// `id eq "g" and members[value eq "u"]`): the index narrows, the filter decides.
std::optional<std::pair<std::string, std::string>> narrowing_lookup(ResourceKind kind,
                                                                    const FilterNode& filter) {
  if (filter.kind != FilterNode::Kind::kAnd) return indexed_lookup(kind, filter);
  for (const FilterNode& operand : filter.children) {
    if (auto lookup = indexed_lookup(kind, operand)) return lookup;
  }
  return std::nullopt;
}

ResourceChange change_of(ResourceKind kind, std::string id, uint64_t sequence, const json* before,
                         const json* after) {
  ResourceChange change{kind, std::move(id), sequence, std::nullopt, std::nullopt};
  if (before != nullptr) change.before = *before;
  if (after != nullptr) change.after = *after;
  return change;
}

}  // namespace

json ListResponse::to_json() const {
  json list = json::array();
  for (const json& resource : resources) list.push_back(resource);
  return {{"schemas", {kListResponseSchema}},
          {"totalResults", total_results},
          {"startIndex", start_index},
          {"itemsPerPage", resources.size()},
          {"Resources", std::move(list)}};
}

ScimDirectory::ScimDirectory(IdGenerator& ids, DirectoryOptions options)
    : ids_(&ids), options_(std::move(options)) {}

const json* ScimDirectory::find(ResourceKind kind, std::string_view id) const {
  const Table& t = table(kind);
  const auto it = t.by_id.find(std::string(id));
  return it == t.by_id.end() ? nullptr : &t.by_sequence.at(it->second);
}

std::optional<uint64_t> ScimDirectory::sequence_of(ResourceKind kind, std::string_view id) const {
  const Table& t = table(kind);
  const auto it = t.by_id.find(std::string(id));
  if (it == t.by_id.end()) return std::nullopt;
  return it->second;
}

Status ScimDirectory::check_unique(ResourceKind kind, const json& resource,
                                   std::string_view own_id) const {
  const Table& t = table(kind);
  const auto it = t.by_name.find(name_key(kind, resource));
  if (it == t.by_name.end()) return {};
  if (string_member(t.by_sequence.at(it->second), "id") == own_id) return {};
  const std::string attribute(name_attribute(kind));
  return scim_error(ScimType::kUniqueness,
                    attribute + " " + quote_input(string_member(resource, attribute)) +
                        " is already taken (names are compared ignoring case)",
                    attribute);
}

Status ScimDirectory::check_members(json& group, std::string_view own_id) const {
  json* members = find_member(group, "members");
  if (members == nullptr) return {};
  json kept = json::array();
  std::unordered_set<std::string> seen;
  for (json& member : *members) {
    std::string id = string_member(member, "value");
    const bool is_user = find(ResourceKind::kUser, id) != nullptr;
    if (id.empty() || id == own_id || (!is_user && find(ResourceKind::kGroup, id) == nullptr)) {
      return scim_error(ScimType::kInvalidValue,
                        "members: no User or Group with id " + quote_input(id), "members");
    }
    if (!seen.insert(std::move(id)).second) continue;  // listed twice
    member["type"] = is_user ? "User" : "Group";
    kept.push_back(std::move(member));
  }
  *members = std::move(kept);
  return {};
}

void ScimDirectory::index_members(uint64_t group_sequence, const json& group, bool add) {
  const json* members = find_member(group, "members");
  if (members == nullptr || !members->is_array()) return;
  for (const json& member : *members) {
    const std::string id = string_member(member, "value");
    if (add) {
      groups_by_member_[id].insert(group_sequence);
      continue;
    }
    const auto it = groups_by_member_.find(id);
    if (it == groups_by_member_.end()) continue;
    it->second.erase(group_sequence);
    if (it->second.empty()) groups_by_member_.erase(it);
  }
}

void ScimDirectory::put(ResourceKind kind, uint64_t sequence, json resource) {
  Table& t = table(kind);
  if (const auto old = t.by_sequence.find(sequence); old != t.by_sequence.end()) {
    t.by_name.erase(name_key(kind, old->second));
    if (kind == ResourceKind::kGroup) index_members(sequence, old->second, false);
  }
  if (kind == ResourceKind::kGroup) index_members(sequence, resource, true);
  t.by_id[string_member(resource, "id")] = sequence;
  t.by_name[name_key(kind, resource)] = sequence;
  t.by_sequence[sequence] = std::move(resource);
}

void ScimDirectory::erase(ResourceKind kind, std::string_view id) {
  Table& t = table(kind);
  const auto it = t.by_id.find(std::string(id));
  if (it == t.by_id.end()) return;
  const uint64_t sequence = it->second;
  const json& stored = t.by_sequence.at(sequence);
  t.by_name.erase(name_key(kind, stored));
  if (kind == ResourceKind::kGroup) index_members(sequence, stored, false);
  t.by_id.erase(it);
  t.by_sequence.erase(sequence);
}

Result<WriteResult> ScimDirectory::store(ResourceKind kind, json resource,
                                         std::optional<std::string> password, std::string_view id,
                                         Timestamp now) {
  ALLOT_RETURN_IF_ERROR(check_not_reserved(kind, resource));
  ALLOT_RETURN_IF_ERROR(check_unique(kind, resource, id));
  if (kind == ResourceKind::kGroup) ALLOT_RETURN_IF_ERROR(check_members(resource, id));
  uint64_t sequence = 0;
  const json* existing = find(kind, id);
  std::optional<json> before;
  if (existing != nullptr) {
    before = *existing;
    sequence = table(kind).by_id.at(std::string(id));
    resource["id"] = std::string(id);
    if (const json* meta = find_member(*existing, "meta")) resource["meta"] = *meta;
  } else {
    sequence = next_sequence_++;
    resource["id"] = std::string(id);
    const std::string endpoint(resource_endpoint(kind));
    resource["meta"] = {{"resourceType", resource_type_name(kind)},
                        {"created", format_time(now)},
                        {"location", options_.base_location + endpoint + "/" + std::string(id)}};
  }
  touch(resource, now);
  DirectoryChange change;
  change.resources.push_back(
      change_of(kind, std::string(id), sequence, before ? &*before : nullptr, &resource));
  put(kind, sequence, resource);
  return WriteResult{view(kind, resource), std::move(password), std::move(change)};
}

Result<WriteResult> ScimDirectory::create(ResourceKind kind, const json& body, Timestamp now) {
  ALLOT_ASSIGN_OR_RETURN(NormalizedResource normalized, normalize_resource(kind, body));
  const std::string id = ids_->next_id();
  if (id.empty() || find(ResourceKind::kUser, id) != nullptr ||
      find(ResourceKind::kGroup, id) != nullptr) {
    return Status(ErrorCode::kInternal, "the id generator returned a used id " + quote_input(id));
  }
  return store(kind, std::move(normalized.resource), std::move(normalized.password), id, now);
}

Result<json> ScimDirectory::get(ResourceKind kind, std::string_view id,
                                const AttributeSelection& selection) const {
  const json* stored = find(kind, id);
  if (stored == nullptr) {
    return not_found(std::string(resource_type_name(kind)) + " " + quote_input(id) + " not found");
  }
  return project(kind == ResourceKind::kUser ? view(kind, *stored) : *stored, selection);
}

Result<WriteResult> ScimDirectory::replace(ResourceKind kind, std::string_view id, const json& body,
                                           Timestamp now) {
  if (find(kind, id) == nullptr) {
    return not_found(std::string(resource_type_name(kind)) + " " + quote_input(id) + " not found");
  }
  ALLOT_ASSIGN_OR_RETURN(NormalizedResource normalized, normalize_resource(kind, body));
  return store(kind, std::move(normalized.resource), std::move(normalized.password), id, now);
}

Result<WriteResult> ScimDirectory::patch(ResourceKind kind, std::string_view id,
                                         const json& request, Timestamp now) {
  const json* stored = find(kind, id);
  if (stored == nullptr) {
    return not_found(std::string(resource_type_name(kind)) + " " + quote_input(id) + " not found");
  }
  ALLOT_ASSIGN_OR_RETURN(PatchResult patched, apply_patch(kind, *stored, request));
  return store(kind, std::move(patched.resource), std::move(patched.password), id, now);
}

void ScimDirectory::drop_member_everywhere(std::string_view member_id, Timestamp now,
                                           DirectoryChange& change) {
  const auto listed = groups_by_member_.find(std::string(member_id));
  if (listed == groups_by_member_.end()) return;
  const std::set<uint64_t> sequences = listed->second;  // put() changes the index
  for (const uint64_t sequence : sequences) {
    const json& before = groups_.by_sequence.at(sequence);
    json group = before;
    json* members = find_member(group, "members");
    if (members == nullptr || !members->is_array()) continue;
    members->erase(std::remove_if(members->begin(), members->end(),
                                  [member_id](const json& member) {
                                    return string_member(member, "value") == member_id;
                                  }),
                   members->end());
    touch(group, now);
    change.resources.push_back(
        change_of(ResourceKind::kGroup, string_member(group, "id"), sequence, &before, &group));
    put(ResourceKind::kGroup, sequence, std::move(group));
  }
}

Result<DirectoryChange> ScimDirectory::remove(ResourceKind kind, std::string_view id,
                                              Timestamp now) {
  const json* stored = find(kind, id);
  if (stored == nullptr) {
    return not_found(std::string(resource_type_name(kind)) + " " + quote_input(id) + " not found");
  }
  DirectoryChange change;
  change.resources.push_back(
      change_of(kind, std::string(id), *sequence_of(kind, id), stored, nullptr));
  erase(kind, id);
  drop_member_everywhere(id, now, change);
  return change;
}

void ScimDirectory::revert(const DirectoryChange& change) {
  for (auto it = change.resources.rbegin(); it != change.resources.rend(); ++it) {
    if (it->after) erase(it->kind, it->id);
    if (it->before) put(it->kind, it->sequence, *it->before);
  }
}

std::vector<const json*> ScimDirectory::candidates(ResourceKind kind,
                                                   const FilterNode* filter) const {
  std::vector<const json*> out;
  const Table& t = table(kind);
  if (const auto lookup = filter != nullptr ? narrowing_lookup(kind, *filter) : std::nullopt) {
    const auto& index = lookup->first == "name" ? t.by_name : t.by_id;
    if (const auto it = index.find(lookup->second); it != index.end()) {
      out.push_back(&t.by_sequence.at(it->second));
    }
    return out;
  }
  out.reserve(t.by_sequence.size());
  for (const auto& [sequence, resource] : t.by_sequence) out.push_back(&resource);
  return out;
}

Result<ListResponse> ScimDirectory::list(ResourceKind kind, const ListQuery& query) const {
  std::optional<FilterNode> filter;
  if (!query.filter.empty()) {
    ALLOT_ASSIGN_OR_RETURN(filter, parse_filter(query.filter));
  }
  const int64_t start = std::max<int64_t>(query.start_index, 1);
  const int64_t count = std::clamp<int64_t>(query.count.value_or(options_.default_page_size), 0,
                                            options_.max_page_size);
  ListResponse response;
  response.start_index = start;
  json user_view;
  for (const json* stored : candidates(kind, filter ? &*filter : nullptr)) {
    // Users are matched with their groups, as a GET returns them; a group as
    // it is stored (not copied: it may have thousands of members).
    if (filter) {
      const bool user = kind == ResourceKind::kUser;
      if (user) user_view = view(kind, *stored);
      if (!filter_matches(*filter, user ? user_view : *stored, kind)) continue;
    }
    ++response.total_results;
    if (response.total_results >= start &&
        static_cast<int64_t>(response.resources.size()) < count) {
      response.resources.push_back(
          project(kind == ResourceKind::kUser ? view(kind, *stored) : *stored, query.selection));
    }
  }
  return response;
}

json ScimDirectory::view(ResourceKind kind, const json& stored) const {
  if (kind != ResourceKind::kUser) return stored;
  json out = stored;
  const auto listed = groups_by_member_.find(string_member(stored, "id"));
  if (listed == groups_by_member_.end()) return out;
  json groups = json::array();
  for (const uint64_t sequence : listed->second) {
    const json& group = groups_.by_sequence.at(sequence);
    const std::string group_id = string_member(group, "id");
    groups.push_back({{"value", group_id},
                      {"$ref", options_.base_location + "/Groups/" + group_id},
                      {"display", string_member(group, "displayName")},
                      {"type", "direct"}});
  }
  out["groups"] = std::move(groups);
  return out;
}

bool ScimDirectory::is_active(std::string_view user_id) const {
  const json* user = find(ResourceKind::kUser, user_id);
  if (user == nullptr) return false;
  const json* active = find_member(*user, "active");
  return active == nullptr || !active->is_boolean() || active->get<bool>();
}

std::optional<std::string> ScimDirectory::find_user_id(std::string_view user_name) const {
  const auto it = users_.by_name.find(ascii_lower(user_name));
  if (it == users_.by_name.end()) return std::nullopt;
  return string_member(users_.by_sequence.at(it->second), "id");
}

std::vector<std::string> ScimDirectory::groups_of(std::string_view user_id) const {
  std::vector<std::string> names;
  if (find(ResourceKind::kUser, user_id) == nullptr) return names;
  const auto listed = groups_by_member_.find(std::string(user_id));
  if (listed == groups_by_member_.end()) return names;
  for (const uint64_t sequence : listed->second) {
    names.push_back(string_member(groups_.by_sequence.at(sequence), "displayName"));
  }
  return names;
}

Result<std::vector<std::string>> ScimDirectory::members_of(std::string_view group_id) const {
  const json* group = find(ResourceKind::kGroup, group_id);
  if (group == nullptr) return not_found("Group " + quote_input(group_id) + " not found");
  std::vector<std::string> ids;
  if (const json* members = find_member(*group, "members")) {
    for (const json& member : *members) ids.push_back(string_member(member, "value"));
  }
  return ids;
}

std::vector<StoredResource> ScimDirectory::records() const {
  std::vector<StoredResource> out;
  out.reserve(users_.by_sequence.size() + groups_.by_sequence.size());
  for (ResourceKind kind : {ResourceKind::kUser, ResourceKind::kGroup}) {
    for (const auto& [sequence, resource] : table(kind).by_sequence) {
      out.push_back({kind, sequence, resource});
    }
  }
  std::sort(out.begin(), out.end(), [](const StoredResource& a, const StoredResource& b) {
    return a.sequence < b.sequence;
  });
  return out;
}

Status ScimDirectory::load_record(StoredResource record) {
  const ResourceKind kind = record.kind;
  const std::string id = string_member(record.resource, "id");
  const json* meta = find_member(record.resource, "meta");
  if (id.empty() || meta == nullptr || !meta->is_object()) {
    return invalid_argument("a stored SCIM resource without an id or meta", quote_input(id));
  }
  Result<NormalizedResource> checked = normalize_resource(kind, record.resource);
  if (!checked.ok()) {
    return checked.status().with_context(std::string(resource_type_name(kind)) + " " +
                                         quote_input(id));
  }
  NormalizedResource normalized = std::move(checked).value();
  if (record.sequence == 0 || sequence_of(ResourceKind::kUser, id) ||
      sequence_of(ResourceKind::kGroup, id) || users_.by_sequence.contains(record.sequence) ||
      groups_.by_sequence.contains(record.sequence) ||
      table(kind).by_name.contains(name_key(kind, normalized.resource)) ||
      normalized.password.has_value()) {
    return invalid_argument("a stored SCIM resource with a bad or repeated id, name or sequence",
                            quote_input(id));
  }
  normalized.resource["id"] = id;
  normalized.resource["meta"] = *meta;
  next_sequence_ = std::max(next_sequence_, record.sequence + 1);
  put(kind, record.sequence, std::move(normalized.resource));
  return {};
}

Result<ScimDirectory> ScimDirectory::from_records(std::vector<StoredResource> records,
                                                  IdGenerator& ids, DirectoryOptions options) {
  ScimDirectory directory(ids, std::move(options));
  std::sort(records.begin(), records.end(), [](const StoredResource& a, const StoredResource& b) {
    return a.sequence < b.sequence;
  });
  for (StoredResource& record : records) {
    ALLOT_RETURN_IF_ERROR(directory.load_record(std::move(record)));
  }
  return directory;
}

}  // namespace allot::scim
