#include "identity/oidc/strict_json.h"

#include <set>
#include <string>
#include <vector>

namespace allot::oidc {
namespace {

using Json = nlohmann::json;

// Follows the parser's events: the member names seen in each open object, and
// the first reason to refuse the document.
struct Strictness {
  std::vector<std::set<std::string>> open_objects;
  int depth = 0;
  const char* refusal = nullptr;

  bool on_event(int event_depth, Json::parse_event_t event, const Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start: open_objects.emplace_back(); [[fallthrough]];
      case Json::parse_event_t::array_start:
        if (event_depth >= kMaxJsonDepth && refusal == nullptr) refusal = "nested too deeply";
        break;
      case Json::parse_event_t::object_end:
        if (!open_objects.empty()) open_objects.pop_back();
        break;
      case Json::parse_event_t::key:
        if (!open_objects.empty() && parsed.is_string() &&
            !open_objects.back().insert(parsed.get_ref<const std::string&>()).second &&
            refusal == nullptr) {
          refusal = "a duplicate member name";
        }
        break;
      default: break;
    }
    return true;
  }
};

}  // namespace

Result<Json> parse_strict_json(std::string_view text, std::string_view what) {
  Strictness strictness;
  Json parsed;
  try {
    parsed = Json::parse(
        text.begin(), text.end(),
        [&strictness](int depth, Json::parse_event_t event, Json& value) {
          return strictness.on_event(depth, event, value);
        },
        /*allow_exceptions=*/false, /*ignore_comments=*/false);
  } catch (const std::exception&) {
    return invalid_argument(std::string(what) + " is not valid JSON");
  }
  if (parsed.is_discarded()) return invalid_argument(std::string(what) + " is not valid JSON");
  if (strictness.refusal != nullptr) {
    return invalid_argument(std::string(what) + " is refused: " + strictness.refusal);
  }
  return parsed;
}

}  // namespace allot::oidc
