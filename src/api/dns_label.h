// DNS-1123 labels: the names Kubernetes gives namespaces and service
// accounts here (RFC 1123: at most 63 characters, lowercase letters, digits
// and '-', starting and ending with a letter or digit).
//
// Contract: pure. check_dns_label() answers kInvalidArgument naming `field`
// and quoting at most the first 63 characters of what was given.
#pragma once

#include <string_view>

#include "base/status.h"

namespace allot {

inline constexpr size_t kMaxDnsLabelLength = 63;

bool is_dns_label(std::string_view text);
Status check_dns_label(std::string_view text, std::string_view field);

}  // namespace allot
