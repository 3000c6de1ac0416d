#include "api/json_writer.h"

#include <charconv>
#include <cmath>
#include <utility>

#include "api/utf8.h"
#include "base/check.h"

namespace allot {
namespace {

void append_escaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const size_t length = utf8_sequence_length(text, i);
      if (length == 0) {
        out.append(kUtf8Replacement);
        ++i;
      } else {
        out.append(text.substr(i, length));
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (c < 0x20) {
          out.append("\\u00");
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
}

template <typename Number>
void append_number(std::string& out, Number number) {
  char buffer[32];
  const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), number);
  ALLOT_CHECK(error == std::errc());
  out.append(buffer, end);
}

}  // namespace

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_.push_back(',');
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::open(char bracket) {
  before_value();
  out_.push_back(bracket);
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  ALLOT_CHECK(!first_.empty() && !after_key_);
  first_.pop_back();
  out_.push_back(bracket);
  return *this;
}

JsonWriter& JsonWriter::begin_object() { return open('{'); }
JsonWriter& JsonWriter::end_object() { return close('}'); }
JsonWriter& JsonWriter::begin_array() { return open('['); }
JsonWriter& JsonWriter::end_array() { return close(']'); }

JsonWriter& JsonWriter::key(std::string_view name) {
  ALLOT_CHECK(!first_.empty() && !after_key_);
  before_value();
  append_escaped(out_, name);
  out_.push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
  before_value();
  append_escaped(out_, text);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t number) {
  before_value();
  append_number(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t number) {
  before_value();
  append_number(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  ALLOT_CHECK(std::isfinite(number));
  before_value();
  char buffer[64];
  const auto [end, error] =
      std::to_chars(buffer, buffer + sizeof(buffer), number, std::chars_format::fixed);
  ALLOT_CHECK(error == std::errc());
  const std::string_view text(buffer, static_cast<size_t>(end - buffer));
  out_.append(text);
  // nlohmann writes a double that holds a whole number as "2.0".
  if (text.find('.') == std::string_view::npos) out_.append(".0");
  return *this;
}

JsonWriter& JsonWriter::value(bool flag) {
  before_value();
  out_.append(flag ? "true" : "false");
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_.append("null");
  return *this;
}

std::string JsonWriter::take() {
  first_.clear();
  after_key_ = false;
  return std::exchange(out_, std::string());
}

}  // namespace allot
