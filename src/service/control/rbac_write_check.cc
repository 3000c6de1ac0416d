#include "service/control/rbac_write_check.h"

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "authz/builtin_roles.h"
#include "authz/escalation.h"

namespace allot {
namespace {

std::string object_name(std::string_view kind, const ObjectMeta& meta) {
  return std::string(kind) + "/" + document_key(kind, meta.namespace_name, meta.name).second;
}

template <typename T>
void overlay(std::vector<T>& current, const std::vector<T>& batch) {
  for (const T& object : batch) {
    std::erase_if(current, [&object](const T& existing) {
      return existing.meta.name == object.meta.name &&
             existing.meta.namespace_name == object.meta.namespace_name;
    });
    current.push_back(object);
  }
}

// Roles as the batch defines them, with the bindings in force now: what a
// binding of the batch references, and what the caller holds today.
std::shared_ptr<const Authorizer> with_batch_roles(const RbacPolicy& current,
                                                   const RbacPolicy& batch) {
  RbacPolicy next = current;
  overlay(next.roles, batch.roles);
  overlay(next.cluster_roles, batch.cluster_roles);
  return std::make_shared<const Authorizer>(with_builtin_roles(std::move(next)));
}

class WriteCheck {
 public:
  WriteCheck(const Principal& caller, const PolicyState& current)
      : caller_(caller), current_(current) {}

  // The verb of writing `kind` `meta`: create, or update when it exists.
  [[nodiscard]] std::string_view verb(std::string_view kind, const ObjectMeta& meta) const {
    const bool exists =
        current_.documents().contains(document_key(kind, meta.namespace_name, meta.name));
    return exists ? "update" : "create";
  }

  template <typename T, typename Check>
  Status all(const std::vector<T>& objects, std::string_view kind, const Authorizer& authorizer,
             Check check) const {
    for (const T& object : objects) {
      const Decision decision = check(authorizer, caller_, verb(kind, object.meta), object);
      if (!decision.allowed) {
        return Status(ErrorCode::kPermissionDenied, decision.why, object_name(kind, object.meta));
      }
    }
    return {};
  }

 private:
  const Principal& caller_;
  const PolicyState& current_;
};

}  // namespace

Status authorize_rbac_writes(const AccessControl& access, const Principal& caller,
                             const RbacPolicy& batch, const PolicyState& current) {
  if (caller.admin) return {};
  const std::shared_ptr<const Authorizer> now = access.authorizer();
  const WriteCheck check(caller, current);
  ALLOT_RETURN_IF_ERROR(check.all(batch.roles, "Role", *now, check_role_write));
  ALLOT_RETURN_IF_ERROR(
      check.all(batch.cluster_roles, "ClusterRole", *now, check_cluster_role_write));
  const bool has_bindings = !batch.role_bindings.empty() || !batch.cluster_role_bindings.empty();
  if (!has_bindings) return {};
  const bool has_roles = !batch.roles.empty() || !batch.cluster_roles.empty();
  const std::shared_ptr<const Authorizer> roles =
      has_roles ? with_batch_roles(current.rbac(), batch) : now;
  ALLOT_RETURN_IF_ERROR(
      check.all(batch.role_bindings, "RoleBinding", *roles, check_role_binding_write));
  return check.all(batch.cluster_role_bindings, "ClusterRoleBinding", *roles,
                   check_cluster_role_binding_write);
}

}  // namespace allot
