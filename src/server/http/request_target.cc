#include "server/http/request_target.h"

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

namespace allot::server {
namespace {

Status bad_target(std::string_view target, std::string_view why) {
  constexpr size_t kQuoted = 100;
  std::string quoted(target.substr(0, kQuoted));
  if (target.size() > kQuoted) quoted += "...";
  return invalid_argument("bad request target '" + quoted + "': " + std::string(why),
                          "request-target");
}

}  // namespace

Result<RequestTarget> parse_request_target(std::string_view target) {
  namespace urls = boost::urls;
  const auto parsed =
      target.starts_with('/') ? urls::parse_origin_form(target) : urls::parse_absolute_uri(target);
  if (!parsed) return bad_target(target, parsed.error().message());
  const urls::url_view& url = *parsed;
  RequestTarget out;
  out.path = url.path();
  if (out.path.empty()) out.path = "/";
  if (!out.path.starts_with('/')) return bad_target(target, "the path must start with '/'");
  if (!url.has_query()) return out;
  const urls::params_view params = url.params(urls::encoding_opts(/*space_as_plus=*/true));
  if (params.size() > kMaxQueryParameters) {
    return bad_target(target,
                      "more than " + std::to_string(kMaxQueryParameters) + " query parameters");
  }
  for (const urls::param& param : params) {
    out.params.emplace_back(param.key, param.has_value ? param.value : std::string());
  }
  return out;
}

}  // namespace allot::server
