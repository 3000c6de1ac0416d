#include "service/control/workload_redaction.h"

namespace allot {
namespace {

constexpr std::string_view kPreemptedBy = "preempted by ";

// A key ends where a phrase's punctuation starts; names are DNS labels.
bool ends_key(char c) { return c == ' ' || c == ';' || c == ',' || c == ')' || c == '('; }

}  // namespace

std::string preempted_by_phrase(std::string_view preemptor_key) {
  return std::string(kPreemptedBy) + std::string(preemptor_key);
}

std::string redact_workload_key(std::string_view key, const VisibleNamespaces& visible) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos || visible.contains(key.substr(0, slash))) {
    return std::string(key);
  }
  return std::string(kOtherTeamsWorkload);
}

std::string redact_message(std::string_view message, const VisibleNamespaces& visible) {
  if (visible.everywhere) return std::string(message);
  std::string redacted;
  size_t from = 0;
  for (size_t at = message.find(kPreemptedBy); at != std::string_view::npos;
       at = message.find(kPreemptedBy, from)) {
    const size_t key_begin = at + kPreemptedBy.size();
    size_t key_end = key_begin;
    while (key_end < message.size() && !ends_key(message[key_end])) ++key_end;
    redacted.append(message.substr(from, key_begin - from));
    redacted += redact_workload_key(message.substr(key_begin, key_end - key_begin), visible);
    from = key_end;
  }
  redacted.append(message.substr(from));
  return redacted;
}

}  // namespace allot
