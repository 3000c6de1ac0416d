#include "api/utf8.h"

#include <cstdint>
#include <cstdio>
#include <string>

namespace allot {

Status check_utf8(std::string_view text) {
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      char byte[8];
      std::snprintf(byte, sizeof(byte), "0x%02X",
                    static_cast<unsigned>(static_cast<uint8_t>(text[i])));
      return invalid_argument(
          "the text is not valid UTF-8: byte " + std::string(byte) + " at offset " +
              std::to_string(i),
          "line " + std::to_string(line) + ", column " + std::to_string(i - line_start + 1));
    }
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
    i += length;
  }
  return {};
}

}  // namespace allot
