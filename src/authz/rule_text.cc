#include "authz/rule_text.h"

#include <vector>

namespace allot {
namespace {

constexpr std::string_view kServiceAccountPrefix = "system:serviceaccount:";

std::string list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) {
    if (out.size() > 1) out += ", ";
    out += item;
  }
  return out + "]";
}

void append_quoted(std::string& out, std::string_view text) {
  out += '"';
  out += text;
  out += '"';
}

}  // namespace

std::string in_quotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::string describe_rule(const PolicyRule& rule) {
  std::string text = "verbs " + list(rule.verbs);
  if (!rule.resources.empty() || rule.non_resource_urls.empty()) {
    text += " on " + list(rule.resources) + " in apiGroups " + list(rule.api_groups);
    if (!rule.resource_names.empty()) text += " named " + list(rule.resource_names);
  }
  if (!rule.non_resource_urls.empty()) text += " on URLs " + list(rule.non_resource_urls);
  return text;
}

std::string describe_subject(const Subject& subject) {
  switch (subject.kind) {
    case SubjectKind::kUser: return "User " + in_quotes(subject.name);
    case SubjectKind::kGroup: return "Group " + in_quotes(subject.name);
    case SubjectKind::kServiceAccount:
      return "ServiceAccount " + in_quotes(subject.namespace_name + "/" + subject.name);
  }
  return "Subject " + in_quotes(subject.name);
}

bool split_service_account(std::string_view subject, std::string_view& namespace_name,
                           std::string_view& name) {
  if (!subject.starts_with(kServiceAccountPrefix)) return false;
  const std::string_view rest = subject.substr(kServiceAccountPrefix.size());
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == rest.size()) return false;
  if (rest.find(':', colon + 1) != std::string_view::npos) return false;
  namespace_name = rest.substr(0, colon);
  name = rest.substr(colon + 1);
  return true;
}

void append_caller(std::string& out, std::string_view subject) {
  std::string_view namespace_name;
  std::string_view name;
  if (split_service_account(subject, namespace_name, name)) {
    out += "ServiceAccount \"";
    out += namespace_name;
    out += '/';
    out += name;
    out += '"';
    return;
  }
  out += "User ";
  append_quoted(out, subject);
}

void append_request(std::string& out, const AccessRequest& request) {
  out += request.verb;
  out += ' ';
  out += request.resource;
  if (!request.name.empty()) {
    out += ' ';
    append_quoted(out, request.name);
  }
  if (request.namespace_name.empty()) {
    out += " at cluster scope";
    return;
  }
  out += " in namespace ";
  append_quoted(out, request.namespace_name);
}

std::string describe_caller(std::string_view subject) {
  std::string out;
  append_caller(out, subject);
  return out;
}

std::string describe_request(const AccessRequest& request) {
  std::string out;
  append_request(out, request);
  return out;
}

}  // namespace allot
