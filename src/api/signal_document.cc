#include "api/signal_document.h"

#include <cctype>
#include <string>
#include <utility>

#include "api/signal_expression.h"

namespace allot {
namespace {

// The longest `for`: a month; longer holds say nothing an owner can act on.
constexpr Duration kMaxSignalFor = Duration::hours(24 * 31);

Result<std::string> decode_http_url(const Field& field, std::string_view what) {
  ALLOT_ASSIGN_OR_RETURN(std::string url, field.as_string());
  if (!is_http_url(url)) {
    return field.error(std::string(what) + " must be an http:// or https:// URL with a host");
  }
  return url;
}

Result<SignalResponse> decode_response(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  SignalResponse response;
  ALLOT_RETURN_IF_ERROR(map.read_required_string("text", response.text));
  ALLOT_RETURN_IF_ERROR(map.read("runbook", response.runbook,
                                 [](const Field& f) { return decode_http_url(f, "the runbook"); }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return response;
}

}  // namespace

bool is_http_url(std::string_view text) {
  std::string_view rest;
  if (text.starts_with("https://")) {
    rest = text.substr(8);
  } else if (text.starts_with("http://")) {
    rest = text.substr(7);
  } else {
    return false;
  }
  const size_t host_end = rest.find_first_of("/?");
  const std::string_view host = rest.substr(0, host_end);
  if (host.empty() || host.front() == ':' || host.find('@') != std::string_view::npos) {
    return false;
  }
  for (const char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) != 0 || c == '#' ||
        std::iscntrl(static_cast<unsigned char>(c)) != 0) {
      return false;
    }
  }
  return true;
}

Result<Signal> decode_signal(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Signal signal;
  signal.meta = std::move(meta);
  SignalSpec& s = signal.spec;
  ALLOT_ASSIGN_OR_RETURN(const Field expression, map.require("expression"));
  ALLOT_ASSIGN_OR_RETURN(s.expression, expression.as_string());
  Result<SignalQuery> query = parse_signal_expression(s.expression);
  if (!query.ok()) return expression.error(query.status().message());
  s.query = *std::move(query);
  if (std::optional<Field> hold = map.get("for")) {
    ALLOT_ASSIGN_OR_RETURN(s.for_duration, hold->as_duration());
    if (s.for_duration > kMaxSignalFor) return hold->error("for is at most 31 days");
  }
  ALLOT_ASSIGN_OR_RETURN(const Field owner, map.require("owner"));
  ALLOT_ASSIGN_OR_RETURN(s.owner, owner.as_string());
  if (s.owner.empty()) return owner.error("owner must not be empty: someone answers a signal");
  ALLOT_RETURN_IF_ERROR(map.read_required("response", s.response, decode_response));
  ALLOT_RETURN_IF_ERROR(
      map.read("webhook", s.webhook, [](const Field& f) { return decode_http_url(f, "webhook"); }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return signal;
}

}  // namespace allot
