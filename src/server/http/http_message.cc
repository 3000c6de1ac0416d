#include "server/http/http_message.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace allot::server {

bool CaseInsensitiveLess::operator()(std::string_view a, std::string_view b) const {
  return std::lexicographical_compare(
      a.begin(), a.end(), b.begin(), b.end(),
      [](unsigned char x, unsigned char y) { return std::tolower(x) < std::tolower(y); });
}

bool HttpRequest::has_param(std::string_view name) const {
  return params.find(std::string(name)) != params.end();
}

std::string HttpRequest::get_param_value(std::string_view name) const {
  const auto found = params.find(std::string(name));
  return found == params.end() ? std::string() : found->second;
}

bool HttpRequest::has_header(std::string_view name) const {
  return headers.find(name) != headers.end();
}

std::string HttpRequest::get_header_value(std::string_view name) const {
  const auto found = headers.find(name);
  return found == headers.end() ? std::string() : found->second;
}

void HttpResponse::set_header(std::string_view name, std::string value) {
  const auto [first, last] = headers.equal_range(name);
  headers.erase(first, last);
  headers.emplace(std::string(name), std::move(value));
}

std::string HttpResponse::get_header_value(std::string_view name) const {
  const auto found = headers.find(name);
  return found == headers.end() ? std::string() : found->second;
}

void HttpResponse::set_content(std::string content, std::string_view content_type) {
  body = std::move(content);
  set_header("Content-Type", std::string(content_type));
}

}  // namespace allot::server
