#include "authz/rule_covers.h"

#include <algorithm>
#include <string>
#include <string_view>

#include "authz/rule_match.h"

namespace allot {
namespace {

constexpr std::string_view kAnyEntry = "*";

bool lists_entry(const std::vector<std::string>& items, std::string_view item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

// Owner entries cover a servant entry when they hold "*" or the entry itself.
bool covers_literally(const std::vector<std::string>& owner, std::string_view entry) {
  return lists_entry(owner, kAnyEntry) || lists_entry(owner, entry);
}

bool covers_resource(const std::vector<std::string>& owner, std::string_view resource) {
  if (covers_literally(owner, resource)) return true;
  const size_t slash = resource.find('/');
  return slash != std::string_view::npos &&
         lists_entry(owner, std::string(kAnyEntry) + std::string(resource.substr(slash)));
}

bool covers_url(const std::vector<std::string>& owner, std::string_view url) {
  for (const std::string& pattern : owner) {
    // A prefix pattern covers a narrower pattern too ("/api/*" covers "/api/v1/*").
    if (url_matches(pattern, url)) return true;
  }
  return false;
}

void add_resource_atoms(const PolicyRule& rule, std::vector<PolicyRule>& out) {
  for (const std::string& group : rule.api_groups) {
    for (const std::string& resource : rule.resources) {
      for (const std::string& verb : rule.verbs) {
        if (rule.resource_names.empty()) {
          out.push_back({{verb}, {group}, {resource}, {}, {}});
          continue;
        }
        for (const std::string& name : rule.resource_names) {
          out.push_back({{verb}, {group}, {resource}, {name}, {}});
        }
      }
    }
  }
}

void add_url_atoms(const PolicyRule& rule, std::vector<PolicyRule>& out) {
  for (const std::string& url : rule.non_resource_urls) {
    for (const std::string& verb : rule.verbs) out.push_back({{verb}, {}, {}, {}, {url}});
  }
}

}  // namespace

std::vector<PolicyRule> atomic_rules(std::span<const PolicyRule> rules) {
  std::vector<PolicyRule> atoms;
  for (const PolicyRule& rule : rules) {
    add_resource_atoms(rule, atoms);
    add_url_atoms(rule, atoms);
  }
  return atoms;
}

bool rule_covers(const PolicyRule& owner, const PolicyRule& atom) {
  if (!covers_literally(owner.verbs, atom.verbs.front())) return false;
  if (!atom.non_resource_urls.empty())
    return covers_url(owner.non_resource_urls, atom.non_resource_urls.front());
  if (!covers_literally(owner.api_groups, atom.api_groups.front())) return false;
  if (!covers_resource(owner.resources, atom.resources.front())) return false;
  if (owner.resource_names.empty()) return true;
  return !atom.resource_names.empty() &&
         lists_entry(owner.resource_names, atom.resource_names.front());
}

std::vector<PolicyRule> uncovered_rules(std::span<const PolicyRule> owner,
                                        std::span<const PolicyRule> servant) {
  std::vector<PolicyRule> missing;
  for (PolicyRule& atom : atomic_rules(servant)) {
    const bool covered = std::any_of(owner.begin(), owner.end(), [&](const PolicyRule& rule) {
      return rule_covers(rule, atom);
    });
    if (!covered) missing.push_back(std::move(atom));
  }
  return missing;
}

}  // namespace allot
