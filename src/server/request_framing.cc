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

std::optional<FramingRefusal> framing_refusal(const HttpRequest& req) {
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
  }
  return std::nullopt;
}

}  // namespace allot::server
