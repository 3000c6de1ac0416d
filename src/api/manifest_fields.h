// Typed, path-tracking reads of manifest nodes: the vocabulary of the
// manifest decoders.
//
// Contract: a Field is a document node (DocNode: YAML, or a JSON body) plus
// the path that leads to it ("spec.quota[0].flavor"). Every read yields a
// value or a Status (code invalid_argument, or out_of_range for numbers
// beyond their limit) whose details() is the field's path and whose message
// says what was expected and, for YAML, where the value sits in the text
// ("line 12, column 5"). A null reads as an absent field. MapReader
// remembers every key it was asked for; finish() rejects any other key as an
// unknown field, so a decoder that reads a map must end with finish().
//
// Nothing here throws, provided YAML nodes come from a successful YAML::Load.
// Copies of a Field share its node: use them within one thread.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/doc_node.h"
#include "base/quantity.h"
#include "base/result.h"
#include "base/status.h"
#include "base/time.h"

namespace allot {

// One accepted spelling of an enum in a manifest: {"Never", ReclaimPolicy::kNever}.
template <typename E>
struct EnumName {
  std::string_view name;
  E value;
};

class Field {
 public:
  Field(DocNode node, std::string path) : node_(std::move(node)), path_(std::move(path)) {}

  [[nodiscard]] const DocNode& node() const { return node_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] bool is_map() const { return node_.is_map(); }

  // The path of a child: "spec" + "quota" = "spec.quota"; index 0 = "spec.quota[0]".
  [[nodiscard]] std::string child_path(std::string_view key) const;
  [[nodiscard]] std::string element_path(size_t index) const;

  // An error located at this field: details = path, message + its position in the text.
  [[nodiscard]] Status error(std::string_view message,
                             ErrorCode code = ErrorCode::kInvalidArgument) const;
  // Relocates the error of a base parser (parse_quantity, parse_duration) to this field.
  template <typename T>
  [[nodiscard]] Result<T> located(Result<T> result) const {
    if (result.ok()) return result;
    return error(result.status().message(), result.status().code());
  }

  [[nodiscard]] Result<std::string> as_string() const;
  // An object name, as Kubernetes names objects (a DNS-1123 subdomain): lowercase
  // letters, digits, '-' and '.', starting and ending with a letter or digit.
  [[nodiscard]] Result<std::string> as_name() const;
  [[nodiscard]] Result<bool> as_bool() const;
  // An integer in [min, max]; below min is invalid_argument, above max out_of_range.
  [[nodiscard]] Result<int64_t> as_int(int64_t min, int64_t max) const;
  // A finite number >= min ("4.50", "3").
  [[nodiscard]] Result<double> as_number(double min) const;
  // "30s", "100ms", "2h", or a bare number of seconds; at least `min`.
  [[nodiscard]] Result<Duration> as_duration(Duration min = Duration()) const;
  // A whole number of seconds >= 0 (minRuntimeSeconds, maxRuntimeSeconds).
  [[nodiscard]] Result<Duration> as_seconds() const;
  // "8", "500m", "64Gi", in the base units of `resource` (see base/quantity.h).
  [[nodiscard]] Result<int64_t> as_quantity(Resource resource) const;
  // The elements of a sequence, each with its indexed path.
  [[nodiscard]] Result<std::vector<Field>> elements() const;
  [[nodiscard]] Result<std::vector<std::string>> as_string_list() const;
  [[nodiscard]] Result<std::map<std::string, std::string>> as_string_map() const;

  template <typename E>
  [[nodiscard]] Result<E> as_enum(std::span<const EnumName<E>> names) const {
    ALLOT_ASSIGN_OR_RETURN(const std::string text, as_string());
    std::string allowed;
    for (const EnumName<E>& entry : names) {
      if (entry.name == text) return entry.value;
      allowed += (allowed.empty() ? "" : ", ") + std::string(entry.name);
    }
    return error("unknown value '" + text + "'; expected one of " + allowed);
  }

