#include "authz/authorizer.h"

#include <algorithm>
#include <utility>

#include "authz/resource_catalog.h"
#include "authz/role_aggregation.h"
#include "authz/rule_match.h"
#include "authz/rule_text.h"

namespace allot {
namespace {

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::string role_key(std::string_view namespace_name, std::string_view name) {
  return std::string(namespace_name) + "/" + std::string(name);
}

void sort_unique(std::vector<uint32_t>& ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

void add_group(const NameTable& groups, std::string_view name, std::vector<uint32_t>& ids) {
  const uint32_t id = find_id(groups, name);
  if (id != kNoId) ids.push_back(id);
}

// Calls visit(binding) for each grant whose subject is in `ids` (both sorted
// by subject) until it returns true; returns whether one did. Merges the two
// lists, or binary-searches the longer one when it is much longer.
template <typename Grants, typename Visit>
bool visit_common(const std::vector<uint32_t>& ids, const Grants& grants, Visit&& visit) {
  auto subject_less = [](const auto& grant, uint32_t id) { return grant.subject < id; };
  if (grants.size() > 8 * ids.size()) {
    for (uint32_t id : ids) {
      auto it = std::lower_bound(grants.begin(), grants.end(), id, subject_less);
      for (; it != grants.end() && it->subject == id; ++it) {
        if (visit(it->binding)) return true;
      }
    }
    return false;
  }
  auto id = ids.begin();
  for (const auto& grant : grants) {
    while (id != ids.end() && *id < grant.subject) ++id;
    if (id == ids.end()) return false;
    if (*id == grant.subject && visit(grant.binding)) return true;
  }
  return false;
}

}  // namespace

Authorizer::Authorizer(const RbacPolicy& policy) {
  add_roles(policy);
  for (const ClusterRoleBinding& binding : policy.cluster_role_bindings) {
    add_cluster_role_binding(binding);
  }
  for (const RoleBinding& binding : policy.role_bindings) add_role_binding(binding);
  for (auto& grants : cluster_grants_) sort_unique(grants);
  for (auto& grants : namespaced_grants_) sort_unique(grants);
  for (auto& grants : namespace_grants_) {
    std::sort(grants.begin(), grants.end(), [](const SubjectGrant& a, const SubjectGrant& b) {
      return a.subject != b.subject ? a.subject < b.subject : a.binding < b.binding;
    });
    grants.erase(std::unique(grants.begin(), grants.end()), grants.end());
  }
}

void Authorizer::add_roles(const RbacPolicy& policy) {
  for (ClusterRole& role : aggregate_cluster_roles(policy.cluster_roles)) {
    if (cluster_role_ids_.contains(role.meta.name)) continue;  // the first of a name
    cluster_role_ids_.emplace(role.meta.name, static_cast<uint32_t>(roles_.size()));
    roles_.push_back({"ClusterRole " + quoted(role.meta.name), std::move(role.rules)});
  }
  for (const Role& role : policy.roles) {
    const std::string key = role_key(role.meta.namespace_name, role.meta.name);
    if (role_ids_.contains(key)) continue;
    role_ids_.emplace(key, static_cast<uint32_t>(roles_.size()));
    roles_.push_back({"Role " + quoted(key), role.rules});
  }
}

uint32_t Authorizer::find_role(RoleRefKind kind, std::string_view name,
                               std::string_view namespace_name) const {
  if (kind == RoleRefKind::kClusterRole) return find_id(cluster_role_ids_, name);
  if (namespace_name.empty()) return kNoId;  // a Role lives in a namespace
  return find_id(role_ids_, role_key(namespace_name, name));
}

uint32_t Authorizer::intern_subject(const Subject& subject) {
  NameTable& table = subject.kind == SubjectKind::kGroup ? group_ids_ : user_ids_;
  const std::string name =
      subject.kind == SubjectKind::kServiceAccount
          ? "system:serviceaccount:" + subject.namespace_name + ":" + subject.name
          : subject.name;
  const auto [found, added] = table.try_emplace(name, subject_count_);
  if (added) {
    ++subject_count_;
    cluster_grants_.emplace_back();
    namespaced_grants_.emplace_back();
  }
  return found->second;
}

void Authorizer::add_cluster_role_binding(const ClusterRoleBinding& binding) {
  if (binding.role_ref.kind != RoleRefKind::kClusterRole) return;
  const uint32_t role = find_role(RoleRefKind::kClusterRole, binding.role_ref.name, {});
  if (role == kNoId) return;
  const auto index = static_cast<uint32_t>(bindings_.size());
  bindings_.push_back({"ClusterRoleBinding " + quoted(binding.meta.name), {}, role});
  for (const Subject& subject : binding.subjects) {
    cluster_grants_[intern_subject(subject)].push_back(index);
  }
}

void Authorizer::add_role_binding(const RoleBinding& binding) {
  const std::string& namespace_name = binding.meta.namespace_name;
  const uint32_t role = find_role(binding.role_ref.kind, binding.role_ref.name, namespace_name);
  if (role == kNoId || namespace_name.empty()) return;
  const auto index = static_cast<uint32_t>(bindings_.size());
  bindings_.push_back(
      {"RoleBinding " + quoted(role_key(namespace_name, binding.meta.name)), namespace_name, role});
  const uint32_t namespace_id = intern(namespace_ids_, namespace_name);
  if (namespace_id == namespace_grants_.size()) namespace_grants_.emplace_back();
  for (const Subject& subject : binding.subjects) {
    const uint32_t subject_id = intern_subject(subject);
    namespace_grants_[namespace_id].push_back({subject_id, index});
    namespaced_grants_[subject_id].push_back(index);
  }
}

Caller Authorizer::resolve(const Principal& principal) const {
  Caller caller;
  caller.subject = principal.subject;
  caller.subject_ids.reserve(principal.groups.size() + 3);
  const uint32_t user = find_id(user_ids_, principal.subject);
  if (user != kNoId) caller.subject_ids.push_back(user);
  for (const std::string& group : principal.groups)
    add_group(group_ids_, group, caller.subject_ids);
  std::string_view account_namespace;
  std::string_view account_name;
  if (split_service_account(principal.subject, account_namespace, account_name)) {
    add_group(group_ids_, "system:serviceaccounts", caller.subject_ids);
    add_group(group_ids_, "system:serviceaccounts:" + std::string(account_namespace),
              caller.subject_ids);
  }
  sort_unique(caller.subject_ids);
  if (principal.scope) {
    caller.scope = principal.scope;
    const SessionScope& scope = *principal.scope;
    caller.scope_role = find_role(RoleRefKind::kRole, scope.role, scope.namespace_name);
    if (caller.scope_role == kNoId) {
      caller.scope_role = find_role(RoleRefKind::kClusterRole, scope.role, {});
    }
  }
  return caller;
}

std::optional<uint32_t> Authorizer::matching_rule(uint32_t binding,
                                                  const AccessRequest& request) const {
  const std::vector<PolicyRule>& rules = roles_[bindings_[binding].role].rules;
  for (size_t i = 0; i < rules.size(); ++i) {
    if (rule_allows(rules[i], request)) return static_cast<uint32_t>(i);
  }
  return std::nullopt;
}

std::optional<Authorizer::Grant> Authorizer::find_grant(const Caller& caller,
                                                        const AccessRequest& request) const {
  for (uint32_t subject : caller.subject_ids) {
    for (uint32_t binding : cluster_grants_[subject]) {
      if (std::optional<uint32_t> rule = matching_rule(binding, request)) {
        return Grant{binding, *rule};
      }
    }
  }
  if (request.namespace_name.empty()) return std::nullopt;
  const uint32_t namespace_id = find_id(namespace_ids_, request.namespace_name);
  if (namespace_id == kNoId) return std::nullopt;
  std::optional<Grant> found;
  visit_common(caller.subject_ids, namespace_grants_[namespace_id], [&](uint32_t binding) {
    std::optional<uint32_t> rule = matching_rule(binding, request);
    if (rule) found = Grant{binding, *rule};
    return rule.has_value();
  });
  return found;
}

bool Authorizer::scope_allows(const Caller& caller, const AccessRequest& request) const {
  if (!caller.scope) return true;
  if (caller.scope_role == kNoId || request.namespace_name != caller.scope->namespace_name) {
    return false;
  }
  const std::vector<PolicyRule>& rules = roles_[caller.scope_role].rules;
  return std::any_of(rules.begin(), rules.end(),
                     [&](const PolicyRule& rule) { return rule_allows(rule, request); });
}

bool Authorizer::allows(const Caller& caller, const AccessRequest& request) const {
  return scope_allows(caller, request) && find_grant(caller, request).has_value();
}

Decision Authorizer::authorize(const Caller& caller, const AccessRequest& request) const {
  if (!scope_allows(caller, request)) return denied(caller, request);
  const std::optional<Grant> grant = find_grant(caller, request);
  return grant ? allowed(caller, request, *grant) : denied(caller, request);
}

Decision Authorizer::authorize(const Principal& principal, std::string_view verb,
                               std::string_view resource, std::string_view namespace_name,
                               std::string_view name) const {
  return authorize(resolve(principal),
                   {verb, api_group_of(resource), resource, namespace_name, name});
}

Decision Authorizer::allowed(const Caller& caller, const AccessRequest& request,
                             Grant grant) const {
  const CompiledBinding& binding = bindings_[grant.binding];
  const CompiledRole& role = roles_[binding.role];
  Decision decision{true, binding.label, role.label, describe_rule(role.rules[grant.rule]), {}};
  decision.why = describe_caller(caller.subject) + " may " + describe_request(request) + ": " +
                 decision.binding + " grants " + decision.role + " (" + decision.rule + ")";
  return decision;
}

Decision Authorizer::denied(const Caller& caller, const AccessRequest& request) const {
  std::string reason = "no binding grants it";
  if (caller.scope && !scope_allows(caller, request)) {
    const SessionScope& scope = *caller.scope;
    reason = caller.scope_role == kNoId
                 ? "the session's role " + quoted(scope.role) + " does not exist"
                 : "the session is limited to " + roles_[caller.scope_role].label +
                       " in namespace " + quoted(scope.namespace_name);
  }
  Decision decision;
  decision.why =
      describe_caller(caller.subject) + " cannot " + describe_request(request) + ": " + reason;
  return decision;
}

Decision Authorizer::authorize_path(const Caller& caller, std::string_view verb,
                                    std::string_view path) const {
  const std::string request = std::string(verb) + " " + std::string(path);
  for (uint32_t subject : caller.scope ? std::vector<uint32_t>() : caller.subject_ids) {
    for (uint32_t index : cluster_grants_[subject]) {
      const CompiledBinding& binding = bindings_[index];
      const CompiledRole& role = roles_[binding.role];
      for (const PolicyRule& rule : role.rules) {
        if (!rule_allows_path(rule, verb, path)) continue;
        Decision decision{true, binding.label, role.label, describe_rule(rule), {}};
        decision.why = describe_caller(caller.subject) + " may " + request + ": " + binding.label +
                       " grants " + role.label + " (" + decision.rule + ")";
        return decision;
      }
    }
  }
  Decision decision;
  decision.why = describe_caller(caller.subject) + " cannot " + request + ": " +
                 (caller.scope ? "a session limited to a team has no rights outside it"
                               : "no ClusterRoleBinding grants it");
  return decision;
}

std::vector<PolicyRule> Authorizer::rules_for(const Caller& caller,
                                              std::string_view namespace_name) const {
  std::vector<PolicyRule> rules;
  for (uint32_t subject : caller.subject_ids) {
    for (uint32_t binding : cluster_grants_[subject]) {
      const std::vector<PolicyRule>& granted = roles_[bindings_[binding].role].rules;
      rules.insert(rules.end(), granted.begin(), granted.end());
    }
  }
  const uint32_t namespace_id =
      namespace_name.empty() ? kNoId : find_id(namespace_ids_, namespace_name);
  if (namespace_id == kNoId) return rules;
  visit_common(caller.subject_ids, namespace_grants_[namespace_id], [&](uint32_t binding) {
    for (const PolicyRule& rule : roles_[bindings_[binding].role].rules) {
      if (rule.non_resource_urls.empty()) rules.push_back(rule);  // URLs never apply in a namespace
    }
    return false;
  });
  return rules;
}

std::optional<std::vector<PolicyRule>> Authorizer::scope_rules_for(
    const Caller& caller, std::string_view namespace_name) const {
  if (!caller.scope) return std::nullopt;
  std::vector<PolicyRule> rules;
  if (caller.scope_role == kNoId || namespace_name != caller.scope->namespace_name) return rules;
  for (const PolicyRule& rule : roles_[caller.scope_role].rules) {
    if (rule.non_resource_urls.empty()) rules.push_back(rule);
  }
  return rules;
}

Authorizer::Reach Authorizer::reach(const Caller& caller, const AccessRequest& request) const {
  Reach reach;
  AccessRequest anywhere = request;
  if (caller.scope) {
    anywhere.namespace_name = caller.scope->namespace_name;
    if (allows(caller, anywhere)) reach.namespaces.push_back(caller.scope->namespace_name);
    return reach;
  }
  anywhere.namespace_name = {};
  for (uint32_t subject : caller.subject_ids) {
    for (uint32_t binding : cluster_grants_[subject]) {
      if (matching_rule(binding, anywhere)) {
        reach.everywhere = true;
        return reach;
      }
    }
  }
  for (uint32_t subject : caller.subject_ids) {
    for (uint32_t binding : namespaced_grants_[subject]) {
      if (matching_rule(binding, anywhere)) {
        reach.namespaces.push_back(bindings_[binding].namespace_name);
      }
    }
  }
  std::sort(reach.namespaces.begin(), reach.namespaces.end());
  reach.namespaces.erase(std::unique(reach.namespaces.begin(), reach.namespaces.end()),
                         reach.namespaces.end());
  return reach;
}

const std::vector<PolicyRule>* Authorizer::role_rules(RoleRefKind kind, std::string_view name,
                                                      std::string_view namespace_name) const {
  const uint32_t role = find_role(kind, name, namespace_name);
  return role == kNoId ? nullptr : &roles_[role].rules;
}

}  // namespace allot
