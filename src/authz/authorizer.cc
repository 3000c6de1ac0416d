#include "authz/authorizer.h"

#include <algorithm>
#include <utility>

#include "authz/resource_catalog.h"
#include "authz/role_aggregation.h"
#include "authz/rule_match.h"
#include "authz/rule_text.h"

namespace allot {
namespace {

std::string role_key(std::string_view namespace_name, std::string_view name) {
  return std::string(namespace_name) + "/" + std::string(name);
}

// Sorts and dedupes; a caller's few dozen ids by insertion, which beats
// std::sort's partitioning at that size (it showed in the profile).
void sort_unique(std::vector<uint32_t>& ids) {
  if (ids.size() <= 64) {
    for (size_t i = 1; i < ids.size(); ++i) {
      const uint32_t id = ids[i];
      size_t j = i;
      for (; j > 0 && ids[j - 1] > id; --j) ids[j] = ids[j - 1];
      ids[j] = id;
    }
  } else {
    std::sort(ids.begin(), ids.end());
  }
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
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

Authorizer::Authorizer(const RbacPolicy& policy) : building_(std::make_unique<Building>()) {
  add_roles(policy);
  for (const ClusterRoleBinding& binding : policy.cluster_role_bindings) {
    add_cluster_role_binding(binding);
  }
  cluster_subject_end_ = subject_count_;
  for (const RoleBinding& binding : policy.role_bindings) add_role_binding(binding);
  finish_index();
}

template <typename T>
Authorizer::Rows<T> Authorizer::flatten(std::vector<std::vector<T>> lists) {
  Rows<T> rows;
  rows.offsets.reserve(lists.size() + 1);
  for (std::vector<T>& list : lists) {
    rows.items.insert(rows.items.end(), list.begin(), list.end());
    rows.offsets.push_back(static_cast<uint32_t>(rows.items.size()));
  }
  return rows;
}

void Authorizer::finish_index() {
  Building& b = *building_;
  for (auto& grants : b.cluster_grants) sort_unique(grants);
  for (auto& grants : b.namespaced_grants) sort_unique(grants);
  for (auto& grants : b.namespace_grants) {
    std::sort(grants.begin(), grants.end(), [](const SubjectGrant& x, const SubjectGrant& y) {
      return x.subject != y.subject ? x.subject < y.subject : x.binding < y.binding;
    });
    grants.erase(std::unique(grants.begin(), grants.end()), grants.end());
  }
  binding_roles_.reserve(bindings_.size());
  for (const CompiledBinding& binding : bindings_) binding_roles_.push_back(binding.role);
  cluster_grants_ = flatten(std::move(b.cluster_grants));
  namespaced_grants_ = flatten(std::move(b.namespaced_grants));
  namespace_grants_ = flatten(std::move(b.namespace_grants));
  building_.reset();
}

void Authorizer::add_roles(const RbacPolicy& policy) {
  for (ClusterRole& role : aggregate_cluster_roles(policy.cluster_roles)) {
    if (cluster_role_names_.intern(role.meta.name) < roles_.size()) continue;  // the first wins
    roles_.push_back({"ClusterRole " + in_quotes(role.meta.name), std::move(role.rules), {}});
  }
  const size_t cluster_roles = roles_.size();
  for (const Role& role : policy.roles) {
    const std::string key = role_key(role.meta.namespace_name, role.meta.name);
    if (cluster_roles + role_names_.intern(key) < roles_.size()) continue;
    roles_.push_back({"Role " + in_quotes(key), role.rules, {}});
  }
  for (CompiledRole& role : roles_) {
    for (const PolicyRule& rule : role.rules) role.rule_texts.push_back(describe_rule(rule));
  }
}

uint32_t Authorizer::find_role(RoleRefKind kind, std::string_view name,
                               std::string_view namespace_name) const {
  if (kind == RoleRefKind::kClusterRole) return cluster_role_names_.find(name);
  if (namespace_name.empty()) return kNoId;  // a Role lives in a namespace
  const uint32_t id = role_names_.find(role_key(namespace_name, name));
  return id == kNoId ? kNoId : static_cast<uint32_t>(cluster_role_names_.size()) + id;
}

uint32_t Authorizer::intern_subject(const Subject& subject, const std::string& binding_namespace) {
  const bool is_group = subject.kind == SubjectKind::kGroup;
  NameTable& table = is_group ? group_names_ : user_names_;
  std::vector<uint32_t>& subjects = is_group ? group_subjects_ : user_subjects_;
  const uint32_t id = table.intern(
      subject.kind == SubjectKind::kServiceAccount
          ? "system:serviceaccount:" +
                (subject.namespace_name.empty() ? binding_namespace : subject.namespace_name) +
                ":" + subject.name
          : subject.name);
  if (id == subjects.size()) {
    subjects.push_back(subject_count_++);
    building_->cluster_grants.emplace_back();
    building_->namespaced_grants.emplace_back();
  }
  return subjects[id];
}

void Authorizer::add_cluster_role_binding(const ClusterRoleBinding& binding) {
  if (binding.role_ref.kind != RoleRefKind::kClusterRole) return;
  const uint32_t role = find_role(RoleRefKind::kClusterRole, binding.role_ref.name, {});
  if (role == kNoId) return;
  const auto index = static_cast<uint32_t>(bindings_.size());
  bindings_.push_back({"ClusterRoleBinding " + in_quotes(binding.meta.name), {}, role});
  for (const Subject& subject : binding.subjects) {
    const uint32_t subject_id = intern_subject(subject, {});
    building_->cluster_grants[subject_id].push_back(index);
  }
}

void Authorizer::add_role_binding(const RoleBinding& binding) {
  const std::string& namespace_name = binding.meta.namespace_name;
  const uint32_t role = find_role(binding.role_ref.kind, binding.role_ref.name, namespace_name);
  if (role == kNoId || namespace_name.empty()) return;
  const auto index = static_cast<uint32_t>(bindings_.size());
  bindings_.push_back({"RoleBinding " + in_quotes(role_key(namespace_name, binding.meta.name)),
                       namespace_name, role});
  const uint32_t namespace_id = namespace_names_.intern(namespace_name);
  auto& by_namespace = building_->namespace_grants;
  if (namespace_id == by_namespace.size()) by_namespace.emplace_back();
  for (const Subject& subject : binding.subjects) {
    const uint32_t subject_id = intern_subject(subject, namespace_name);
    by_namespace[namespace_id].push_back({subject_id, index});
    building_->namespaced_grants[subject_id].push_back(index);
  }
}

Caller Authorizer::resolve(const Principal& principal) const {
  Caller caller;
  caller.subject = principal.subject;
  caller.subject_ids.reserve(principal.groups.size() + 3);
  auto add = [&](const NameTable& names, const std::vector<uint32_t>& subjects,
                 std::string_view name) {
    const uint32_t id = names.find(name);
    if (id != kNoId) caller.subject_ids.push_back(subjects[id]);
  };
  add(user_names_, user_subjects_, principal.subject);
  group_names_.find_all(principal.groups, [&](size_t, uint32_t id) {
    caller.subject_ids.push_back(group_subjects_[id]);
  });
  std::string_view account_namespace;
  std::string_view account_name;
  if (split_service_account(principal.subject, account_namespace, account_name)) {
    add(group_names_, group_subjects_, "system:serviceaccounts");
    add(group_names_, group_subjects_, "system:serviceaccounts:" + std::string(account_namespace));
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
  const std::vector<PolicyRule>& rules = roles_[binding_roles_[binding]].rules;
  for (size_t i = 0; i < rules.size(); ++i) {
    if (rule_allows(rules[i], request)) return static_cast<uint32_t>(i);
  }
  return std::nullopt;
}

std::optional<Authorizer::Grant> Authorizer::find_grant(const Caller& caller,
                                                        const AccessRequest& request) const {
  for (uint32_t subject : caller.subject_ids) {
    if (subject >= cluster_subject_end_) break;
    for (uint32_t binding : cluster_grants_.row(subject)) {
      if (std::optional<uint32_t> rule = matching_rule(binding, request)) {
        return Grant{binding, *rule};
      }
    }
  }
  if (request.namespace_name.empty()) return std::nullopt;
  const uint32_t namespace_id = namespace_names_.find(request.namespace_name);
  if (namespace_id == kNoId) return std::nullopt;
  std::optional<Grant> found;
  visit_common(caller.subject_ids, namespace_grants_.row(namespace_id), [&](uint32_t binding) {
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
  Decision decision{true, binding.label, role.label, role.rule_texts[grant.rule], {}};
  std::string& why = decision.why;
  why.reserve(64 + binding.label.size() + role.label.size() + decision.rule.size() +
              request.resource.size() + request.namespace_name.size() + request.name.size());
  append_caller(why, caller.subject);
  why += " may ";
  append_request(why, request);
  why += ": ";
  why += binding.label;
  why += " grants ";
  why += role.label;
  why += " (";
  why += decision.rule;
  why += ')';
  return decision;
}

Decision Authorizer::denied(const Caller& caller, const AccessRequest& request) const {
  Decision decision;
  std::string& why = decision.why;
  why.reserve(96 + request.resource.size() + request.namespace_name.size() + request.name.size());
  append_caller(why, caller.subject);
  why += " cannot ";
  append_request(why, request);
  if (!caller.scope || scope_allows(caller, request)) {
    why += ": no binding grants it";
    return decision;
  }
  const SessionScope& scope = *caller.scope;
  why += caller.scope_role == kNoId
             ? ": the session's role " + in_quotes(scope.role) + " does not exist"
             : ": the session is limited to " + roles_[caller.scope_role].label + " in namespace " +
                   in_quotes(scope.namespace_name);
  return decision;
}

Decision Authorizer::authorize_path(const Caller& caller, std::string_view verb,
                                    std::string_view path) const {
  const std::string request = std::string(verb) + " " + std::string(path);
  for (uint32_t subject : caller.scope ? std::vector<uint32_t>() : caller.subject_ids) {
    for (uint32_t index : cluster_grants_.row(subject)) {
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
    if (subject >= cluster_subject_end_) break;
    for (uint32_t binding : cluster_grants_.row(subject)) {
      const std::vector<PolicyRule>& granted = roles_[bindings_[binding].role].rules;
      rules.insert(rules.end(), granted.begin(), granted.end());
    }
  }
  const uint32_t namespace_id =
      namespace_name.empty() ? kNoId : namespace_names_.find(namespace_name);
  if (namespace_id == kNoId) return rules;
  visit_common(caller.subject_ids, namespace_grants_.row(namespace_id), [&](uint32_t binding) {
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
    if (subject >= cluster_subject_end_) break;
    for (uint32_t binding : cluster_grants_.row(subject)) {
      if (matching_rule(binding, anywhere)) {
        reach.everywhere = true;
        return reach;
      }
    }
  }
  for (uint32_t subject : caller.subject_ids) {
    for (uint32_t binding : namespaced_grants_.row(subject)) {
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
