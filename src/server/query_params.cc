#include "server/query_params.h"

#include <charconv>
#include <string>

namespace allot::server {

Result<uint64_t> unsigned_param(const HttpRequest& req, const char* name, uint64_t fallback,
                                uint64_t max) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max) {
    return invalid_argument(std::string(name) + " must be a whole number up to " +
                                std::to_string(max) + ", not '" + text + "'",
                            name);
  }
  return value;
}

}  // namespace allot::server
