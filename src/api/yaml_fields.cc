#include "api/yaml_fields.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <system_error>

namespace allot {
namespace {

// Largest whole number of seconds that still fits a Duration.
constexpr int64_t kMaxSeconds = Duration::max().ms() / 1000;

std::string_view type_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a map";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "null";
    case YAML::NodeType::Undefined: break;
  }
  return "nothing";
}

// Kubernetes limits names (DNS-1123 subdomains) to this length.
constexpr size_t kMaxNameLength = 253;

bool is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool is_valid_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  if (!is_name_char(name.front()) || !is_name_char(name.back())) return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return is_name_char(c) || c == '-' || c == '.'; });
}

// Shortest text that reads back as `value` ("0", "2.5").
std::string format_number(double value) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return ec == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

std::string position(const YAML::Mark& mark) {
  if (mark.is_null()) return {};
  return " (line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1) +
         ")";
}

Status error_at(const YAML::Mark& mark, std::string path, std::string_view message,
                ErrorCode code = ErrorCode::kInvalidArgument) {
  return {code, std::string(message) + position(mark), std::move(path)};
}

}  // namespace

std::string Field::child_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

std::string Field::element_path(size_t index) const {
  return path_ + "[" + std::to_string(index) + "]";
}

Status Field::error(std::string_view message, ErrorCode code) const {
  return error_at(node_.Mark(), path_, message, code);
}

Result<std::string> Field::as_string() const {
  if (!node_.IsScalar()) {
    return error("expected a string, got " + std::string(type_name(node_)));
  }
  return node_.Scalar();
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
  if (node_.IsScalar()) {
    const std::string& text = node_.Scalar();
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
  }
  return error("expected true or false");
}

Result<int64_t> Field::as_int(int64_t min, int64_t max) const {
  if (!node_.IsScalar()) {
    return error("expected an integer, got " + std::string(type_name(node_)));
  }
  const std::string& text = node_.Scalar();
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
  if (!node_.IsScalar()) {
    return error("expected a number, got " + std::string(type_name(node_)));
  }
  const std::string& text = node_.Scalar();
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return error("expected a number, got '" + text + "'");
  }
  if (value < min) {
    return error("must be at least " + format_number(min) + ", got " + text);
  }
  return value;
}

Result<Duration> Field::as_duration(Duration min) const {
  if (!node_.IsScalar()) {
    return error("expected a duration like 30s, 100ms or 2h, got " + std::string(type_name(node_)));
  }
  ALLOT_ASSIGN_OR_RETURN(const Duration value, located(parse_duration(node_.Scalar())));
  if (value < min) {
    return error("must be at least " + min.to_string() + ", got " + node_.Scalar());
  }
  return value;
}

Result<Duration> Field::as_seconds() const {
  ALLOT_ASSIGN_OR_RETURN(const int64_t seconds, as_int(0, kMaxSeconds));
  return Duration::seconds(seconds);
}

Result<int64_t> Field::as_quantity(Resource resource) const {
  if (!node_.IsScalar()) {
    return error("expected a quantity like 8, 500m or 64Gi, got " + std::string(type_name(node_)));
  }
  return located(parse_quantity(resource, node_.Scalar()));
}

Result<std::vector<Field>> Field::elements() const {
  if (!node_.IsSequence()) {
    return error("expected a list, got " + std::string(type_name(node_)));
  }
  std::vector<Field> out;
  out.reserve(node_.size());
  for (size_t i = 0; i < node_.size(); ++i) {
    out.emplace_back(node_[i], element_path(i));
  }
  return out;
}

Result<std::vector<std::string>> Field::as_string_list() const {
  return decode_list<std::string>(*this, [](const Field& item) { return item.as_string(); });
}

Result<std::map<std::string, std::string>> Field::as_string_map() const {
  if (!node_.IsMap()) {
    return error("expected a map of strings, got " + std::string(type_name(node_)));
  }
  std::map<std::string, std::string> out;
  for (const auto& entry : node_) {
    if (!entry.first.IsScalar()) {
      return error_at(entry.first.Mark(), path_, "map keys must be strings");
    }
    const std::string& key = entry.first.Scalar();
    ALLOT_ASSIGN_OR_RETURN(std::string value, Field(entry.second, child_path(key)).as_string());
    if (!out.emplace(key, std::move(value)).second) {
      return error_at(entry.first.Mark(), child_path(key), "duplicate key '" + key + "'");
    }
  }
  return out;
}

Result<MapReader> MapReader::open(const Field& field) {
  const YAML::Node& node = field.node();
  if (node.IsNull()) return MapReader(field);
  if (!node.IsMap()) {
    return field.error("expected a map, got " + std::string(type_name(node)));
  }
  std::set<std::string> seen;
  for (const auto& entry : node) {
    if (!entry.first.IsScalar()) {
      return error_at(entry.first.Mark(), field.path(), "field names must be strings");
    }
    const std::string& key = entry.first.Scalar();
    if (!seen.insert(key).second) {
      return error_at(entry.first.Mark(), field.child_path(key), "duplicate field '" + key + "'");
    }
  }
  return MapReader(field);
}

std::optional<Field> MapReader::get(std::string_view key) {
  allow(key);
  if (!field_.is_map()) return std::nullopt;
  for (const auto& entry : field_.node()) {
    if (entry.first.Scalar() == key) {
      if (entry.second.IsNull()) return std::nullopt;
      return Field(entry.second, field_.child_path(key));
    }
  }
  return std::nullopt;
}

Result<Field> MapReader::require(std::string_view key) {
  std::optional<Field> value = get(key);
  if (!value) {
    return error_at(field_.node().Mark(), field_.child_path(key),
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
  if (!field_.is_map()) return {};
  for (const auto& entry : field_.node()) {
    const std::string& key = entry.first.Scalar();
    if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
    std::string expected;
    for (const std::string& name : known_) {
      expected += (expected.empty() ? "" : ", ") + name;
    }
    return error_at(
        entry.first.Mark(), field_.child_path(key),
        "unknown field '" + key + "'" + (expected.empty() ? "" : "; expected one of " + expected));
  }
  return {};
}

}  // namespace allot
