#include "api/dns_label.h"

#include <string>

namespace allot {
namespace {

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

bool is_dns_label(std::string_view text) {
  if (text.empty() || text.size() > kMaxDnsLabelLength) return false;
  if (!lower_alnum(text.front()) || !lower_alnum(text.back())) return false;
  for (char c : text) {
    if (!lower_alnum(c) && c != '-') return false;
  }
  return true;
}

Status check_dns_label(std::string_view text, std::string_view field) {
  if (is_dns_label(text)) return {};
  std::string shown(text.substr(0, kMaxDnsLabelLength));
  for (char& c : shown) {
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  }
  return invalid_argument(std::string(field) + " '" + shown +
                              "' is not a DNS-1123 label: at most 63 lowercase letters, digits "
                              "and '-', starting and ending with a letter or digit",
                          std::string(field));
}

}  // namespace allot
