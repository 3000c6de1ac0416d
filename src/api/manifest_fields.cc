#include "api/manifest_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

#include "api/number_text.h"

namespace allot {
namespace {

// Largest whole number of seconds that still fits a Duration.
constexpr int64_t kMaxManifestSeconds = Duration::max().ms() / 1000;

// Kubernetes limits names (DNS-1123 subdomains) to this length.
constexpr size_t kMaxNameLength = 253;

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool is_valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  if (!is_name_char(name.front()) || !is_name_char(name.back())) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_name_char(c) || c == '-' || c == '.'; });
}

Status error_at(const DocNode& node, std::string path, std::string_view message,
                ErrorCode code = ErrorCode::kInvalidArgument) {
  return {code, std::string(message) + node.position(), std::move(path)};
}

}  // namespace

std::string Field::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

std::string Field::element_path(size_t index) const {
  return path_ + "[" + std::to_string(index) + "]";
}

Status Field::error(std::string_view message, ErrorCode code) const {
  return error_at(node_, path_, message, code);
}

Result<std::string> Field::as_string() const {
  if (!node_.is_scalar()) {
    return error("expected a string, got " + std::string(node_.type_name()));
  }
  return node_.scalar();
}

Result<std::string> Field::as_name() const {
  ALLOT_ASSIGN_OR_RETURN(std::string name, as_string());
  if (name.empty()) return error("a name cannot be empty");
  if (!is_valid_name(name)) {
    return error("'" + name +
                 "' is not a valid name: use at most 253 lowercase letters, digits, '-' and '.', "
                 "starting and ending with a letter or digit");
  }
  return name;
}

Result<bool> Field::as_bool() const {
  if (node_.is_scalar()) {
    const std::string text = node_.scalar();
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
  }
  return error("expected true or false");
}

Result<int64_t> Field::as_int(int64_t min, int64_t max) const {
  if (!node_.is_scalar()) {
    return error("expected an integer, got " + std::string(node_.type_name()));
  }
  const std::string text = node_.scalar();
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec == std::errc::result_out_of_range) {
    return error("integer '" + text + "' is too large", ErrorCode::kOutOfRange);
  }
  if (ec != std::errc() || end != text.data() + text.size()) {
    return error("expected an integer, got '" + text + "'");
  }
  if (value < min) {
    return error("must be at least " + std::to_string(min) + ", got " + text);
  }
  if (value > max) {
    return error("must be at most " + std::to_string(max) + ", got " + text,
                 ErrorCode::kOutOfRange);
  }
  return value;
}

Result<double> Field::as_number(double min) const {
  if (!node_.is_scalar()) {
    return error("expected a number, got " + std::string(node_.type_name()));
  }
  const std::string text = node_.scalar();
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return error("expected a number, got '" + text + "'");
  }
  if (value < min) {
    return error("must be at least " + number_text(min) + ", got " + text);
  }
  return value;
}

Result<Duration> Field::as_duration(Duration min) const {
  if (!node_.is_scalar()) {
    return error("expected a duration like 30s, 100ms or 2h, got " +
                 std::string(node_.type_name()));
  }
  const std::string text = node_.scalar();
  ALLOT_ASSIGN_OR_RETURN(const Duration value, located(parse_duration(text)));
  if (value < min) {
    return error("must be at least " + min.to_string() + ", got " + text);
  }
  return value;
}

Result<Duration> Field::as_seconds() const {
  ALLOT_ASSIGN_OR_RETURN(const int64_t seconds, as_int(0, kMaxManifestSeconds));
  return Duration::seconds(seconds);
}

Result<int64_t> Field::as_quantity(Resource resource) const {
  if (!node_.is_scalar()) {
    return error("expected a quantity like 8, 500m or 64Gi, got " + std::string(node_.type_name()));
  }
  return located(parse_quantity(resource, node_.scalar()));
}

Result<std::vector<Field>> Field::elements() const {
  if (!node_.is_sequence()) {
    return error("expected a list, got " + std::string(node_.type_name()));
  }
  std::vector<DocNode> items = node_.elements();
  std::vector<Field> out;
  out.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) out.emplace_back(std::move(items[i]), element_path(i));
  return out;
}

Result<std::vector<std::string>> Field::as_string_list() const {
  return decode_list<std::string>(*this, [](const Field& item) { return item.as_string(); });
}

