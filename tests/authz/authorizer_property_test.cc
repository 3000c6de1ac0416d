// Properties of the authorizer over random policies (fixed seeds): the index
// agrees with a naive scan of every binding, adding a binding never removes
// a permission, and a covered rule set never allows what its owner cannot.
#include <algorithm>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "authz/rule_covers.h"
#include "authz/rule_match.h"
#include "authz/rule_text.h"
#include "rbac_fixtures.h"

namespace allot {
namespace {

using namespace rbac_test;

const std::vector<std::string> kPropertyNamespaces = {"a", "b", "c", "d"};
const std::vector<std::string> kUsers = {
    "u0", "u1", "u2", "u3", "system:serviceaccount:a:sa", "system:serviceaccount:b:sa"};
const std::vector<std::string> kGroups = {
    "g0", "g1", "g2", "g3", "system:serviceaccounts:a", "system:serviceaccounts"};
const std::vector<std::string> kVerbs = {"get", "list", "create", "cancel", "delete", "*"};
const std::vector<std::string> kResources = {
    "workloads", "workloads/logs", "events", "nodes", "roles", "*", "*/logs"};
const std::vector<std::string> kApiGroups = {"allot", "rbac.authorization.k8s.io", "*"};
const std::vector<std::string> kPropertyNames = {"w1", "w2"};

class RandomPolicy {
 public:
  explicit RandomPolicy(uint64_t seed) : rng_(seed) {}

  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[std::uniform_int_distribution<size_t>(0, items.size() - 1)(rng_)];
  }
  bool coin(double p) { return std::bernoulli_distribution(p)(rng_); }

  Strings some(const Strings& items, size_t most) {
    Strings out;
    const size_t count = std::uniform_int_distribution<size_t>(1, most)(rng_);
    for (size_t i = 0; i < count; ++i) out.push_back(pick(items));
    return out;
  }

  PolicyRule random_rule() {
    return rule(some(kVerbs, 2), some(kResources, 2), some(kApiGroups, 1),
                coin(0.2) ? some(kPropertyNames, 1) : Strings{});
  }
  std::vector<PolicyRule> random_rules() {
    std::vector<PolicyRule> rules;
    for (int i = 0; i < 2; ++i) rules.push_back(random_rule());
    return rules;
  }

  Subject random_subject() {
    const int kind = std::uniform_int_distribution<int>(0, 2)(rng_);
    if (kind == 0) return user(pick(kUsers));
    if (kind == 1) return group(pick(kGroups));
    return service_account(pick(kPropertyNamespaces), "sa");
  }

  RoleBinding random_role_binding(int index) {
    const std::string& ns = pick(kPropertyNamespaces);
    const RoleRef ref = coin(0.5) ? cluster_role_ref("cr" + std::to_string(index % 5))
                                  : role_ref("r" + std::to_string(index % 3));
    return role_binding(ns, "rb" + std::to_string(index), ref,
                        {random_subject(), random_subject()});
  }

  RbacPolicy policy(int bindings) {
    RbacPolicy policy;
    for (int i = 0; i < 5; ++i) {
      policy.cluster_roles.push_back(cluster_role("cr" + std::to_string(i), random_rules()));
    }
    for (const std::string& ns : kPropertyNamespaces) {
      for (int i = 0; i < 3; ++i)
        policy.roles.push_back(role(ns, "r" + std::to_string(i), random_rules()));
    }
    for (int i = 0; i < bindings; ++i) {
      if (coin(0.15)) {
        policy.cluster_role_bindings.push_back(cluster_role_binding(
            "crb" + std::to_string(i), "cr" + std::to_string(i % 5), {random_subject()}));
      } else {
        policy.role_bindings.push_back(random_role_binding(i));
      }
    }
    return policy;
  }

  Principal random_principal() {
    Principal principal = Principal::user(pick(kUsers));
    for (int i = 0; i < 2; ++i) {
      if (coin(0.5)) principal.groups.push_back(pick(kGroups));
    }
    return principal;
  }