 private:
  DocNode node_;
  std::string path_;
};

// Decodes every element of a list with `decode` (Field -> Result<T>).
template <typename T, typename Decode>
Result<std::vector<T>> decode_list(const Field& field, Decode&& decode) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<Field> items, field.elements());
  std::vector<T> out;
  out.reserve(items.size());
  for (const Field& item : items) {
    ALLOT_ASSIGN_OR_RETURN(T value, decode(item));
    out.push_back(std::move(value));
  }
  return out;
}

// A decoder (Field -> Result<Int>) of an integer of type Int within [min, max].
template <typename Int>
auto int_decoder(Int min = std::numeric_limits<Int>::min(),
                 Int max = std::numeric_limits<Int>::max()) {
  return [min, max](const Field& field) -> Result<Int> {
    ALLOT_ASSIGN_OR_RETURN(const int64_t value, field.as_int(min, max));
    return static_cast<Int>(value);
  };
}

// Reads a map key by key. A null node reads as an empty map.
class MapReader {
 public:
  // Fails when `field` is neither a map nor null, or repeats a key.
  [[nodiscard]] static Result<MapReader> open(const Field& field);

  // The value under `key`, or nullopt when absent or null. Marks `key` as known.
  [[nodiscard]] std::optional<Field> get(std::string_view key);
  // Like get(), but an absent key is an error.
  [[nodiscard]] Result<Field> require(std::string_view key);
  // Marks `key` as known without reading it.
  void allow(std::string_view key);

  // Decodes `key` with `decode` (Field -> Result<T>) into `out` when present;
  // leaves `out` untouched when absent.
  template <typename T, typename Decode>
  [[nodiscard]] Status read(std::string_view key, T& out, Decode&& decode) {
    std::optional<Field> value = get(key);
    if (!value) return {};
    ALLOT_ASSIGN_OR_RETURN(out, decode(*value));
    return {};
  }
  // Like read(), but an absent key is an error.
  template <typename T, typename Decode>
  [[nodiscard]] Status read_required(std::string_view key, T& out, Decode&& decode) {
    ALLOT_ASSIGN_OR_RETURN(const Field value, require(key));
    ALLOT_ASSIGN_OR_RETURN(out, decode(value));
    return {};
  }

  [[nodiscard]] Status read_string(std::string_view key, std::string& out);
  [[nodiscard]] Status read_bool(std::string_view key, bool& out);
  [[nodiscard]] Status read_number(std::string_view key, double& out, double min);
  [[nodiscard]] Status read_duration(std::string_view key, Duration& out,
                                     Duration min = Duration());
  [[nodiscard]] Status read_required_duration(std::string_view key, Duration& out);
  [[nodiscard]] Status read_seconds(std::string_view key, std::optional<Duration>& out);
  [[nodiscard]] Status read_seconds(std::string_view key, Duration& out);
  [[nodiscard]] Status read_string_list(std::string_view key, std::vector<std::string>& out);
  [[nodiscard]] Status read_string_map(std::string_view key,
                                       std::map<std::string, std::string>& out);

  [[nodiscard]] Status read_required_string(std::string_view key, std::string& out);
  [[nodiscard]] Status read_name(std::string_view key, std::string& out);
  [[nodiscard]] Status read_required_name(std::string_view key, std::string& out);

  template <typename Int>
  [[nodiscard]] Status read_int(std::string_view key, Int& out,
                                std::type_identity_t<Int> min = std::numeric_limits<Int>::min(),
                                std::type_identity_t<Int> max = std::numeric_limits<Int>::max()) {
    return read(key, out, int_decoder<Int>(min, max));
  }

  template <typename E>
  [[nodiscard]] Status read_enum(std::string_view key, E& out,
                                 std::type_identity_t<std::span<const EnumName<E>>> names) {
    return read(key, out, [names](const Field& f) { return f.as_enum(names); });
  }

  // Fails on the first key that no get()/require()/allow() asked for.
  [[nodiscard]] Status finish() const;

 private:
  explicit MapReader(Field field) : field_(std::move(field)) {}

  Field field_;
  std::vector<std::string> known_;  // keys asked for, in the order asked
};

}  // namespace allot
