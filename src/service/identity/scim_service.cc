#include "service/identity/scim_service.h"

#include <mutex>
#include <utility>

#include "identity/credentials/password_hash.h"
#include "identity/credentials/secret_codec.h"
#include "identity/scim/scim_patch.h"
#include "identity/scim/scim_resource.h"

namespace allot {
namespace {

using json = nlohmann::json;

constexpr std::string_view kBearerPrefix = "Bearer ";
constexpr size_t kMinTokenBytes = 16;

scim::DirectoryOptions directory_options(const ScimServiceOptions& options) {
  return {options.base_location, options.default_page_size, options.max_page_size};
}

Status unauthenticated(std::string message) {
  return Status(ErrorCode::kUnauthenticated, std::move(message));
}

bool token_shaped(std::string_view token) {
  if (token.size() < kMinTokenBytes) return false;
  for (const char c : token) {
    if (c <= ' ' || c == 0x7f) return false;
  }
  return true;
}

}  // namespace

ScimService::ScimService(Store& store, const Clock& clock, scim::IdGenerator& ids,
                         ScimServiceOptions options)
    : store_(store),
      clock_(clock),
      ids_(ids),
      options_(std::move(options)),
      directory_(ids, directory_options(options_)) {}

bool ScimService::is_directory_kind(std::string_view kind) {
  return allot::is_directory_kind(kind);
}

Status ScimService::load(const std::vector<ObjectRecord>& objects) {
  std::vector<scim::StoredResource> records;
  std::map<std::string, std::string> hashes;
  std::set<std::string> retired;
  for (const ObjectRecord& object : objects) {
    if (object.kind == kScimUserKind || object.kind == kScimGroupKind) {
      ALLOT_ASSIGN_OR_RETURN(scim::StoredResource record, stored_resource_of(object));
      records.push_back(std::move(record));
    } else if (object.kind == kLocalPasswordKind) {
      ALLOT_ASSIGN_OR_RETURN(hashes[object.name], password_hash_of(object));
    } else if (object.kind == kRetiredUserNameKind) {
      retired.insert(object.name);
    }
  }
  std::unique_lock lock(mutex_);
  Result<scim::ScimDirectory> loaded =
      scim::ScimDirectory::from_records(records, ids_, directory_options(options_));
  if (!loaded.ok()) return loaded.status().with_context("the stored SCIM directory");
  directory_ = std::move(loaded).value();
  // A password outlives no User: both go in one batch; ignore any stray one.
  std::erase_if(hashes, [this](const auto& entry) {
    return !directory_.get(scim::ResourceKind::kUser, entry.first).ok();
  });
  password_hashes_ = std::move(hashes);
  retired_names_ = retired;
  index_.load(directory_.records(), retired);
  return {};
}

Status ScimService::enable(std::string token) {
  const bool shaped = token_shaped(token);
  if (shaped) token_hash_ = identity::sha256_hex(token);
  identity::wipe_secret(token);
  if (!shaped) {
    return invalid_argument(
        "the SCIM token must have at least 16 bytes and no spaces or "
        "control characters",
        "--scim-token-file");
  }
  return {};
}

bool ScimService::enabled() const { return token_hash_.has_value(); }

Status ScimService::authenticate(std::string_view authorization) const {
  if (!token_hash_) {
    return not_found("SCIM is not configured on this server (allotd --scim-token-file FILE)");
  }
  if (!authorization.starts_with(kBearerPrefix)) {
    return unauthenticated("SCIM requests need Authorization: Bearer <the SCIM token>");
  }
  const std::string presented = identity::sha256_hex(authorization.substr(kBearerPrefix.size()));
  if (!identity::constant_time_equal(presented, *token_hash_)) {
    return unauthenticated("the bearer token is not this server's SCIM token");
  }
  return {};
}

std::optional<ScimService::Hashed> ScimService::hash_ahead(Verb verb, scim::ResourceKind kind,
                                                           const std::string& id,
                                                           const json& body) const {
  if (kind != scim::ResourceKind::kUser) return std::nullopt;
  std::optional<std::string> password;
  if (verb == Verb::kPatch) {
    Result<json> current = get(kind, id, {});
    if (!current.ok()) return std::nullopt;
    Result<scim::PatchResult> dry_run = scim::apply_patch(kind, *current, body);
    if (dry_run.ok()) password = std::move(dry_run->password);
  } else {
    Result<scim::NormalizedResource> dry_run = scim::normalize_resource(kind, body);
    if (dry_run.ok()) password = std::move(dry_run->password);
  }
  if (!password) return std::nullopt;
  Result<std::string> hash = identity::hash_password(*password);
  if (!hash.ok()) return std::nullopt;  // the write itself reports it
  return Hashed{std::move(*password), std::move(*hash)};
}

Result<json> ScimService::write(Verb verb, scim::ResourceKind kind, const std::string& id,
                                const json& body) {
  const std::optional<Hashed> ahead = hash_ahead(verb, kind, id, body);
  const Timestamp now = clock_.now();
  std::unique_lock lock(mutex_);
  Result<scim::WriteResult> written = verb == Verb::kCreate ? directory_.create(kind, body, now)
                                      : verb == Verb::kReplace
                                          ? directory_.replace(kind, id, body, now)
                                          : directory_.patch(kind, id, body, now);
  if (!written.ok()) return written.status();
  std::optional<std::pair<std::string, std::string>> password;
  if (written->password) {
    const std::string user_id = written->resource.value("id", "");
    if (ahead && ahead->password == *written->password) {
      password.emplace(user_id, ahead->hash);
    } else {
      Result<std::string> hash = identity::hash_password(*written->password);
      if (!hash.ok()) {
        directory_.revert(written->change);
        return scim::scim_error(scim::ScimType::kInvalidValue, hash.status().message(), "password");
      }
      password.emplace(user_id, std::move(*hash));
    }
  }
  ALLOT_RETURN_IF_ERROR(commit(written->change, password));
  return std::move(written->resource);
}

Status ScimService::commit(const scim::DirectoryChange& change,
                           const std::optional<std::pair<std::string, std::string>>& password) {
  const UserNameChanges names = user_name_changes(change);
  PasswordChanges passwords;
  if (password) passwords.set.insert(*password);
  for (const scim::ResourceChange& resource : change.resources) {
    if (resource.kind == scim::ResourceKind::kUser && !resource.after &&
        password_hashes_.contains(resource.id)) {
      passwords.dropped.insert(resource.id);
    }
  }
  const Status stored = store_.commit(batch_of(change, passwords, names, retired_names_));
  if (!stored.ok()) {
    directory_.revert(change);
    return Status(
        ErrorCode::kUnavailable,
        "the directory change could not be stored, and was not made: " + stored.message());
  }
  for (const auto& [user_id, hash] : passwords.set) password_hashes_[user_id] = hash;
  for (const std::string& user_id : passwords.dropped) password_hashes_.erase(user_id);
  for (const std::string& name : names.retired) retired_names_.insert(name);
  for (const std::string& name : names.revived) retired_names_.erase(name);
  index_.apply(change, names);
  return {};
}

Result<json> ScimService::create(scim::ResourceKind kind, const json& body) {
  return write(Verb::kCreate, kind, "", body);
}

Result<json> ScimService::replace(scim::ResourceKind kind, const std::string& id,
                                  const json& body) {
  return write(Verb::kReplace, kind, id, body);
}

Result<json> ScimService::patch(scim::ResourceKind kind, const std::string& id,
                                const json& request) {
  return write(Verb::kPatch, kind, id, request);
}

Status ScimService::remove(scim::ResourceKind kind, const std::string& id) {
  const Timestamp now = clock_.now();
  std::unique_lock lock(mutex_);
  ALLOT_ASSIGN_OR_RETURN(const scim::DirectoryChange change, directory_.remove(kind, id, now));
  return commit(change, std::nullopt);
}

Result<json> ScimService::get(scim::ResourceKind kind, const std::string& id,
                              const scim::AttributeSelection& selection) const {
  std::shared_lock lock(mutex_);
  return directory_.get(kind, id, selection);
}

Result<json> ScimService::list(scim::ResourceKind kind, const scim::ListQuery& query) const {
  std::shared_lock lock(mutex_);
  ALLOT_ASSIGN_OR_RETURN(const scim::ListResponse page, directory_.list(kind, query));
  return page.to_json();
}

scim::DiscoveryOptions ScimService::discovery_options() const {
  return {options_.base_location, options_.max_page_size, {}};
}

json ScimService::service_provider_config() const {
  return scim::service_provider_config(discovery_options());
}

json ScimService::resource_types() const { return scim::resource_types(discovery_options()); }

Result<json> ScimService::resource_type(std::string_view name) const {
  for (const scim::ResourceKind kind : {scim::ResourceKind::kUser, scim::ResourceKind::kGroup}) {
    if (name == scim::resource_type_name(kind)) {
      return scim::resource_type(kind, discovery_options());
    }
  }
  return not_found("no SCIM resource type " + scim::quote_input(name) + " (User, Group)");
}

json ScimService::schemas() const { return scim::schemas(discovery_options()); }

Result<json> ScimService::schema(std::string_view urn) const {
  return scim::schema(urn, discovery_options());
}

std::optional<StoredPassword> ScimService::password_of(std::string_view user_name) const {
  std::shared_lock lock(mutex_);
  const std::optional<std::string> id = directory_.find_user_id(user_name);
  if (!id || !directory_.is_active(*id)) return std::nullopt;
  const auto hash = password_hashes_.find(*id);
  if (hash == password_hashes_.end()) return std::nullopt;
  const Result<json> user = directory_.get(scim::ResourceKind::kUser, *id);
  if (!user.ok()) return std::nullopt;
  return StoredPassword{user->value("userName", ""), hash->second};
}

scim::ScimErrorResponse ScimService::error_response(const Status& status) {
  return scim::scim_error_response(status);
}

}  // namespace allot