Result<std::map<std::string, std::string>> Field::as_string_map() const {
  if (!node_.is_map()) {
    return error("expected a map of strings, got " + std::string(node_.type_name()));
  }
  std::map<std::string, std::string> out;
  for (const DocNode::Entry& entry : node_.entries()) {
    if (!entry.key_is_scalar) return error_at(entry.key_node, path_, "map keys must be strings");
    ALLOT_ASSIGN_OR_RETURN(std::string value,
                           Field(entry.value, child_path(entry.key)).as_string());
    if (!out.emplace(entry.key, std::move(value)).second) {
      return error_at(entry.key_node, child_path(entry.key), "duplicate key '" + entry.key + "'");
    }
  }
  return out;
}

Result<MapReader> MapReader::open(const Field& field) {
  const DocNode& node = field.node();
  if (node.is_null()) return MapReader(field);
  if (!node.is_map()) {
    return field.error("expected a map, got " + std::string(node.type_name()));
  }
  std::set<std::string> seen;
  for (const DocNode::Entry& entry : node.entries()) {
    if (!entry.key_is_scalar) {
      return error_at(entry.key_node, field.path(), "field names must be strings");
    }
    if (!seen.insert(entry.key).second) {
      return error_at(entry.key_node, field.child_path(entry.key),
                      "duplicate field '" + entry.key + "'");
    }
  }
  return MapReader(field);
}

std::optional<Field> MapReader::get(std::string_view key) {
  allow(key);
  std::optional<DocNode> value = field_.node().find(key);
  if (!value) return std::nullopt;
  return Field(*std::move(value), field_.child_path(key));
}

Result<Field> MapReader::require(std::string_view key) {
  std::optional<Field> value = get(key);
  if (!value) {
    return error_at(field_.node(), field_.child_path(key),
                    "missing required field '" + std::string(key) + "'");
  }
  return *std::move(value);
}

void MapReader::allow(std::string_view key) {
  if (std::find(known_.begin(), known_.end(), key) == known_.end()) {
    known_.emplace_back(key);
  }
}

Status MapReader::read_string(std::string_view key, std::string& out) {
  return read(key, out, [](const Field& f) { return f.as_string(); });
}

Status MapReader::read_required_string(std::string_view key, std::string& out) {
  return read_required(key, out, [](const Field& f) { return f.as_string(); });
}

Status MapReader::read_name(std::string_view key, std::string& out) {
  return read(key, out, [](const Field& f) { return f.as_name(); });
}

Status MapReader::read_required_name(std::string_view key, std::string& out) {
  return read_required(key, out, [](const Field& f) { return f.as_name(); });
}

Status MapReader::read_bool(std::string_view key, bool& out) {
  return read(key, out, [](const Field& f) { return f.as_bool(); });
}

Status MapReader::read_number(std::string_view key, double& out, double min) {
  return read(key, out, [min](const Field& f) { return f.as_number(min); });
}

Status MapReader::read_duration(std::string_view key, Duration& out, Duration min) {
  return read(key, out, [min](const Field& f) { return f.as_duration(min); });
}

Status MapReader::read_required_duration(std::string_view key, Duration& out) {
  return read_required(key, out, [](const Field& f) { return f.as_duration(); });
}

Status MapReader::read_seconds(std::string_view key, std::optional<Duration>& out) {
  return read(key, out, [](const Field& f) { return f.as_seconds(); });
}

Status MapReader::read_seconds(std::string_view key, Duration& out) {
  return read(key, out, [](const Field& f) { return f.as_seconds(); });
}

Status MapReader::read_string_list(std::string_view key, std::vector<std::string>& out) {
  return read(key, out, [](const Field& f) { return f.as_string_list(); });
}

Status MapReader::read_string_map(std::string_view key, std::map<std::string, std::string>& out) {
  return read(key, out, [](const Field& f) { return f.as_string_map(); });
}

Status MapReader::finish() const {
  for (const DocNode::Entry& entry : field_.node().entries()) {
    const std::string& key = entry.key;
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string expected;
    for (const std::string& name : known_) {
      expected += (expected.empty() ? "" : ", ") + name;
    }
    return error_at(
        entry.key_node, field_.child_path(key),
        "unknown field '" + key + "'" + (expected.empty() ? "" : "; expected one of " + expected));
  }
  return {};
}

}  // namespace allot