 private:
  std::mt19937_64 rng_;
};

bool matches(const Subject& subject, const Principal& principal) {
  std::string_view account_ns;
  std::string_view account;
  const bool is_account = split_service_account(principal.subject, account_ns, account);
  switch (subject.kind) {
    case SubjectKind::kUser: return subject.name == principal.subject;
    case SubjectKind::kServiceAccount:
      return principal.subject ==
             "system:serviceaccount:" + subject.namespace_name + ":" + subject.name;
    case SubjectKind::kGroup:
      if (is_account && (subject.name == "system:serviceaccounts" ||
                         subject.name == "system:serviceaccounts:" + std::string(account_ns))) {
        return true;
      }
      return std::find(principal.groups.begin(), principal.groups.end(), subject.name) !=
             principal.groups.end();
  }
  return false;
}

bool any_allows(const std::vector<PolicyRule>& rules, const AccessRequest& request) {
  return std::any_of(rules.begin(), rules.end(),
                     [&](const PolicyRule& rule) { return rule_allows(rule, request); });
}

// Every binding scanned in turn: what the index must agree with.
bool naive_allows(const RbacPolicy& policy, const Principal& principal,
                  const AccessRequest& request) {
  auto subject_in = [&](const std::vector<Subject>& subjects) {
    return std::any_of(subjects.begin(), subjects.end(),
                       [&](const Subject& s) { return matches(s, principal); });
  };
  auto cluster_rules = [&](const std::string& name) -> const std::vector<PolicyRule>* {
    for (const ClusterRole& role : policy.cluster_roles) {
      if (role.meta.name == name) return &role.rules;
    }
    return nullptr;
  };
  for (const ClusterRoleBinding& binding : policy.cluster_role_bindings) {
    const auto* rules = cluster_rules(binding.role_ref.name);
    if (rules && subject_in(binding.subjects) && any_allows(*rules, request)) return true;
  }
  for (const RoleBinding& binding : policy.role_bindings) {
    if (binding.meta.namespace_name != request.namespace_name || !subject_in(binding.subjects)) {
      continue;
    }
    const std::vector<PolicyRule>* rules = nullptr;
    if (binding.role_ref.kind == RoleRefKind::kClusterRole) {
      rules = cluster_rules(binding.role_ref.name);
    } else {
      for (const Role& role : policy.roles) {
        if (role.meta.namespace_name == request.namespace_name &&
            role.meta.name == binding.role_ref.name) {
          rules = &role.rules;
        }
      }
    }
    if (rules && any_allows(*rules, request)) return true;
  }
  return false;
}

std::vector<AccessRequest> every_request() {
  static const std::vector<std::string> kAskedResources = {
      "workloads", "workloads/logs", "workloads/exec", "events", "nodes", "roles"};
  static const std::vector<std::string> kAskedVerbs = {"get",    "list",   "create",
                                                       "cancel", "delete", "bind"};
  static const std::vector<std::string> kAskedNamespaces = {"a", "b", "c", "d", "e", ""};
  static const std::vector<std::string> kAskedNames = {"w1", "w3", ""};
  static const std::vector<std::string> kAskedGroups = {"allot", "rbac.authorization.k8s.io"};
  std::vector<AccessRequest> requests;
  for (const auto& verb : kAskedVerbs) {
    for (const auto& group : kAskedGroups) {
      for (const auto& resource : kAskedResources) {
        for (const auto& ns : kAskedNamespaces) {
          for (const auto& name : kAskedNames)
            requests.push_back({verb, group, resource, ns, name});
        }
      }
    }
  }
  return requests;
}

TEST(AuthorizerProperty, TheIndexAgreesWithANaiveScanOfEveryBinding) {
  const std::vector<AccessRequest> requests = every_request();
  int checked = 0;
  int allowed = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    RandomPolicy random(seed);
    const RbacPolicy policy = random.policy(30);
    const Authorizer authorizer(policy);
    for (int p = 0; p < 6; ++p) {
      const Principal principal = random.random_principal();
      const Caller caller = authorizer.resolve(principal);
      for (const AccessRequest& request : requests) {
        const Decision decision = authorizer.authorize(caller, request);
        ASSERT_EQ(decision.allowed, naive_allows(policy, principal, request))
            << "seed " << seed << ": " << decision.why;
        ++checked;
        allowed += decision.allowed ? 1 : 0;
      }
    }
  }
  EXPECT_GT(checked, 50'000);
  EXPECT_GT(allowed, checked / 20) << "the random policies should allow a fair share";
  std::cout << checked << " decisions, " << allowed << " allowed\n";
}

TEST(AuthorizerProperty, AddingABindingNeverRemovesAPermission) {
  const std::vector<AccessRequest> requests = every_request();
  for (uint64_t seed = 100; seed < 120; ++seed) {
    RandomPolicy random(seed);
    RbacPolicy policy = random.policy(20);
    const Authorizer before(policy);
    policy.role_bindings.push_back(random.random_role_binding(99));
    const Authorizer after(policy);
    for (int p = 0; p < 6; ++p) {
      const Principal principal = random.random_principal();
      const Caller was = before.resolve(principal);
      const Caller is = after.resolve(principal);
      for (const AccessRequest& request : requests) {
        if (before.allows(was, request)) {
          ASSERT_TRUE(after.allows(is, request)) << "seed " << seed;
        }
      }
    }
  }
}

TEST(AuthorizerProperty, DecisionsAreDeterministic) {
  RandomPolicy random(7);
  const RbacPolicy policy = random.policy(30);
  const Authorizer first(policy);
  const Authorizer second(policy);
  const Principal principal = random.random_principal();
  for (const AccessRequest& request : every_request()) {
    ASSERT_EQ(first.authorize(first.resolve(principal), request),
              second.authorize(second.resolve(principal), request));
  }
}

TEST(AuthorizerProperty, WhatARuleSetCoversItsOwnerAllows) {
  const std::vector<AccessRequest> requests = every_request();
  int covered_pairs = 0;
  for (uint64_t seed = 200; seed < 1200; ++seed) {
    RandomPolicy random(seed);
    const std::vector<PolicyRule> owner = random.random_rules();
    const std::vector<PolicyRule> servant = {random.random_rule()};
    if (!uncovered_rules(owner, servant).empty()) continue;
    ++covered_pairs;
    for (const AccessRequest& request : requests) {
      if (any_allows(servant, request)) {
        ASSERT_TRUE(any_allows(owner, request))
            << "seed " << seed << ": " << describe_rule(servant[0]);
      }
    }
  }
  EXPECT_GT(covered_pairs, 10);
}

}  // namespace
}  // namespace allot
