#include "identity/oidc/oidc_http_client.h"

#include <cctype>

#include <httplib.h>

#include "identity/oidc/discovery.h"

namespace allot::oidc {
namespace {

struct SplitUrl {
  std::string origin;  // scheme://host[:port]
  std::string path;    // "/..." with its query
};

Result<SplitUrl> split_url(const std::string& url) {
  if (!is_acceptable_endpoint(url)) {
    return invalid_argument("OIDC endpoint is not an https URL (or http to a loopback host)");
  }
  const size_t host_start = url.find("://") + 3;
  const size_t path_start = url.find('/', host_start);
  if (path_start == std::string::npos) return SplitUrl{url, "/"};
  return SplitUrl{url.substr(0, path_start), url.substr(path_start)};
}

void set_timeout(httplib::Client& client, Duration timeout, bool connect) {
  const auto seconds = static_cast<time_t>(timeout.ms() / 1000);
  const auto micros = static_cast<time_t>(timeout.ms() % 1000 * 1000);
  if (connect) {
    client.set_connection_timeout(seconds, micros);
  } else {
    client.set_read_timeout(seconds, micros);
    client.set_write_timeout(seconds, micros);
  }
}

}  // namespace

std::string form_urlencode(const FormFields& fields) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const auto& [name, value] : fields) {
    if (!out.empty()) out.push_back('&');
    for (const std::string* part : {&name, &value}) {
      for (char c : *part) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~') {
          out.push_back(c);
        } else {
          out += {'%', kHex[byte >> 4], kHex[byte & 0xF]};
        }
      }
      if (part == &name) out.push_back('=');
    }
  }
  return out;
}

Result<HttpReply> OidcHttpClient::get(const std::string& url) { return exchange("GET", url, ""); }

Result<HttpReply> OidcHttpClient::post_form(const std::string& url, const FormFields& fields) {
  return exchange("POST", url, form_urlencode(fields));
}

Result<HttpReply> OidcHttpClient::exchange(const std::string& method, const std::string& url,
                                           const std::string& form_body) {
  ALLOT_ASSIGN_OR_RETURN(SplitUrl split, split_url(url));
  httplib::Client client(split.origin);
  set_timeout(client, options_.connect_timeout, true);
  set_timeout(client, options_.read_timeout, false);
  client.set_follow_location(false);
  if (!options_.ca_cert_path.empty()) client.set_ca_cert_path(options_.ca_cert_path);

  HttpReply reply;
  bool too_large = false;
  httplib::Request request;
  request.method = method;
  request.path = split.path;
  request.headers = {{"Accept", "application/json"}};
  if (method == "POST") {
    request.headers.emplace("Content-Type", "application/x-www-form-urlencoded");
    request.body = form_body;
  }
  request.content_receiver = [&](const char* data, size_t length, uint64_t, uint64_t) {
    if (reply.body.size() + length > options_.max_body_bytes) {
      too_large = true;
      return false;
    }
    reply.body.append(data, length);
    return true;
  };
  const httplib::Result result = client.send(request);
  if (too_large) return Status(ErrorCode::kUnavailable, "OIDC answer over the size limit");
  if (!result) {
    return Status(ErrorCode::kUnavailable,
                  "OIDC request failed: " + httplib::to_string(result.error()), split.origin);
  }
  reply.status = result->status;
  return reply;
}

}  // namespace allot::oidc
