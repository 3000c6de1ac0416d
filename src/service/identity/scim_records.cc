#include "service/identity/scim_records.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "identity/scim/scim_names.h"

namespace allot {
namespace {

using json = nlohmann::json;

std::string kind_name(scim::ResourceKind kind) {
  return std::string(kind == scim::ResourceKind::kUser ? kScimUserKind : kScimGroupKind);
}

}  // namespace

bool is_directory_kind(std::string_view kind) {
  return kind == kScimUserKind || kind == kScimGroupKind || kind == kLocalPasswordKind ||
         kind == kRetiredUserNameKind;
}

std::string user_name_key(const json& user) {
  const json* name = scim::find_member(user, "userName");
  return name != nullptr && name->is_string() ? scim::ascii_lower(name->get<std::string>())
                                              : std::string();
}

ObjectRecord resource_record(const scim::StoredResource& stored) {
  return {kind_name(stored.kind), stored.resource.value("id", ""),
          json{{"sequence", stored.sequence}, {"resource", stored.resource}}.dump()};
}

Result<scim::StoredResource> stored_resource_of(const ObjectRecord& record) {
  const std::string where = record.kind + "/" + record.name;
  const json document = json::parse(record.document, nullptr, false);
  if (!document.is_object() || !document.contains("sequence") ||
      !document["sequence"].is_number_unsigned() || !document.contains("resource") ||
      !document["resource"].is_object()) {
    return invalid_argument("stored " + where + " is not a SCIM resource record", where);
  }
  const scim::ResourceKind kind =
      record.kind == kScimUserKind ? scim::ResourceKind::kUser : scim::ResourceKind::kGroup;
  scim::StoredResource stored{kind, document["sequence"].get<uint64_t>(), document["resource"]};
  if (stored.resource.value("id", "") != record.name) {
    return invalid_argument("stored " + where + " holds a resource of another id", where);
  }
  return stored;
}

ObjectRecord password_record(const std::string& user_id, const std::string& hash) {
  return {std::string(kLocalPasswordKind), user_id, json{{"hash", hash}}.dump()};
}

Result<std::string> password_hash_of(const ObjectRecord& record) {
  const json document = json::parse(record.document, nullptr, false);
  if (!document.is_object() || !document.contains("hash") || !document["hash"].is_string()) {
    // Never quote the document: it is a secret's hash.
    return invalid_argument("stored LocalPassword/" + record.name + " is not a password record",
                            std::string(kLocalPasswordKind) + "/" + record.name);
  }
  return document["hash"].get<std::string>();
}

UserNameChanges user_name_changes(const scim::DirectoryChange& change) {
  UserNameChanges names;
  for (const scim::ResourceChange& resource : change.resources) {
    if (resource.kind != scim::ResourceKind::kUser) continue;
    const std::string before = resource.before ? user_name_key(*resource.before) : "";
    const std::string after = resource.after ? user_name_key(*resource.after) : "";
    if (before == after) continue;
    if (!before.empty()) names.retired.insert(before);
    if (!after.empty()) names.revived.insert(after);
  }
  for (const std::string& name : names.revived) names.retired.erase(name);
  return names;
}

WriteBatch batch_of(const scim::DirectoryChange& change, const PasswordChanges& passwords,
                    const UserNameChanges& names, const std::set<std::string>& stored_retired) {
  WriteBatch batch;
  for (const scim::ResourceChange& resource : change.resources) {
    if (resource.after) {
      batch.put_objects.push_back(
          resource_record({resource.kind, resource.sequence, *resource.after}));
    } else {
      batch.delete_objects.push_back({kind_name(resource.kind), resource.id});
    }
  }
  for (const auto& [user_id, hash] : passwords.set) {
    batch.put_objects.push_back(password_record(user_id, hash));
  }
  for (const std::string& user_id : passwords.dropped) {
    batch.delete_objects.push_back({std::string(kLocalPasswordKind), user_id});
  }
  for (const std::string& name : names.retired) {
    batch.put_objects.push_back({std::string(kRetiredUserNameKind), name, "{}"});
  }
  for (const std::string& name : names.revived) {
    if (stored_retired.contains(name)) {
      batch.delete_objects.push_back({std::string(kRetiredUserNameKind), name});
    }
  }
  return batch;
}

}  // namespace allot
