#include "server/request_framing.h"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace allot::server {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

std::optional<FramingRefusal> framing_refusal(const httplib::Request& req) {
  if (req.headers.size() > kMaxHeaderFields) {
    return FramingRefusal{431, "request_header_fields_too_large",
                          "a request may carry at most " + std::to_string(kMaxHeaderFields) +
                              " header fields (this one: " + std::to_string(req.headers.size()) +
                              ")"};
  }
  for (const auto& [name, value] : req.headers) {
    const std::string key = lower(name);
    if (key == "content-encoding" && lower(value) != "identity") {
      return FramingRefusal{415, "unsupported_media_type",
                            "compressed request bodies are not accepted (Content-Encoding: " +
                                value + "): send the body as it is"};
    }
    if (key == "content-type" && lower(value).starts_with("multipart/")) {
      return FramingRefusal{415, "unsupported_media_type",
                            "multipart bodies are not accepted: send YAML (application/yaml) or "
                            "JSON (application/json)"};
    }
    if (key == "transfer-encoding" && lower(value).find("chunked") != std::string::npos) {
      return FramingRefusal{411, "length_required",
                            "a request body must declare its length (Content-Length); chunked "
                            "bodies are not accepted"};
    }
  }
  return std::nullopt;
}

}  // namespace allot::server
