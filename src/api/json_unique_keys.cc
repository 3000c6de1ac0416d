#include "api/json_unique_keys.h"

#include <unordered_set>
#include <utility>

namespace allot {
namespace {

using Event = nlohmann::json::parse_event_t;

// Follows the parser's events: the open objects and arrays, the keys each
// object has had and where each one is (its current key or index).
class RepeatFinder {
 public:
  bool on_event(Event event, const nlohmann::json& parsed) {
    switch (event) {
      case Event::object_start: frames_.push_back({true, {}, {}, 0}); break;
      case Event::array_start: frames_.push_back({false, {}, {}, 0}); break;
      case Event::key: on_key(parsed.get_ref<const std::string&>()); break;
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        next_element();
        break;
      case Event::value: next_element(); break;
    }
    return true;  // keep everything
  }

  std::vector<JsonStep> take_repeated_key() { return std::move(repeated_key_); }

 private:
  struct Frame {
    bool is_object;
    std::unordered_set<std::string> keys;
    std::string key;  // of the value being parsed, in an object
    size_t index;     // of the element being parsed, in an array
  };

  // A value ended: in an array, the next one has the next index.
  void next_element() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
  }

  void on_key(const std::string& key) {
    Frame& frame = frames_.back();
    frame.key = key;
    if (frame.keys.insert(key).second || !repeated_key_.empty()) return;
    for (const Frame& open : frames_) {
      repeated_key_.push_back(open.is_object ? JsonStep(open.key) : JsonStep(open.index));
    }
  }

  std::vector<Frame> frames_;
  std::vector<JsonStep> repeated_key_;
};

}  // namespace

UniqueKeysJson parse_json_unique_keys(std::string_view text) {
  RepeatFinder finder;
  UniqueKeysJson out;
  out.value = nlohmann::json::parse(
      text.begin(), text.end(),
      [&finder](int /*depth*/, Event event, nlohmann::json& parsed) {
        return finder.on_event(event, parsed);
      },
      /*allow_exceptions=*/false);
  if (!out.value.is_discarded()) out.repeated_key = finder.take_repeated_key();
  return out;
}

}  // namespace allot
